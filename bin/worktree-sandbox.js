#!/usr/bin/env node
// The CLI, bundled with the action's core into dist/cli/ (npm run build).
import '../dist/cli/index.js';
