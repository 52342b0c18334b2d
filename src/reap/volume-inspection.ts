// Volume sandboxes keep their files where the host cannot see them: their size and `git status` are read
// in helper containers, one per parent repository for up to VOLUMES_PER_HELPER volumes (not one per
// volume). Everything is mounted read-only: the parent (with its .git) and each volume, so a check can
// never write the index whose mtime is an activity signal, nor anything else.
import { gitConfigEnv } from '../engine/git.js';
import type { ContainerEngine } from '../engine/engine.js';
import { helperContainerArgs, mountArg } from '../sandbox/layout.js';
import { countPorcelainEntries, type CheckResult } from './work-finding.js';
import type { ParentRef } from './scan.js';

export const VOLUMES_PER_HELPER = 48;

export interface VolumeRequest {
  volume: string;
  sandbox: string;
  /** Run `git status` in its worktree (else only measure it). */
  checkStatus: boolean;
}

export interface VolumeInspection {
  sizeBytes?: number;
  /** Entries of `git status --porcelain` (only when asked). */
  uncommitted?: CheckResult<number>;
}

// Positional arguments only, in triples: mount point, sandbox name, 1/0 for "run git status".
const SCRIPT = `set -u
mark() { printf '\\000@@v:%s:%s\\000' "$1" "$2"; }
while [ $# -ge 3 ]; do
  dir="$1"; name="$2"; check="$3"; shift 3
  mark "$dir" size; du -sk "$dir" 2>/dev/null | cut -f1
  if [ "$check" = 1 ]; then
    if cd "$dir/$name" 2>/dev/null; then
      mark "$dir" status
      git --no-optional-locks status --porcelain=v1 -z --untracked-files=all 2>/dev/null
      rc=$?
      mark "$dir" "rc=$rc"
      cd /
    else
      mark "$dir" "rc=missing"
    fi
  fi
done
mark end end
`;

export async function inspectVolumes(
  engine: ContainerEngine,
  image: string,
  parent: ParentRef | undefined,
  requests: readonly VolumeRequest[],
): Promise<Map<string, VolumeInspection>> {
  const results = new Map<string, VolumeInspection>();
  for (let i = 0; i < requests.length; i += VOLUMES_PER_HELPER) {
    const chunk = requests.slice(i, i + VOLUMES_PER_HELPER);
    for (const [volume, inspection] of await inspectChunk(engine, image, parent, chunk))
      results.set(volume, inspection);
  }
  return results;
}

async function inspectChunk(
  engine: ContainerEngine,
  image: string,
  parent: ParentRef | undefined,
  chunk: readonly VolumeRequest[],
): Promise<Map<string, VolumeInspection>> {
  // The worktree files belong to whoever ran the sandbox: git's ownership check would refuse them.
  const env = {
    ...gitConfigEnv([['safe.directory', '*']]),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    HOME: '/tmp',
    LC_ALL: 'C',
  };
  const mounts: string[] = [];
  if (parent)
    mounts.push(mountArg({ type: 'bind', source: parent.path, target: parent.path, readonly: true }));
  const args: string[] = [];
  chunk.forEach((request, n) => {
    const dir = `/v/${n}`;
    mounts.push(mountArg({ type: 'volume', source: request.volume, target: dir, readonly: true }));
    args.push(dir, request.sandbox, request.checkStatus ? '1' : '0');
  });
  const result = await engine.exec(
    helperContainerArgs({
      mounts,
      workdir: '/',
      envNames: Object.keys(env),
      image,
      entrypoint: 'sh',
      args: ['-c', SCRIPT, 'worktree-sandbox-reap', ...args],
    }),
    { env },
  );
  return parseInspection(result.stdout, result.exitCode, result.stderr, chunk);
}

export function parseInspection(
  stdout: string,
  exitCode: number,
  stderr: string,
  chunk: readonly VolumeRequest[],
): Map<string, VolumeInspection> {
  const sections = new Map<string, string>();
  for (const part of stdout.split('\0@@v:').slice(1)) {
    const nul = part.indexOf('\0');
    sections.set(part.slice(0, nul), part.slice(nul + 1));
  }
  const complete = sections.has('end:end');
  const failure = `the helper container failed (exit ${exitCode}): ${stderr.trim().split('\n')[0] ?? ''}`;
  const results = new Map<string, VolumeInspection>();
  chunk.forEach((request, n) => {
    const dir = `/v/${n}`;
    const kb = Number((sections.get(`${dir}:size`) ?? '').trim());
    const inspection: VolumeInspection = {
      sizeBytes: Number.isFinite(kb) && (sections.get(`${dir}:size`) ?? '').trim() ? kb * 1024 : undefined,
    };
    if (request.checkStatus) {
      const rc = [...sections.keys()].find((k) => k.startsWith(`${dir}:rc=`))?.slice(`${dir}:rc=`.length);
      if (!complete && rc === undefined) inspection.uncommitted = { error: failure };
      else if (rc === '0')
        inspection.uncommitted = { value: countPorcelainEntries(sections.get(`${dir}:status`) ?? '') };
      else if (rc === 'missing')
        inspection.uncommitted = { error: 'the worktree is missing from its volume' };
      else inspection.uncommitted = { error: `git status failed in the volume (exit ${rc ?? '?'})` };
    }
    results.set(request.volume, inspection);
  });
  return results;
}
