// One check of the parent's .git against the ledger: what differs was done by a command whose guard is
// open (the action's own changes are in the ledger already), so it is undone and described. Checks run
// when a guard opens (before its container starts), when one closes (after its container is gone), and
// when an interrupted run's guard is finished; always under the repository lock and the ledger's lock.
// Pure file operations come first: no git command runs on the parent before its config, hooks and info/
// are back.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseConfigList } from './credentials.js';
import type { Git } from './git.js';
import { describeFileChange, diffStates, readState, restoreChanges, type FileRecord } from './guard-files.js';
import type { Ledger, OpenGuard } from './guard-ledger.js';
import {
  applyRefFixes,
  DISPLACED_NAMESPACE,
  looseRefNames,
  planRefFixes,
  readRefs,
  removeLooseRef,
  type RefFix,
  type RefRecord,
} from './guard-refs.js';

export interface CheckpointOptions {
  git: Git;
  ledger: Ledger;
  /** The ledger's blobs (file contents). */
  blobs: string;
  /** A host-only folder for scratch copies. */
  scratch: string;
  /** The guard whose window closes here: its command's changes to its own branch are taken as they are. */
  closing?: OpenGuard;
  /** No guard stays open after this check: the trusted state goes back, the credentials with it. */
  final: boolean;
  /** Names the refs under refs/worktree-sandbox/displaced/ that keep what an undone ref change pointed at. */
  label: string;
}

export interface CheckpointResult {
  violations: string[];
  /** What was done to an open guard's sandbox that is not a violation (its HEAD detached), by sandbox. */
  notes: Map<string, string[]>;
  /** Whether .git/config could not be put back (the credentials may be out of it still). */
  configFailed: boolean;
}

/** Compares, restores and describes; updates `ledger` (the closing guard's branch, vanished entries). */
export async function checkpoint(o: CheckpointOptions): Promise<CheckpointResult> {
  const { ledger } = o;
  const violations: string[] = [];
  const after: FileRecord[] = [];
  for (const root of ledger.roots) after.push(...(await readState(root.path, root.recursive)));
  const vanished = await vanishedEntries(ledger, violations);
  const packedRefs = path.join(ledger.gitDir, 'packed-refs');
  const compared = (records: FileRecord[]) =>
    records.filter((r) => r.path !== packedRefs && !vanished.has(path.dirname(r.path)));
  const exposedNow = ledger.files.map((f) => ledger.exposed.find((e) => e.path === f.path) ?? f);
  const unexpected = diffStates(compared(exposedNow), compared(after));
  const configPath = path.join(ledger.gitDir, 'config');
  const configDetail = unexpected.some((c) => c.path === configPath)
    ? await describeConfigChange(
        o,
        configPath,
        exposedNow.find((f) => f.path === configPath),
      )
    : '';
  const target = o.final ? ledger.files : exposedNow;
  const failed = await restoreChanges(diffStates(compared(target), compared(after)), o.blobs, [
    ledger.gitDir,
  ]);
  for (const change of unexpected) {
    const detail = change.path === configPath ? configDetail : undefined;
    violations.push(describeFileChange(change, ledger.parentPath, { detail }));
  }
  for (const f of failed) violations.push(`could not put back ${f}`);

  const refsNow = await readRefsOrRestore(o, packedRefs, violations);
  const closingBranch = o.closing?.branch;
  const fixes = planRefFixes(ledger.refs, refsNow, {
    ownBranch: closingBranch,
    openBranches: ledger.open.filter((g) => g !== o.closing).map((g) => g.branch),
  });
  const applied = await applyRefFixes(o.git, ledger.parentPath, ledger.gitDir, fixes, o.label);
  violations.push(...applied.done, ...applied.failed.map((f) => `could not undo: ${f}`));
  const listed = new Set([
    ...ledger.looseRefs,
    ...ledger.refs.map((r) => r.name),
    ...refsNow.map((r) => r.name),
  ]);
  for (const name of await looseRefNames(ledger.gitDir)) {
    if (listed.has(name) || name.startsWith(DISPLACED_NAMESPACE)) continue;
    const removed = await removeLooseRef(ledger.gitDir, name);
    violations.push(
      `unreadable ref file ${name} was created: ${removed ? 'deleted' : 'could not be deleted'}`,
    );
  }
  if (closingBranch) {
    // The closing command's work on its own branch is now the trusted state (a deletion was undone above).
    const name = `refs/heads/${closingBranch}`;
    const now = refsNow.find((r) => r.name === name);
    if (now) ledger.refs = [...ledger.refs.filter((r) => r.name !== name), now];
  }
  const notes = await detachFromRestoredRefs(ledger.open, fixes);
  return {
    violations,
    notes,
    configFailed: failed.some((f) => f.startsWith(`${configPath}:`)),
  };
}

