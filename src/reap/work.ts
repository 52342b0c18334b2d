// The check for work, for the stale sandboxes only, batched per parent repository. Nothing runs git on
// the host inside a sandbox, or with anything a container could have written:
//  - history: HEAD and every ref of a sandbox, read as data (disk: by the host, bounded, lstat only; a
//    linked worktree's from its registration in the parent, its branch resolved in the parent; volumes:
//    by a helper container), must name objects the parent has saved (src/sandbox/saved.ts: reachable
//    from its remote-tracking refs or tags; from its branches too when it has no remote), checked by
//    parent-check.ts, host git on the parent only;
//  - uncommitted changes of a disk sandbox: proved absent from its index and files where possible
//    (clean-probe.ts, with HEAD's tree from the parent), untracked entries judged with the ignore rules
//    of HEAD's tree read from the parent (ignored.ts); otherwise, and for every volume, `git status`
//    in a helper container that never reads the sandbox's own configuration (helper-inspection.ts).
// Every check is read-only: sandboxes are mounted read-only, and nothing rewrites an index.
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import type { HelperImage } from '../engine/helper-image.js';
import type { ParentRepository } from '../sandbox/repository.js';
import { sandboxText } from '../ui/sandbox-text.js';
import { branchOf, type UnsavedCommits } from '../sandbox/saved.js';
import { matchHeadTree, type IndexProof, proveAgainstIndex } from './clean-probe.js';
import { type CheckResult, summarizeWork, type WorkFinding } from './decide.js';
import { inspectInHelpers } from './helper-inspection.js';
import type { Inspection, InspectionRequest, InspectionTarget } from './inspection-script.js';
import { branchTips, readLinkedGit } from './linked-worktree.js';
import { inParallel } from './parallel.js';
import { checkAgainstParent, type NamedObjects, type ParentVerdict } from './parent-check.js';
import { operationInProgress, readSandboxGit } from '../sandbox/sandbox-files.js';
import type { ScannedSandbox } from './scan.js';
import { gitDirOf, isCheckable } from './scanned-sandbox.js';
import { gitignoreNames, judgeUntrackedInParent, type UntrackedQuestion } from './ignored.js';

export interface WorkReport {
  work: WorkFinding;
  /** Volumes: measured by the helper. */
  sizeBytes?: number;
  /** Disk: true when the filesystem alone proved the work tree clean (no helper needed). */
  provedByFilesystem?: boolean;
}

/**
 * Why no helper may bind a disk sandbox, asked when the first one is about to (work.ts, execute.ts) and
 * answered once (look.ts `helpersRefusal`): undefined when the engine sees the worktree root.
 */
export type DiskHelpersRefused = () => Promise<string | undefined>;

export interface WorkDeps {
  git: GitCommands;
  engine: EngineCommands;
  image: HelperImage;
  /**
   * Says why when the engine does not see the worktree root where the reaper does: no helper binds a disk
   * sandbox, and one that only a helper could judge is kept, with this reason.
   */
  diskHelpersRefused?: DiskHelpersRefused;
}

/** Parents checked at once (each: two or three git processes, a helper container when one is needed). */
const PARENTS_IN_FLIGHT = 4;

/** What one sandbox's history is, before the parent is asked (`headRef`: the branch HEAD is on, as read). */
type History =
  { error: string } | { headOid: string; named: readonly string[]; operation?: string; headRef?: string };

/** Checks registered sandboxes of live parents; returns a report per sandbox key. */
export async function checkWork(
  sandboxes: readonly ScannedSandbox[],
  deps: WorkDeps,
): Promise<Map<string, WorkReport>> {
  const reports = new Map<string, WorkReport>();
  const byParent = new Map<string, { parent: ParentRepository; sandboxes: ScannedSandbox[] }>();
  for (const s of sandboxes) {
    if (!s.parent || !isCheckable(s)) continue;
    const early = earlyFinding(s);
    if (early) {
      reports.set(s.key, { work: early });
      continue;
    }
    const group = byParent.get(s.parent.gitDir) ?? { parent: s.parent, sandboxes: [] };
    group.sandboxes.push(s);
    byParent.set(s.parent.gitDir, group);
  }
  // A few parents at a time: one's git or helper container runs while another's files are read.
  await inParallel([...byParent.values()], PARENTS_IN_FLIGHT, async ({ parent, sandboxes: group }) => {
    const found = await checkSplittingFailures(parent, group, deps);
    for (const [key, report] of found) reports.set(key, report);
  });
  return reports;
}

/**
 * A parent's sandboxes checked together; when that fails, each half again, down to the one sandbox that
 * fails alone: it is reported unknown (so kept) with the reason, and every other gets its real verdict.
 */
