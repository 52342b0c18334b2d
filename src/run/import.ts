// The host's side of the crossing: a bundle is data. Its header is read here, bounded, and must name only
// the refs the capture script writes; git then fetches it with `transfer.fsckObjects` into the sandbox's
// private store (host-made and host-configured), and from there only the sandbox's committed history
// moves into the parent, under the parent's bookkeeping ref. The snapshot of uncommitted work stays in
// the private store: every sandbox borrows the parent's store, so nothing uncommitted may go there.
// The parent's branch moves by fast-forward only.
// ADR 0003, ADR 0004 (docs/adr/).
import * as fs from 'node:fs/promises';
import { OID, type GitCommands } from '../engine/git-commands.js';
import { ensurePrivateStore, privateStorePath, sandboxRefs } from '../sandbox/bookkeeping.js';
import type { Sandbox } from '../sandbox/layout.js';
import { withRepositoryLock } from '../sandbox/lock.js';
import { SNAPSHOT_REF } from '../sandbox/bookkeeping.js';
import { ImportLimitError, type Captured } from './capture.js';

const HEADER_MAX = 64 * 1024;
export const MAX_BUNDLE_REFS = 8;
const FSCK = [
  ['transfer.fsckObjects', 'true'],
  ['fetch.fsckObjects', 'true'],
] as const;

export interface BundleHeader {
  refs: Array<{ sha: string; name: string }>;
  prerequisites: string[];
}

/** Reads a bundle's header (v2 or v3) as data, at most 64 KiB of it, and nothing else of the file. */
export async function readBundleHeader(file: string): Promise<BundleHeader> {
  const handle = await fs.open(file, 'r');
  let text: string;
  try {
    const buffer = Buffer.alloc(HEADER_MAX);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_MAX, 0);
    const end = buffer.subarray(0, bytesRead).indexOf('\n\n');
    if (end < 0) throw new Error('The bundle from the sandbox has no header end within 64 KiB: refused.');
    text = buffer.subarray(0, end).toString('latin1');
  } finally {
    await handle.close();
  }
  const [signature, ...lines] = text.split('\n');
  if (signature !== '# v2 git bundle' && signature !== '# v3 git bundle')
    throw new Error('What came back from the sandbox is not a git bundle: refused.');
  const header: BundleHeader = { refs: [], prerequisites: [] };
  for (const line of lines) {
    if (line.startsWith('@')) continue; // v3 capabilities
    if (line.startsWith('-')) {
      header.prerequisites.push(line.slice(1).split(' ')[0]);
      continue;
    }
    const space = line.indexOf(' ');
    const sha = line.slice(0, space);
    if (!OID.test(sha)) throw new Error('The bundle from the sandbox has a malformed header: refused.');
    header.refs.push({ sha, name: line.slice(space + 1) });
  }
  return header;
}

/** The refs a bundle of this sandbox may carry; anything else, or too many, is refused whole. */
export function checkBundleRefs(header: BundleHeader, branch: string): void {
  if (header.refs.length > MAX_BUNDLE_REFS)
    throw new ImportLimitError(
      `The bundle from the sandbox names ${header.refs.length} refs (at most ${MAX_BUNDLE_REFS}): nothing was imported.`,
    );
  const allowed = new Set(['HEAD', SNAPSHOT_REF, ...(branch ? [`refs/heads/${branch}`] : [])]);
  for (const ref of header.refs)
    if (!allowed.has(ref.name))
      throw new Error(
        `The bundle from the sandbox names a ref it may not (${JSON.stringify(ref.name)}): nothing was imported.`,
      );
  if (!header.refs.some((r) => r.name === SNAPSHOT_REF))
    throw new Error('The bundle from the sandbox lacks the snapshot: nothing was imported.');
}

/**
 * git leaves a ref out of a bundle when it points at a commit the bundle stops at: such a ref (HEAD, the
 * branch) is one of the commits the parent has, and only then is the helper's word for it taken.
 */
function commitOutsideBundle(captured: Captured, said: string, what: string): string | undefined {
  if (!said) return undefined;
  if (!captured.exclude.includes(said))
    throw new Error(
      `The sandbox's ${what} is neither in its bundle nor a commit the parent has: nothing was imported.`,
    );
  return said;
}

export interface Imported {
  /** The sandbox's commit as the parent records it now (its branch, or HEAD for a transient sandbox). */
  tip: string;
  /** The sandbox's HEAD and the snapshot of its work tree (in the private store only). */
  head: string;
  snapshot: string;
  store: string;
  /** What happened to the parent's branch: moved, created, or why not. */
  branchUpdate?: string;
}

