// The check for work, for the stale sandboxes only, batched per parent repository:
//  - HEADs and "is it on a remote" for all sandboxes of a parent in two or three git processes (heads.ts);
//  - uncommitted changes of a disk sandbox proved absent from the filesystem where possible
//    (clean-probe.ts), else `git status` on the host; of volume sandboxes, `git status` in one helper
//    container per parent (volume-inspection.ts).
// Every check is read-only (`--no-optional-locks`; volumes and parent mounted read-only).
import type { ContainerEngine } from '../engine/engine.js';
import type { Git } from '../engine/git.js';
import type { WorkFinding } from './gates.js';
import { operationInProgress, proveClean } from './clean-probe.js';
import { readHeads, type HeadFacts } from './heads.js';
import { inParallel } from './parallel.js';
import type { ParentRef, ScannedSandbox } from './scan.js';
import { inspectVolumes, type VolumeInspection } from './volume-inspection.js';
import { countPorcelainEntries, summarizeWork, type CheckResult } from './work-finding.js';

export interface WorkReport {
  work: WorkFinding;
  /** Volumes: measured by the helper. */
  sizeBytes?: number;
  /** Disk: true when the filesystem alone proved the worktree clean (no git status needed). */
  provedByFilesystem?: boolean;
}

export interface WorkDeps {
  git: Git;
  engine: ContainerEngine;
  image: string;
}

/** Checks registered sandboxes of live parents; returns a report per sandbox key. */
export async function checkWork(
  sandboxes: readonly ScannedSandbox[],
  deps: WorkDeps,
): Promise<Map<string, WorkReport>> {
  const byParent = new Map<string, { parent: ParentRef; sandboxes: ScannedSandbox[] }>();
  for (const s of sandboxes) {
    if (!s.parent || !s.entry) continue;
    const group = byParent.get(s.parent.gitDir) ?? { parent: s.parent, sandboxes: [] };
    group.sandboxes.push(s);
    byParent.set(s.parent.gitDir, group);
  }
  const reports = new Map<string, WorkReport>();
  // Two parents at a time: one's git processes or helper container run while the other's files are read.
  await inParallel([...byParent.values()], 2, async ({ parent, sandboxes: group }) => {
    const heads = await readHeads(
      deps.git,
      parent.gitDir,
      group.map((s) => s.entry!.adminDir),
    );
    const volumes = group.filter((s) => s.volume);
    const inspected = volumes.length
      ? await inspectVolumesSafely(deps, parent, volumes)
      : new Map<string, VolumeInspection>();
    for (const s of group) {
      const head = heads.get(s.entry!.adminDir) ?? { error: 'HEAD was not read' };
      if (s.volume) {
        const seen = inspected.get(s.volume);
        reports.set(s.key, {
          work: finding(s, head, seen?.uncommitted ?? { error: 'the volume was not inspected' }),
          sizeBytes: seen?.sizeBytes,
        });
      } else {
        const { uncommitted, proved } = await diskUncommitted(deps.git, s, head);
        reports.set(s.key, { work: finding(s, head, uncommitted), provedByFilesystem: proved });
      }
    }
  });
  return reports;
}

function finding(s: ScannedSandbox, head: HeadFacts, uncommitted: CheckResult<number>): WorkFinding {
  return summarizeWork({
    operation: operationInProgress(s.entry!.adminDir),
    uncommitted,
    unpushed: head.error ? { error: head.error } : { value: head.unpushed === true },
  });
}

async function diskUncommitted(
  git: Git,
  s: ScannedSandbox,
  head: HeadFacts,
): Promise<{ uncommitted: CheckResult<number>; proved: boolean }> {
  if (head.tree && proveClean(s.hostPath!, s.entry!.adminDir, head.tree).clean)
    return { uncommitted: { value: 0 }, proved: true };
  const status = await git.exec(s.hostPath!, [
    '--no-optional-locks',
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
  ]);
  if (status.exitCode !== 0)
    return {
      uncommitted: {
        error: `git status failed: ${status.stderr.trim().split('\n')[0] || `exit ${status.exitCode}`}`,
      },
      proved: false,
    };
  return { uncommitted: { value: countPorcelainEntries(status.stdout) }, proved: false };
}

async function inspectVolumesSafely(
  deps: WorkDeps,
  parent: ParentRef,
  volumes: ScannedSandbox[],
): Promise<Map<string, VolumeInspection>> {
  try {
    return await inspectVolumes(
      deps.engine,
      deps.image,
      parent,
      volumes.map((s) => ({ volume: s.volume!, sandbox: s.sandbox, checkStatus: true })),
    );
  } catch (error) {
    const failure: VolumeInspection = { uncommitted: { error: (error as Error).message } };
    return new Map(volumes.map((s) => [s.volume!, failure]));
  }
}
