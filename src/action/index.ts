// One bundle for both phases (action.yml `main` and `post`), told apart by state saved in main. The steps
// themselves are in main.ts.
import '../engine/memory.js';
import { cleanup, run } from './main.js';
import { isPost } from './step-state.js';

void (isPost ? cleanup() : run());
