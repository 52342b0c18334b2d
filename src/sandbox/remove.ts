// Removing a sandbox: its volume or folders, then every record the parent keeps of it (refs and private
// store). Nothing else.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { GitCommands } from '../engine/git-commands.js';
import { dropRecords, PARENT_NOTE, privateStorePath, REF_ROOT, sandboxRefs } from './bookkeeping.js';
import { HOME_FOLDER, type DiskSandbox, type Sandbox } from './layout.js';
import { withRepositoryLock } from './lock.js';

export async function removeSandbox(
  git: GitCommands,
  engine: EngineCommands,
  sandbox: Sandbox,
): Promise<void> {
  const { parent } = sandbox;
  await withRepositoryLock(parent.gitDir, async () => {
    if (sandbox.isolation === 'container') await engine.removeVolume(sandbox.volume);
    else {
      await removeDiskFolders(sandbox);
      await removeEmptyProjectDir(path.dirname(sandbox.hostPath));
    }
    await dropAllRecords(git, sandbox);
  });
}

/** A disk sandbox's two folders: its repository and its command's home. */
export async function removeDiskFolders(sandbox: DiskSandbox): Promise<void> {
  await fs.rm(sandbox.hostPath, { recursive: true, force: true });
  await fs.rm(sandbox.homePath, { recursive: true, force: true });
}

/**
 * The records of many sandboxes whose folders are gone, a parent at a time: one lock, one `for-each-ref`
 * (none where `listRecords`, given, reads their names as data) and one `update-ref --stdin` per parent,
 * however many sandboxes (the reaper removes thousands).
 */
export async function forgetSandboxes(
  git: GitCommands,
  sandboxes: readonly Sandbox[],
  /** The names of every ref under REF_ROOT in a parent's git folder; undefined: git lists them. */
  listRecords?: (gitDir: string) => string[] | undefined,
): Promise<void> {
  const byParent = new Map<string, Sandbox[]>();
  for (const s of sandboxes) byParent.set(s.parent.gitDir, [...(byParent.get(s.parent.gitDir) ?? []), s]);
  for (const group of byParent.values()) {
    const { parent } = group[0];
    await withRepositoryLock(parent.gitDir, async () => {
      const all =
        listRecords?.(parent.gitDir) ??
        (await git.run(parent.path, ['for-each-ref', '--format=%(refname)', '--', `${REF_ROOT}/`]))
          .split('\n')
          .filter(Boolean);
      const prefixes = group.map((s) => `${sandboxRefs(s).prefix}/`);
      const doomed = all.filter((ref) => prefixes.some((p) => ref.startsWith(p)));
      if (doomed.length)
        await git.run(parent.path, ['update-ref', '--stdin'], {
          input: Buffer.from(doomed.map((ref) => `delete ${ref}\n`).join('')),
        });
      await Promise.all(
        group.map((s) => fs.rm(privateStorePath(parent, s), { recursive: true, force: true })),
      );
    });
  }
}

async function dropAllRecords(git: GitCommands, sandbox: Sandbox): Promise<void> {
  await dropRecords(git, sandbox.parent, sandboxRefs(sandbox));
  await fs.rm(privateStorePath(sandbox.parent, sandbox), { recursive: true, force: true });
}

/** `<root>/<project>` goes with its last sandbox (its note of the parent and empty home folder too). */
export async function removeEmptyProjectDir(projectDir: string): Promise<void> {
  const names = await fs.readdir(projectDir).catch(() => undefined);
  if (!names) return;
  const homes = path.join(projectDir, HOME_FOLDER);
  if (names.some((n) => n !== PARENT_NOTE && n !== HOME_FOLDER)) return;
  if ((await fs.readdir(homes).catch(() => [])).length > 0) return;
  await fs.rm(homes, { recursive: true, force: true });
  await fs.rm(path.join(projectDir, PARENT_NOTE), { force: true });
  await fs.rmdir(projectDir).catch(() => undefined);
}
