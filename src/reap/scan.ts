// Finding every sandbox on the machine, with the facts the decisions need:
//  - disk sandboxes are the folders `<root>/<project>/<name>` that hold a `.git` folder, in a project
//    folder whose `.parent` note names a parent repository whose project name is that folder's name;
//  - linked worktrees are the folders `<root>/<project>/<name>` whose `.git` is a file naming a parent's
//    `.git/worktrees/<id>` (the layout of `git worktree add` and of the seed tool's worktree cache), that
//    the parent registers pointing back (linked-worktree.ts: read as data, no git process);
//  - volume sandboxes are the volumes labelled `worktree-sandbox.managed=true` whose name is
//    `<volume-prefix>-<project>-<name>` (the prefix scopes a reaper: other tenants' volumes are not even
//    looked at), whose labels name their parent;
//  - a sandbox of a live parent is registered when the parent holds its records
//    (`refs/worktree-sandbox/...`); one without is reported and kept.
// Entries starting with `.` under a project folder are ours (homes, the note); anything else that is
// not a sandbox is reported, and never deleted.
//
// Activity is read with lstat only: on the host for disk sandboxes (a linked worktree's in its registration,
// once verified), by one helper container per SANDBOXES_PER_HELPER volumes for volume sandboxes. The host
// reads nothing else in a sandbox here, but a linked worktree's `.git` file and its registration's
// `gitdir` (bounded, never through a link).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { HelperImage } from '../engine/helper-image.js';
import { listVolumes } from '../engine/inventory.js';
import { label, MANAGED_LABEL, VOLUME_LABEL_KEYS } from '../engine/labels.js';
import { HOME_FOLDER, locateSandbox } from '../sandbox/layout.js';
import { sandboxText } from '../ui/sandbox-text.js';
import { volumeName } from '../sandbox/naming.js';
import { lastActivity, parseTimestamp } from './retention.js';
import { inspectInHelpers } from './helper-inspection.js';
import type { Inspection, Signal } from './inspection-script.js';
import { diskActivity, lstat } from '../sandbox/sandbox-files.js';
import { readGitFile, verifyRegistration } from './linked-worktree.js';
import { type Owner, ParentCache, plan, registration } from './scan-parents.js';
import type { ScannedSandbox, ScanOptions, ScanResult } from './scanned-sandbox.js';

export type { ScannedSandbox, ScanOptions, ScanResult } from './scanned-sandbox.js';

const SANDBOX_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export async function scanSandboxes(options: ScanOptions): Promise<ScanResult> {
  const parents = new ParentCache(options.git);
  const root = realRootOrSelf(options.worktreeRoot);
  // Folders and volumes are looked at together: the engine is asked first, the folders listed while it
  // answers (its answer takes as long as reading a few parents' records).
  const diskWarnings: string[] = [];
  const volumeWarnings: string[] = [];
  const volumes = options.engine
    ? scanVolumes(options, parents, volumeWarnings).catch((error: Error) => {
        volumeWarnings.push(`Volume sandboxes were not scanned: ${error.message}`);
        return [];
      })
    : [];
  const disk = await scanDisk(root, parents, diskWarnings);
  return {
    sandboxes: [...disk, ...(await volumes)],
    warnings: [...diskWarnings, ...volumeWarnings],
    root,
  };
}

