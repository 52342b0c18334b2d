// One bundle for both phases (action.yml `main` and `post`), told apart by state saved in main.
import '../engine/memory.js';
import * as core from '@actions/core';
import { main, post } from './main.js';
import { isPost } from './state.js';

async function entry(): Promise<void> {
  try {
    if (isPost) await post();
    else await main();
  } catch (error) {
    core.setFailed((error as Error).message);
  }
}

void entry();
