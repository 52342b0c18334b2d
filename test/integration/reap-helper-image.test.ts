// The reaper's helper image is made only when a helper container is about to start. A docker CLI on PATH
// logs every call (and, when told, refuses to make or find images), so each test sees exactly what the
// reaper asked of the engine: a reap the filesystem and the parent can judge alone never looks for the
// image; one that needs a helper still gets the helper's verdict; and when the image cannot be made, only
// the sandboxes that needed it are kept, with the reason, while the others go.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reap } from '../../src/reap/reap.js';
import type { ReapResult } from '../../src/reap/reap-report.js';
import { uniquePrefix } from '../support/docker.js';
import { addLinkedWorktree, ageLinked } from '../support/linked.js';
import { git, makeRepo, tempDir } from '../support/repo.js';
import { reapOptions } from '../support/reap-options.js';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

const realDocker = execFileSync('sh', ['-c', 'command -v docker'], { encoding: 'utf8' }).trim();

/**
 * A docker CLI that logs each call's words, then runs the real one; `refuseImages`: `image …` and
 * `import` fail as an engine that cannot make the image would.
 */
function dockerShim(refuseImages: boolean): { bin: string; calls: () => string[] } {
  const bin = tempDir('wts-docker-shim-');
  cleanup.push(bin);
  const log = path.join(bin, 'calls.log');
  fs.writeFileSync(log, '');
  const refuse = refuseImages
    ? `case "$1" in image|import) echo "the engine refuses images in this test" >&2; exit 1 ;; esac\n`
    : '';
  fs.writeFileSync(
    path.join(bin, 'docker'),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n${refuse}exec '${realDocker}' "$@"\n`,
    { mode: 0o755 },
  );
  return { bin, calls: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** `reap()` with the shim first on PATH (the engine's CLI is found on PATH at each call). */
async function reapWith(shim: { bin: string }, root: string): Promise<ReapResult> {
  const saved = process.env.PATH;
  process.env.PATH = `${shim.bin}:${saved}`;
  try {
    return await reap(reapOptions(root, uniquePrefix('reaphelperimage')));
  } finally {
    process.env.PATH = saved;
  }
}

const verdicts = (result: ReapResult) =>
  Object.fromEntries(
    result.sandboxes.map((s) => [s.sandbox, s.result === 'removed' ? 'removed' : `kept: ${s.reason}`]),
  );

/** Calls that look for, make or run an image (`image inspect`, `import`, `run`, `create`). */
const imageCalls = (calls: string[]) => calls.filter((c) => /^(image|import|run|create)\b/.test(c));

/** A parent and a cache of stale linked worktrees in it: `clean`, plus what `shape` adds. */
function cache(names: string[]): { root: string; parent: string; dirs: Record<string, string> } {
  const repo = makeRepo();
  const root = tempDir('wts-reap-helper-image-');
  cleanup.push(repo.root, root);
  const parent = fs.realpathSync(repo.parent);
  const dirs = Object.fromEntries(
    names.map((name) => [name, addLinkedWorktree(parent, root, 'cache', name)]),
  );
  return { root, parent, dirs };
}

/** A tracked file edited so that its size changes: the index alone cannot prove the worktree clean. */
function editTracked(dir: string): void {
  fs.appendFileSync(path.join(dir, 'README.md'), 'edited\n');
}

describe('the helper image, made only when a helper container is needed', () => {
  it('a reap judged by the filesystem and the parent alone never looks for or makes the image', async () => {
    const { root, dirs } = cache(['exploration-0000a001', 'exploration-0000a002', 'exploration-0000a003']);
    fs.writeFileSync(path.join(dirs['exploration-0000a002'], 'notes.txt'), 'draft\n');
    const unpushed = dirs['exploration-0000a003'];
    fs.writeFileSync(path.join(unpushed, 'local.txt'), 'local\n');
    git(unpushed, 'add', 'local.txt');
    git(unpushed, 'commit', '--quiet', '-m', 'a commit no remote has');
    for (const dir of Object.values(dirs)) ageLinked(dir, 100);
    const shim = dockerShim(false);

    const result = await reapWith(shim, root);

    expect(verdicts(result)).toEqual({
      'exploration-0000a001': 'removed',
      'exploration-0000a002': 'kept: holds work: 1 uncommitted file(s)',
      'exploration-0000a003': 'kept: holds work: 1 commit(s) on a detached HEAD on no remote',
    });
    expect(shim.calls().length).toBeGreaterThan(0); // the shim was the engine's CLI
    expect(imageCalls(shim.calls())).toEqual([]);
    expect(fs.readFileSync(path.join(unpushed, 'local.txt'), 'utf8')).toBe('local\n');
  }, 120_000);

  it('a reap that needs a helper makes the image then, and gets the helper’s verdict', async () => {
    const { root, dirs } = cache(['exploration-0000b001', 'exploration-0000b002']);
    editTracked(dirs['exploration-0000b002']);
    for (const dir of Object.values(dirs)) ageLinked(dir, 100);
    const shim = dockerShim(false);

    const result = await reapWith(shim, root);

    expect(verdicts(result)).toEqual({
      'exploration-0000b001': 'removed',
      'exploration-0000b002': 'kept: holds work: 1 uncommitted file(s)',
    });
    const calls = imageCalls(shim.calls());
    // Looked for (and made, when this engine lacked it) once, then one helper ran in it.
    expect(calls.filter((c) => c.startsWith('image inspect')).length).toBeGreaterThanOrEqual(1);
    expect(calls.filter((c) => c.startsWith('import')).length).toBeLessThanOrEqual(1);
    expect(calls.filter((c) => c.startsWith('run')).length).toBe(1);
    expect(calls.find((c) => c.startsWith('run'))).toMatch(/localhost\/worktree-sandbox-helper:/);
    expect(fs.readFileSync(path.join(dirs['exploration-0000b002'], 'README.md'), 'utf8')).toMatch(
      /edited\n$/,
    );
  }, 180_000);

  it('when the image cannot be made, the sandbox that needed it is kept with the reason, the others go', async () => {
    const { root, parent, dirs } = cache([
      'exploration-0000c001',
      'exploration-0000c002',
      'exploration-0000c003',
    ]);
    const dirty = dirs['exploration-0000c002'];
    editTracked(dirty);
    for (const dir of Object.values(dirs)) ageLinked(dir, 100);
    const shim = dockerShim(true);

    const result = await reapWith(shim, root);

    const v = verdicts(result);
    expect(v['exploration-0000c001']).toBe('removed');
    expect(v['exploration-0000c003']).toBe('removed');
    expect(v['exploration-0000c002']).toMatch(
      /^kept: .*the helper image could not be made: .*the engine refuses images in this test/,
    );
    expect(fs.readFileSync(path.join(dirty, 'README.md'), 'utf8')).toMatch(/edited\n$/);
    expect(git(dirty, 'status', '--porcelain')).toBe('M README.md');
    expect(fs.readdirSync(path.join(parent, '.git', 'worktrees'))).toEqual(['exploration-0000c002']);
    // No helper ran in any other image.
    expect(shim.calls().filter((c) => /^(run|create)\b/.test(c))).toEqual([]);
  }, 180_000);
});
