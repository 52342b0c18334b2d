// The post step as a module of its own that exports `run()`, for runners of the source that take one
// module per step (@github/local-action's `--post`). The bundle does not use it: index.ts calls cleanup().
export { cleanup as run } from './main.js';
