// What the main step leaves for the post step: the sandbox, how far the run got, what it found.
import type { EngineName } from '../engine/engine.js';
import type { Sandbox } from '../sandbox/layout.js';
import type { CleanupPolicy, Identity } from '../settings/settings.js';
import type { WorkFacts } from './report.js';

export interface RunState {
  engine: EngineName;
  image: string;
  cleanup: CleanupPolicy;
  location: Sandbox;
  /** What bringing the work back needs, should the post step have to do it. */
  collect: { author: Identity; committer: Identity; maxImportBytes: number };
  /** Set once the sandbox exists (created or reused). */
  ready?: boolean;
  startSha?: string;
  container?: string;
  /**
   * Set while the engine's view of a sandbox taken as it is waits for its proof by the command's container
   * (its probe files, removed by the post step after a killed run): until the engine created that
   * container, the post step touches nothing of the sandbox.
   */
  viewProof?: { files: string[] };
  /**
   * The engine-view probe's helper (created, never started), from just before the engine creates it until
   * the main step removed it: the post step of a killed main step removes it. Saved before anything else,
   * so it carries its engine.
   */
  probe?: { engine: EngineName; name: string };
  /** The secret scan held the work back (`secret-scan: block`): the sandbox is kept for a person to look at. */
  secretsFound?: boolean;
  /** The command's exit code, once it really ran (a container that never started sets none). */
  exitCode?: number;
  /**
   * What the main step's report said of the work left in the sandbox, when it got that far: counts only.
   * The state travels to the post step in one environment variable (Linux takes ~128 KiB per variable),
   * so it holds what finds the sandbox and decides its fate, a few hundred bytes whatever the sandbox
   * holds; the post step works out anything else again (commits on no remote, the patch).
   */
  report?: Omit<WorkFacts, 'unpushedCommits'> & {
    /** The branch the sandbox's HEAD was on (at most 256 characters), for the post step's kept reason. */
    currentBranch?: string;
  };
}