async function checkSplittingFailures(
  parent: ParentRepository,
  group: readonly ScannedSandbox[],
  deps: WorkDeps,
): Promise<Map<string, WorkReport>> {
  try {
    return await checkParentGroup(parent, group, deps);
  } catch (error) {
    if (group.length === 1) {
      const detail = `its check failed: ${JSON.stringify((error as Error).message)}`;
      return new Map([[group[0].key, { work: { state: 'unknown', detail } }]]);
    }
    const half = Math.ceil(group.length / 2);
    const first = await checkSplittingFailures(parent, group.slice(0, half), deps);
    const second = await checkSplittingFailures(parent, group.slice(half), deps);
    return new Map([...first, ...second]);
  }
}

/** What is decided without a look inside: a half-made sandbox, a suspicious or broken one. */
function earlyFinding(s: ScannedSandbox): WorkFinding | undefined {
  // The command never ran in a sandbox whose creation was interrupted (creation comes first).
  if (s.recorded === 'creating') return { state: 'clean' };
  if (s.suspicious) return { state: 'unknown', detail: `suspicious: ${s.suspicious}` };
  if (s.broken) return { state: 'unknown', detail: s.broken };
  return undefined;
}

async function checkParentGroup(
  parent: ParentRepository,
  group: readonly ScannedSandbox[],
  deps: WorkDeps,
): Promise<Map<string, WorkReport>> {
  const volumes = group.filter((s) => s.volume);
  const disks = group.filter((s) => s.hostPath);
  const inspected = volumes.length
    ? await inspectInHelpers(
        deps.engine,
        deps.image,
        parent,
        volumes.map((s) => request(s, { size: true })),
      )
    : new Map<string, Inspection>();

  // A linked worktree's branch is resolved in the parent.
  const histories = await diskHistories(disks, parent, deps.git);
  for (const s of volumes) {
    const work = inspected.get(s.key)?.work;
    histories.set(
      s.key,
      !work
        ? { error: inspected.get(s.key)?.error ?? 'the volume was not inspected' }
        : 'error' in work
          ? work
          : { ...work, headRef: s.headRef },
    );
  }
  const named: NamedObjects[] = [];
  for (const [key, h] of histories)
    if (!('error' in h)) named.push({ key, headOid: h.headOid, named: h.named });
  // Disk: the filesystem proves clean where it can, against the tree the index records: its untracked
  // entries say which of HEAD's .gitignore files the parent reads beside its answer (one git process).
  const proofs = new Map<string, IndexProof>();
  const gitignores = new Set<string>();
  for (const s of disks) {
    const history = histories.get(s.key);
    if (!history || 'error' in history) continue;
    const indexed = proofOf(s.hostPath!, gitDirOf(s), history.headOid.length / 2);
    if (!indexed) continue;
    proofs.set(s.key, indexed);
    const { proof, rootTree } = indexed;
    if (rootTree && !proof.clean && proof.untracked)
      for (const name of gitignoreNames(rootTree, proof.untracked)) gitignores.add(name);
  }
  const { verdicts, read } = await checkAgainstParent(deps.git, parent, named, [...gitignores]);

  // The proofs stand where the index's tree is HEAD's; untracked entries are judged with the parent's
  // ignore rules; the rest goes to one helper.
  const uncommitted = new Map<string, CheckResult<number>>();
  const proved = new Set<string>();
  const unsure: ScannedSandbox[] = [];
  const questions: UntrackedQuestion[] = [];
  for (const s of disks) {
    const verdict = verdicts.get(s.key);
    if (!verdict || verdict.error || verdict.unsaved) continue; // work found or check failed: no need
    const indexed = proofs.get(s.key);
    const proof = verdict.headTree && indexed ? matchHeadTree(indexed, verdict.headTree) : undefined;
    if (proof?.clean) {
      uncommitted.set(s.key, { value: 0 });
      proved.add(s.key);
    } else if (proof?.untracked)
      questions.push({
        key: s.key,
        worktree: s.hostPath!,
        gitDir: gitDirOf(s),
        headTree: verdict.headTree!,
        untracked: proof.untracked,
      });
    else unsure.push(s);
  }
  if (questions.length) {
    const judged = await judgeUntrackedInParent(deps.git, parent, questions, read);
    for (const s of disks) {
      const verdict = judged.get(s.key);
      if (!verdict) continue;
      if ('unsure' in verdict) unsure.push(s);
      else {
        uncommitted.set(s.key, { value: verdict.ignoredOnly ? 0 : verdict.untracked });
        if (verdict.ignoredOnly) proved.add(s.key);
      }
    }
  }
  const refused = unsure.length ? await deps.diskHelpersRefused?.() : undefined;
  if (refused) {
    for (const s of unsure) uncommitted.set(s.key, { error: `not inspected: ${refused}` });
  } else if (unsure.length) {
    const looked = await inspectInHelpers(
      deps.engine,
      deps.image,
      parent,
      unsure.map((s) => request(s, { headOid: (histories.get(s.key) as { headOid: string }).headOid })),
    );
    for (const s of unsure) {
      const work = looked.get(s.key)?.work;
      uncommitted.set(
        s.key,
        work && !('error' in work)
          ? work.uncommitted
          : { error: work?.error ?? looked.get(s.key)?.error ?? 'not inspected' },
      );
    }
  }
  for (const s of volumes) {
    const work = inspected.get(s.key)?.work;
    if (work && !('error' in work)) uncommitted.set(s.key, work.uncommitted);
  }

  const reports = new Map<string, WorkReport>();
  for (const s of group) {
    const history = histories.get(s.key)!;
    const work = finding(history, verdicts.get(s.key), uncommitted.get(s.key));
    reports.set(s.key, {
      work,
      sizeBytes: inspected.get(s.key)?.sizeBytes,
      provedByFilesystem: proved.has(s.key) || undefined,
    });
  }
  return reports;
}