function realRootOrSelf(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

// ---- disk ---------------------------------------------------------------------------------------------

async function scanDisk(root: string, parents: ParentCache, warnings: string[]): Promise<ScannedSandbox[]> {
  // In the order found; a sandbox waits for its parent's records, which are read for several parents at once.
  const found: Array<Promise<ScannedSandbox>> = [];
  const listed = (dir: string) => {
    try {
      return fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (dir !== root || code !== 'ENOENT') warnings.push(`Cannot list ${dir} (${code}): not scanned.`);
      return [];
    }
  };
  for (const project of listed(root)) {
    const projectDir = path.join(root, project.name);
    if (!project.isDirectory()) {
      found.push(Promise.resolve(foreign(projectDir, project.name, '', describeType(project))));
      continue;
    }
    let owner: Promise<Owner> | undefined;
    for (const child of listed(projectDir)) {
      if (child.name.startsWith('.')) continue; // ours: homes, the note of the parent
      const hostPath = path.join(projectDir, child.name);
      if (!child.isDirectory()) {
        found.push(Promise.resolve(foreign(hostPath, project.name, child.name, describeType(child))));
        continue;
      }
      const gitDir = lstat(path.join(hostPath, '.git'));
      if (gitDir?.isFile() && SANDBOX_NAME.test(child.name)) {
        found.push(linkedSandbox(hostPath, project.name, child.name, parents));
        continue;
      }
      if (!gitDir?.isDirectory()) {
        const why = !gitDir
          ? 'no .git folder'
          : gitDir.isFile()
            ? 'not a sandbox name'
            : '.git is not a folder';
        found.push(Promise.resolve(foreign(hostPath, project.name, child.name, why)));
        continue;
      }
      if (!SANDBOX_NAME.test(child.name)) {
        found.push(Promise.resolve(foreign(hostPath, project.name, child.name, 'not a sandbox name')));
        continue;
      }
      owner ??= parents.ownerOfProject(projectDir, project.name);
      found.push(owner.then((o) => diskSandbox(root, hostPath, project.name, child.name, o)));
    }
    // The folders are read synchronously: between projects, the processes asked for so far (the parents'
    // records, the engine's volumes) get started.
    await setImmediate();
  }
  return Promise.all(found);
}

function foreign(where: string, project: string, name: string, why: string): ScannedSandbox {
  return {
    key: `disk:${where}`,
    sandbox: name,
    project,
    isolation: 'disk',
    where,
    notSandbox: why,
    hostPath: where,
  };
}

function describeType(dirent: fs.Dirent): string {
  if (dirent.isSymbolicLink()) return 'a symbolic link (never followed)';
  if (dirent.isFile()) return 'a file, where only sandbox folders belong';
  return 'not a folder';
}

/** What every folder sandbox is, whatever its layout: named by its real path. */
function diskEntry(hostPath: string, project: string, name: string): ScannedSandbox {
  return { key: `disk:${hostPath}`, sandbox: name, project, isolation: 'disk', where: hostPath, hostPath };
}

function diskSandbox(
  root: string,
  hostPath: string,
  project: string,
  name: string,
  owner: Owner,
): ScannedSandbox {
  const activity = diskActivity(hostPath);
  const base: ScannedSandbox = {
    ...diskEntry(hostPath, project, name),
    homePath: path.join(path.dirname(hostPath), HOME_FOLDER, name),
    lastActivityMs: lastActivity(activity.times),
    suspicious: activity.suspicious,
  };
  return {
    ...base,
    ...registration(
      owner,
      'disk',
      name,
      project,
      (parent) => locateSandbox(plan(name), parent, 'disk', root, ''),
      hostPath,
    ),
  };
}

/**
 * A linked worktree: its parent and registration come from its `.git` file, verified (linked-worktree.ts).
 * A parent that is gone, or that no longer registers it, makes an orphan (its HEAD and index went with the
 * registration: nothing can be checked); a registration that is not its own makes it unregistered (kept).
 */
async function linkedSandbox(
  hostPath: string,
  project: string,
  name: string,
  parents: ParentCache,
): Promise<ScannedSandbox> {
  const base = diskEntry(hostPath, project, name);
  const target = readGitFile(hostPath);
  if ('error' in target) return foreign(hostPath, project, name, target.error);
  const linked = { adminDir: target.adminDir, id: target.id };
  // Until the registration is verified, only the folder's own time is read: the registration's files
  // may be another worktree's (and the folder's `.git` is a file: nothing in it to read).
  const folderOnly = () => ({ ...base, linked, lastActivityMs: lstat(hostPath)?.mtimeMs });
  const owner = await parents.linkedParent(target.parentPath);
  if (owner.problem || !owner.parent)
    return {
      ...folderOnly(),
      parentPath: target.parentPath,
      orphan: owner.problem ?? 'no parent repository',
    };
  const registration = verifyRegistration(hostPath, target, parents.linkedFacts);
  if (registration.state === 'missing')
    return { ...folderOnly(), parentPath: owner.parentPath, orphan: registration.why };
  if (registration.state === 'foreign')
    return {
      ...folderOnly(),
      parentPath: owner.parentPath,
      parent: owner.parent,
      unregistered: registration.why,
    };
  const activity = diskActivity(hostPath, target.adminDir);
  return {
    ...base,
    parentPath: owner.parentPath,
    parent: owner.parent,
    linked: { ...linked, registered: { gitdirText: registration.gitdirText }, locked: registration.locked },
    lastActivityMs: lastActivity(activity.times),
    suspicious: activity.suspicious,
  };
}

// ---- volumes ------------------------------------------------------------------------------------------

async function scanVolumes(
  options: ScanOptions,
  parents: ParentCache,
  warnings: string[],
): Promise<ScannedSandbox[]> {
  const { engine, volumePrefix: prefix } = options;
  const volumes = await listVolumes(engine!, `${MANAGED_LABEL}=true`, VOLUME_LABEL_KEYS);
  const pending: Array<Promise<ScannedSandbox>> = [];
  for (const { name, labels } of volumes) {
    if (!name.startsWith(`${prefix}-`)) continue;
    const project = labels[label('project')] ?? '';
    const sandbox = labels[label('sandbox')] ?? '';
    const base: ScannedSandbox = {
      key: `volume:${name}`,
      sandbox,
      project,
      isolation: 'container',
      where: name,
      volume: name,
      branchLabel: labels[label('branch')],
    };
    if (!SANDBOX_NAME.test(sandbox) || !project) {
      pending.push(Promise.resolve({ ...base, notSandbox: 'its labels name no sandbox and project' }));
      continue;
    }
    // A longer prefix that starts with ours (another tenant) makes names that do not match their labels.
    if (volumeName(prefix, project, sandbox) !== name) continue;
    base.createdMs = parseTimestamp(labels[label('created')]);
    const parentPath = labels[label('parent')];
    if (!parentPath || !path.isAbsolute(parentPath)) {
      pending.push(Promise.resolve({ ...base, orphan: 'its labels name no parent repository' }));
      continue;
    }
    pending.push(
      parents.ownerOf(parentPath, project).then((owner) => ({
        ...base,
        ...registration(
          owner,
          'container',
          sandbox,
          project,
          (parent) => locateSandbox(plan(sandbox), parent, 'container', '', prefix),
          name,
        ),
      })),
    );
  }
  const found = await Promise.all(pending);
  await readVolumeActivity(
    options,
    found.filter((s) => !s.notSandbox),
    warnings,
  );
  return found;
}

/** Each volume's signals, from helper containers (a volume they could not read has no known age). */
async function readVolumeActivity(
  options: ScanOptions,
  volumes: ScannedSandbox[],
  warnings: string[],
): Promise<void> {
  if (volumes.length === 0) return;
  const seen = await lookAtVolumes(options.engine!, options.image, volumes);
  let failed = 0;
  let firstError: string | undefined;
  for (const s of volumes)
    if (!seen.get(s.key)?.signals) {
      failed++;
      firstError ??= seen.get(s.key)?.error;
    }
  if (failed)
    warnings.push(
      `The activity of ${failed} volume(s) could not be read: their age is unknown, they are kept.${firstError ? ` The first: ${sandboxText(firstError)}` : ''}`,
    );
}

/**
 * What helpers see of these volumes now, applied to each: its last activity (undefined when it could not be
 * read), its HEAD, and what is wrong with it. The scan asks, and the removal asks again just before.
 */
export async function lookAtVolumes(
  engine: EngineCommands,
  image: HelperImage,
  volumes: readonly ScannedSandbox[],
): Promise<Map<string, Inspection>> {
  const seen = await inspectInHelpers(
    engine,
    image,
    undefined,
    volumes.map((s) => ({ key: s.key, target: { volume: s.volume!, name: s.sandbox }, signals: true })),
  );
  for (const s of volumes) applyVolumeSignals(s, seen.get(s.key));
  return seen;
}

function applyVolumeSignals(s: ScannedSandbox, seen: Inspection | undefined): void {
  const signals = seen?.signals;
  if (!signals) {
    s.lastActivityMs = undefined;
    return;
  }
  const times: Array<number | undefined> = [s.createdMs];
  const time = (signal: Signal) => ('mtimeMs' in signal ? signal.mtimeMs : undefined);
  if (signals.worktree.type !== 'dir' || signals.gitDir.type !== 'dir')
    s.broken = `its work tree or .git folder is missing from the volume (${signals.worktree.type}, ${signals.gitDir.type})`;
  else times.push(time(signals.worktree));
  for (const [file, signal] of Object.entries(signals.files)) {
    if (signal.type === 'file') times.push(signal.mtimeMs);
    else if (signal.type !== 'none') s.suspicious ??= `.git/${file} is not a regular file (a symbolic link?)`;
  }
  s.lastActivityMs = lastActivity(times);
  if (signals.head && 'ref' in signals.head) s.headRef = signals.head.ref;
}
