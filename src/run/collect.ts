// After the command: the one way work comes back. Capture in a helper container, import on the host,
// report from the parent (ADR 0003).
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import * as fs from 'node:fs/promises';
import type { PreparedSandbox } from '../sandbox/layout.js';
import type { RunSettings } from '../settings/settings.js';
import { captureSandbox } from './capture.js';
import { importBundle } from './import.js';
import { buildReport, type WorktreeReport } from './report.js';

export interface CollectSettings {
  image: string;
  author: RunSettings['author'];
  committer: RunSettings['committer'];
  maxImportBytes: number;
}

/** Capture in a helper, import on the host, report from the parent. */
export async function collectChanges(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: PreparedSandbox,
  settings: CollectSettings,
  commitMessage?: string,
): Promise<WorktreeReport> {
  const parentBranch = sandbox.branch
    ? await git.resolveCommit(sandbox.parent.path, `refs/heads/${sandbox.branch}`)
    : undefined;
  const captured = await captureSandbox(engine, sandbox, {
    image: settings.image,
    commit: commitMessage !== undefined ? { message: commitMessage } : undefined,
    author: settings.author,
    committer: settings.committer,
    exclude: [...new Set([sandbox.startSha, ...(parentBranch ? [parentBranch] : [])])],
    maxBytes: settings.maxImportBytes,
    work: 'capture',
  });
  try {
    const imported = await importBundle(git, sandbox, captured);
    return await buildReport(git, sandbox.parent.path, sandbox.startSha, imported, captured);
  } finally {
    await fs.rm(captured.dir, { recursive: true, force: true });
  }
}