/** A sandbox's git folder read as data; what throws (a trap in its folders) is that sandbox's error. */
function readGuarded<T>(read: () => T): T | { ok: false; error: string } {
  try {
    return read();
  } catch (error) {
    return { ok: false, error: `its .git could not be read: ${sandboxText((error as Error).message, 500)}` };
  }
}

/** The filesystem's proof; a walk that throws proves nothing (the helper looks instead). */
function proofOf(worktree: string, gitDir: string, hashBytes: number): IndexProof | undefined {
  try {
    return proveAgainstIndex(worktree, gitDir, hashBytes);
  } catch {
    return undefined;
  }
}

function request(
  s: ScannedSandbox,
  extra: Partial<InspectionRequest> & { headOid?: string },
): InspectionRequest {
  const { headOid, ...rest } = extra;
  const target: InspectionTarget = s.volume
    ? { volume: s.volume, name: s.sandbox }
    : s.linked
      ? { hostPath: s.hostPath!, gitDir: s.linked.adminDir, headOid: headOid! }
      : { hostPath: s.hostPath! };
  return { key: s.key, target, work: true, ...rest };
}

/**
 * HEAD and refs of disk sandboxes, read as data from their git folders (a linked worktree's from its
 * registration); a linked worktree's branch is the parent's, resolved there in one git process.
 */
async function diskHistories(
  disks: readonly ScannedSandbox[],
  parent: ParentRepository,
  git: GitCommands,
): Promise<Map<string, History>> {
  const histories = new Map<string, History>();
  const reads = disks.map((s) => {
    const gitDir = gitDirOf(s);
    return {
      s,
      gitDir,
      read: readGuarded(() => (s.linked ? readLinkedGit(gitDir) : readSandboxGit(gitDir))),
    };
  });
  const branches = reads.flatMap(({ read }) =>
    read.ok && !read.headOid && read.headRef ? [read.headRef] : [],
  );
  const tips = await branchTips(git, parent, [...new Set(branches)]);
  for (const { s, gitDir, read } of reads) {
    if (!read.ok) {
      histories.set(s.key, { error: read.error });
      continue;
    }
    let headOid = read.headOid;
    if (!headOid && read.headRef) {
      if ('error' in tips) {
        histories.set(s.key, { error: tips.error });
        continue;
      }
      headOid = tips.get(read.headRef);
      if (!headOid) {
        histories.set(s.key, { error: `HEAD names ${read.headRef}, which the parent does not have` });
        continue;
      }
    }
    histories.set(s.key, {
      headOid: headOid!,
      named: [...new Set([headOid!, ...read.named])],
      operation: operationInProgress(gitDir),
      headRef: read.headRef,
    });
  }
  return histories;
}

function finding(
  history: History,
  verdict: ParentVerdict | undefined,
  uncommitted: CheckResult<number> | undefined,
): WorkFinding {
  if ('error' in history)
    return summarizeWork({ uncommitted: { error: history.error }, unsaved: { error: history.error } });
  const unsaved: CheckResult<UnsavedCommits | undefined> = !verdict
    ? { error: 'the parent was not asked' }
    : verdict.error
      ? { error: verdict.error }
      : {
          value: verdict.unsaved && {
            ...verdict.unsaved,
            branch: branchOf(history.headRef),
            hasRemote: verdict.hasRemote !== false,
          },
        };
  return summarizeWork({
    operation: history.operation,
    uncommitted: uncommitted ?? { error: 'not checked' },
    unsaved,
  });
}
