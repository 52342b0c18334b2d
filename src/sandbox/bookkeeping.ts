// The parent's record of its sandboxes, kept where no container can write (the parent's `.git`, which
// containers never see but for its object store):
//  - refs `refs/worktree-sandbox/<disk|volume>/<name>/head`: the sandbox's commit as last imported (at
//    first, the commit it started from); keeps every object the sandbox borrows alive across `git gc`;
//  - `.../offered`: the upstream commit last offered inside the sandbox as `origin/<branch>`;
//  - `.../creating`: present only while the sandbox is being created (a killed run is recognised by it);
//  - a private store per sandbox (`<gitDir>/worktree-sandbox/stores/...`), created and configured only by
//    the host, for what was never committed (the snapshot of uncommitted work): never the parent's store,
//    which every sandbox borrows and could read.
// ADR 0002, ADR 0004 (docs/adr/).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { GitCommands } from '../engine/git-commands.js';
import type { Isolation } from './layout.js';
import type { ParentRepository } from './repository.js';

export const REF_ROOT = 'refs/worktree-sandbox';
/** Where the capture helper names the sandbox's work as a commit, for the bundle (run/capture.ts). */
export const SNAPSHOT_REF = `${REF_ROOT}/snapshot`;

export interface SandboxRefs {
  prefix: string;
  head: string;
  offered: string;
  creating: string;
}

export function isolationWord(isolation: Isolation): 'disk' | 'volume' {
  return isolation === 'disk' ? 'disk' : 'volume';
}

/**
 * A sandbox name as one ref component. Names are [A-Za-z0-9._-] with `..` before a hash (naming.ts), which
 * git forbids in refs: each dot followed by a dot gets a `%` after it (and a trailing `.lock` one too).
 * `%` never occurs in a name, so the encoding is reversible and two names never share a component.
 */
export function refComponent(name: string): string {
  const encoded = name.replace(/\.(?=\.)/g, '.%');
  return encoded.endsWith('.lock') ? `${encoded}%` : encoded;
}

export function nameFromComponent(component: string): string {
  return component.replace(/%/g, '');
}

export function sandboxRefs(sandbox: { isolation: Isolation; name: string }): SandboxRefs {
  const prefix = `${REF_ROOT}/${isolationWord(sandbox.isolation)}/${refComponent(sandbox.name)}`;
  return { prefix, head: `${prefix}/head`, offered: `${prefix}/offered`, creating: `${prefix}/creating` };
}

export function privateStorePath(
  parent: Pick<ParentRepository, 'gitDir'>,
  sandbox: { isolation: Isolation; name: string },
): string {
  return path.join(
    parent.gitDir,
    'worktree-sandbox',
    'stores',
    isolationWord(sandbox.isolation),
    `${sandbox.name}.git`,
  );
}

/**
 * Creates the private store when missing: a bare repository that borrows the parent's objects. Its
 * alternates name the parent's store by absolute path: when the parent was moved since, they are pointed
 * at where the parent's store is now (else every git command in the store fails).
 */
export async function ensurePrivateStore(
  git: GitCommands,
  parent: ParentRepository,
  store: string,
): Promise<void> {
  const alternates = path.join(store, 'objects', 'info', 'alternates');
  const wanted = `${parent.objectStores[0]}\n`;
  if (!(await pathExists(path.join(store, 'HEAD')))) {
    await fs.mkdir(path.dirname(store), { recursive: true });
    await git.run(parent.gitDir, ['init', '--quiet', '--bare', '--template=', '--', store]);
  } else if ((await fs.readFile(alternates, 'utf8').catch(() => '')) === wanted) return;
  await fs.writeFile(alternates, wanted);
}

/** Deletes every bookkeeping ref of a sandbox, in one git process. */
export async function dropRecords(
  git: GitCommands,
  parent: ParentRepository,
  refs: SandboxRefs,
): Promise<void> {
  const names = (await git.run(parent.path, ['for-each-ref', '--format=%(refname)', '--', `${refs.prefix}/`]))
    .split('\n')
    .filter(Boolean);
  if (names.length === 0) return;
  const input = Buffer.from(names.map((n) => `delete ${n}\n`).join(''));
  await git.run(parent.path, ['update-ref', '--stdin'], { input });
}

/** The project folder's note of its parent, for the reaper (`<root>/<project>/.parent`, host-only). */
export const PARENT_NOTE = '.parent';

export async function writeParentNote(projectDir: string, parent: ParentRepository): Promise<void> {
  const file = path.join(projectDir, PARENT_NOTE);
  if ((await fs.readFile(file, 'utf8').catch(() => '')).trim() === parent.path) return;
  await fs.writeFile(file, `${parent.path}\n`);
}

/** Whether anything (a link too) is at `p`. */
export async function pathExists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