export async function importBundle(
  git: GitCommands,
  sandbox: Sandbox,
  captured: Captured,
): Promise<Imported> {
  const { parent } = sandbox;
  const header = await readBundleHeader(captured.bundle);
  checkBundleRefs(header, sandbox.branch);
  const store = privateStorePath(parent, sandbox);
  const inBundle = (name: string) => header.refs.some((r) => r.name === name);
  const hasBranch = inBundle(`refs/heads/${sandbox.branch}`);
  const headOutside = inBundle('HEAD') ? undefined : commitOutsideBundle(captured, captured.headSha, 'HEAD');
  if (!inBundle('HEAD') && !headOutside)
    throw new Error('The bundle from the sandbox lacks HEAD: nothing was imported.');
  const branchOutside =
    sandbox.branch && !hasBranch
      ? commitOutsideBundle(captured, captured.branchSha, `branch ${sandbox.branch}`)
      : undefined;
  return withRepositoryLock(parent.gitDir, async () => {
    await ensurePrivateStore(git, parent, store);
    const specs = [`+${SNAPSHOT_REF}:refs/run/snapshot`];
    if (!headOutside) specs.push('+HEAD:refs/run/head');
    if (hasBranch) specs.push(`+refs/heads/${sandbox.branch}:refs/run/branch`);
    await git.run(
      store,
      ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', captured.bundle, ...specs],
      {
        config: FSCK,
        work: 'git-import',
        purpose: "fetching the sandbox's bundle, checked, into its private store",
      },
    );
    const pin = [
      ...(headOutside ? [`update refs/run/head ${headOutside}`] : []),
      ...(branchOutside ? [`update refs/run/branch ${branchOutside}`] : []),
      ...(sandbox.branch && !hasBranch && !branchOutside ? ['delete refs/run/branch'] : []),
    ];
    if (pin.length)
      await git.run(store, ['update-ref', '--stdin'], { input: Buffer.from(pin.join('\n') + '\n') });
    const refs = sandboxRefs(sandbox);
    // Persistent sandboxes bring their branch (whatever HEAD is); transient ones what HEAD holds.
    const source = sandbox.branch
      ? hasBranch || branchOutside
        ? 'refs/run/branch'
        : undefined
      : 'refs/run/head';
    // What the store holds now is what the header named (the fetch took the refs at those commits, or
    // failed), or the commit the parent has that the helper named; the parent's record gets the source's.
    const named = (ref: string) => header.refs.find((r) => r.name === ref)?.sha;
    const head = commit(headOutside ?? named('HEAD'));
    const snapshot = commit(named(SNAPSHOT_REF));
    let tip: string;
    if (source) {
      await git.run(
        parent.path,
        ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', store, `+${source}:${refs.head}`],
        { config: FSCK, work: 'git-import', purpose: "fetching the run's commits, checked, into the parent" },
      );
      tip =
        source === 'refs/run/head' ? head : commit(branchOutside ?? named(`refs/heads/${sandbox.branch}`));
    } else tip = commit(await resolve(git, parent.path, refs.head));
    const branchUpdate = sandbox.branch ? await fastForwardBranch(git, sandbox, tip) : undefined;
    return { tip, head, snapshot, store, branchUpdate };
  });
}

function commit(sha: string | undefined): string {
  if (!sha || !OID.test(sha)) throw new Error('The import named no commit.');
  return sha;
}

/** The parent's branch follows the sandbox's by fast-forward only; never when the parent has it checked out. */
async function fastForwardBranch(git: GitCommands, sandbox: Sandbox, tip: string): Promise<string> {
  const { parent, branch } = sandbox;
  const ref = `refs/heads/${branch}`;
  const [current, holder] = await Promise.all([
    git.resolveCommit(parent.path, ref),
    checkedOutIn(git, parent.path, ref),
  ]);
  if (current === tip) return 'up to date';
  if (holder) return `not moved: ${branch} is checked out in ${holder}`;
  if (!current) {
    await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: import', '--', ref, tip, '']);
    return 'created';
  }
  const ff = await git.exec(parent.path, ['merge-base', '--is-ancestor', '--end-of-options', current, tip]);
  if (ff.exitCode !== 0)
    return `not moved: ${branch} in the parent is not an ancestor of the sandbox's (no fast-forward)`;
  await git.run(parent.path, [
    'update-ref',
    '-m',
    'worktree-sandbox: import (fast-forward)',
    '--',
    ref,
    tip,
    current,
  ]);
  return 'fast-forwarded';
}

/** The work tree of the parent (its own, or a linked one) that has `ref` checked out, if any. */
async function checkedOutIn(git: GitCommands, parentPath: string, ref: string): Promise<string | undefined> {
  // Without -z (git 2.36): the action supports git 2.31.
  const list = await git.run(parentPath, ['worktree', 'list', '--porcelain']);
  let current = '';
  for (const field of list.split('\n')) {
    if (field.startsWith('worktree ')) current = field.slice('worktree '.length);
    else if (field === `branch ${ref}`) return current;
  }
  return undefined;
}

async function resolve(git: GitCommands, cwd: string, ref: string): Promise<string> {
  const sha = await git.resolveCommit(cwd, ref);
  if (!sha) throw new Error(`${ref} is missing in ${cwd} after the import.`);
  return sha;
}
