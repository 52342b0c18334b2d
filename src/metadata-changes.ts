// The action's own changes to a parent's shared metadata: a sandbox registered or dropped (by a run, a
// post step, the reaper), a branch created for a sandbox, `origin/<branch>` fetched or pushed, a commit on
// a sandbox's branch, a pull request's head fetched, a branch's upstream set. Commands of other sandboxes
// of the same parent may be running meanwhile, under git guards that would take any change they did not
// expect for their command's doing and undo it. So each such change is made under the repository lock
// and announced here, into the guards' ledger, before the lock is released: the guards' next check finds
// it expected. Only the action announces, and only what it changed itself, by name; nothing a container
// wrote is ever taken as legitimate from what is found on disk.
//
// Every function here expects its caller to hold the repository lock (lock.ts `withRepositoryLock`), and
// costs one `stat` when no guard of the parent is open.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Git } from './git.js';
import { readState, sha256 } from './guard-files.js';
import { ADMIN_FILES, LedgerStore, type Ledger } from './guard-ledger.js';
import { readRefs, type RefRecord } from './guard-refs.js';
import type { ParentRepository } from './repository.js';

type Parent = Pick<ParentRepository, 'path' | 'gitDir'>;

/** A ref the action changed: with its value when the action knows it, else read as it is now. */
export interface ChangedRef {
  name: string;
  /** An object id; undefined: read it. */
  value?: string;
}

/** Whether a git guard of the parent is open (its ledger exists): stable while the repository lock is held. */
export async function guardsOpen(parent: Parent): Promise<boolean> {
  return LedgerStore.of(parent.path).exists();
}

/** Runs `fn` on the parent's ledger, when one exists (a guard is open), and saves it. */
async function onLedger(parent: Parent, fn: (ledger: Ledger, store: LedgerStore) => Promise<void>) {
  const store = LedgerStore.of(parent.path);
  if (!(await store.exists())) return;
  await store.withLock(async () => {
    const ledger = await store.load();
    if (!ledger) return;
    await fn(ledger, store);
    store.save(ledger);
  });
}

export async function announceRefs(git: Git, parent: Parent, refs: ReadonlyArray<string | ChangedRef>) {
  const changed = refs.map((r) => (typeof r === 'string' ? { name: r } : r));
  if (!changed.length) return;
  await onLedger(parent, async (ledger) => {
    const unknown = changed.some((r) => r.value === undefined);
    const now = unknown ? await readRefs(git, parent.path) : [];
    for (const ref of changed) {
      const value = ref.value ?? now.find((r) => r.name === ref.name)?.value;
      const others: RefRecord[] = ledger.refs.filter((r) => r.name !== ref.name);
      ledger.refs = value === undefined ? others : [...others, { name: ref.name, value }];
    }
  });
}

/** Worktree admin folders the action created or dropped: the guards watch them as they are now. */
export async function announceEntries(gitDir: string, adminDirs: readonly string[]): Promise<void> {
  if (!adminDirs.length) return;
  await onLedger({ path: path.dirname(gitDir), gitDir }, async (ledger, store) => {
    for (const adminDir of adminDirs) await watchEntry(ledger, adminDir, store.blobs);
  });
}

/** Starts (or goes on) watching an admin folder's files, taking their present state as the trusted one. */
export async function watchEntry(ledger: Ledger, adminDir: string, blobs: string): Promise<void> {
  const watched = new Set(ledger.roots.map((r) => r.path));
  const present = await fs.lstat(adminDir).then(
    (st) => st.isDirectory(),
    () => false,
  );
  for (const file of ADMIN_FILES.map((f) => path.join(adminDir, f))) {
    if (!present && !watched.has(file)) continue;
    if (!watched.has(file)) ledger.roots.push({ path: file, recursive: false });
    const [record] = await readState(file, false, blobs);
    ledger.files = [...ledger.files.filter((f) => f.path !== file), record];
  }
}

/**
 * Sets config entries in the parent's .git/config. While a guard is open, the same edits are made to the
 * ledger's trusted config (with its credentials) and to the one the containers see, so that both keep
 * them and nothing a container wrote there is taken along.
 */
export async function setParentConfig(
  git: Git,
  parent: Parent,
  entries: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const configPath = path.join(parent.gitDir, 'config');
  const edit = async (file: string) => {
    for (const [key, value] of entries) await git.run('/', ['config', '--file', file, '--', key, value]);
  };
  let done = false;
  await onLedger(parent, async (ledger, store) => {
    const scratch = path.join(store.dir, 'config.edit');
    for (const list of [ledger.files, ledger.exposed]) {
      const record = list.find((r) => r.path === configPath);
      if (record?.kind !== 'file' || !record.sha256) continue;
      await fs.copyFile(path.join(store.blobs, record.sha256), scratch);
      await edit(scratch);
      const content = await fs.readFile(scratch);
      record.sha256 = sha256(content);
      await fs.writeFile(path.join(store.blobs, record.sha256), content, { mode: 0o600 });
      await fs.rm(scratch, { force: true });
    }
    await edit(configPath);
    done = true;
  });
  if (!done) await edit(configPath);
}
