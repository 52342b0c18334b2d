// What a run mounts from the action's side, for the engine-view checks (engine/host-paths.ts,
// engine/engine-probe.ts): every bind source layout.ts gives a container, named for a person, with what to
// change when the engine cannot see it.
import * as path from 'node:path';
import { SHARED_ROOT_FIX, type MountedPath } from '../engine/host-paths.js';
import type { Isolation } from './layout.js';
import type { ParentRepository } from './repository.js';

const WORKSPACE_FIX =
  'Check the repository out inside a folder the engine shares with the action (the workspace, $GITHUB_WORKSPACE)';

/** Every folder and file a run binds into a container: the parent, its object stores, the disk root, extra files. */
export function mountedPaths(
  parent: ParentRepository,
  isolation: Isolation,
  worktreeRoot: string,
  readOnlyFiles: readonly string[] = [],
): MountedPath[] {
  const paths: MountedPath[] = [
    { path: parent.path, what: 'parent repository', fix: WORKSPACE_FIX },
    ...parent.objectStores.map((dir) => ({ path: dir, what: 'object store', fix: WORKSPACE_FIX })),
  ];
  if (isolation === 'disk') paths.push({ path: worktreeRoot, what: 'worktree-root', fix: SHARED_ROOT_FIX });
  for (const file of readOnlyFiles)
    paths.push({
      path: file,
      what: 'file',
      fix: 'Keep RUNNER_TEMP inside a folder the engine shares with the action',
    });
  return paths;
}

/**
 * The folders the probe writes its file in: the parent's git folder (the parent and its object store are
 * mounted from beside it) and, for a disk sandbox, the root it is made under.
 */
export function probedFolders(
  parent: ParentRepository,
  isolation: Isolation,
  worktreeRoot: string,
): MountedPath[] {
  const folders: MountedPath[] = [{ path: parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX }];
  if (isolation === 'disk')
    folders.push({ path: path.resolve(worktreeRoot), what: 'worktree-root', fix: SHARED_ROOT_FIX });
  return folders;
}
