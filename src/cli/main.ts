// The `worktree-sandbox` command: the action's core from a terminal or a cron job (program.ts).
import '../engine/memory.js';
import { main } from './program.js';

void main(process.argv.slice(2)).then((code) => process.exit(code));
