// What the main step leaves for the post step: the sandbox, how far the run got, what it found.
import type { EngineName } from '../engine/engine.js';
import type { Sandbox } from '../sandbox/layout.js';
import type { CleanupPolicy, Identity } from '../settings.js';
import type { WorktreeReport } from './report.js';

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
  /** The command's exit code, once it really ran (a container that never started sets none). */
  exitCode?: number;
  /** The main step's report, when it got that far. */
  report?: WorktreeReport;
}