/**
 * Admin folders of registered worktrees that are gone (or are no longer folders). They are never
 * recreated: putting back only the files the guard watches would leave a half registration, worse than
 * none. Each is reported once and the ledger takes it as gone.
 */
async function vanishedEntries(ledger: Ledger, violations: string[]): Promise<Set<string>> {
  const worktrees = path.join(ledger.gitDir, 'worktrees');
  const vanished = new Set<string>();
  for (const record of ledger.files) {
    const adminDir = path.dirname(record.path);
    if (path.dirname(adminDir) !== worktrees || record.kind === 'absent' || vanished.has(adminDir)) continue;
    const st = await fs.lstat(adminDir).catch(() => undefined);
    if (st?.isDirectory()) continue;
    vanished.add(adminDir);
    if (st) await fs.rm(adminDir, { force: true });
    violations.push(
      `${path.relative(ledger.parentPath, adminDir)} (a worktree's registration) was ${st ? 'replaced by something other than a folder' : 'removed'} by the command: ${st ? 'removed; ' : ''}not recreated`,
    );
  }
  ledger.files = ledger.files.map((f) =>
    vanished.has(path.dirname(f.path)) ? { path: f.path, kind: 'absent' as const } : f,
  );
  return vanished;
}

async function readRefsOrRestore(
  o: CheckpointOptions,
  packedRefs: string,
  violations: string[],
): Promise<RefRecord[]> {
  try {
    return await readRefs(o.git, o.ledger.parentPath);
  } catch (error) {
    // An unreadable packed-refs: put the recorded one back, then read again (ref fixes follow).
    violations.push(
      `the refs could not be read (${(error as Error).message.split('\n')[0]}): packed-refs restored`,
    );
    await restoreChanges(
      diffStates(
        o.ledger.files.filter((f) => f.path === packedRefs),
        await readState(packedRefs, false),
      ),
      o.blobs,
      [o.ledger.gitDir],
    );
    return readRefs(o.git, o.ledger.parentPath);
  }
}

/**
 * A sandbox whose HEAD is on a ref just put back would silently point at other commits: its HEAD is
 * detached where the ref was, so its work stays checked out.
 */
async function detachFromRestoredRefs(open: OpenGuard[], fixes: RefFix[]): Promise<Map<string, string[]>> {
  const notes = new Map<string, string[]>();
  for (const guard of open) {
    const headFile = path.join(guard.adminDir, 'HEAD');
    const head = await fs.readFile(headFile, 'utf8').catch(() => '');
    const target = /^ref: (\S+)/.exec(head)?.[1];
    const fix = fixes.find((f) => f.name === target && f.displaced && !f.displaced.startsWith('ref: '));
    if (!fix) continue;
    const tmp = `${headFile}.worktree-sandbox-restore`;
    await fs.writeFile(tmp, `${fix.displaced}\n`);
    await fs.rename(tmp, headFile);
    notes.set(guard.sandbox, [
      `The sandbox's HEAD was on ${target}, which was put back: HEAD is now detached at ${fix.displaced!.slice(0, 12)}, so its work stays checked out.`,
    ]);
  }
  return notes;
}

/** Which config keys were added, removed or changed (read with git from a copy, includes off). */
async function describeConfigChange(
  o: CheckpointOptions,
  configPath: string,
  expected?: FileRecord,
): Promise<string> {
  const current = await fs.lstat(configPath).catch(() => undefined);
  if (!current?.isFile()) return current ? 'replaced by something other than a file' : 'deleted';
  const copy = path.join(o.scratch, 'config.after');
  await fs.copyFile(configPath, copy);
  const read = async (file: string) => {
    const out = await o.git.exec('/', ['config', '--file', file, '--no-includes', '--null', '--list']);
    return parseConfigList(out.stdout);
  };
  const before = expected?.sha256 ? await read(path.join(o.blobs, expected.sha256)) : [];
  const after = await read(copy);
  await fs.rm(copy, { force: true });
  const flat = (entries: typeof before) =>
    new Map(
      [...new Set(entries.map((e) => e.key))].map((k) => [
        k,
        entries
          .filter((e) => e.key === k)
          .map((e) => e.value)
          .join('\n'),
      ]),
    );
  const b = flat(before);
  const a = flat(after);
  const parts: string[] = [];
  for (const key of new Set([...b.keys(), ...a.keys()])) {
    if (!b.has(key)) parts.push(`${key} added`);
    else if (!a.has(key)) parts.push(`${key} removed`);
    else if (b.get(key) !== a.get(key)) parts.push(`${key} changed`);
  }
  return parts.join(', ') || 'formatting only';
}
