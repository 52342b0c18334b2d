// The claude-code recipe of docs/agents.md, run as written with the real CLI (installed once from the npm
// registry at the version the page names) against a scripted fake of its API: the checks are those of
// test/support/agent-recipe-tests.ts. One file per CLI, so that Jest runs the CLIs in parallel workers.
import { describeRecipe } from '../../support/agent-recipe-tests.js';
import { claudeFake } from '../../support/agent-fakes.js';

describeRecipe('claude-code', claudeFake);
