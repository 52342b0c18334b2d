// One sandbox whose removal fails part of the way leaves every other removal standing: here the parent
// cannot drop one sandbox's records (a lock file a killed git left on its ref), so the batch of that
// parent is retried one sandbox at a time; its folders are gone, it is reported partly removed with the
// reason, and the reap of everything else (the same parent's other sandboxes, another parent's) goes on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reap } from '../../src/reap/reap.js';
import { uniquePrefix } from '../support/docker.js';
import { git, makeRepo, tempDir } from '../support/repo.js';
import { makeDiskSandbox } from '../support/sandboxes.js';
import { reapOptions } from '../support/reap-options.js';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

const recorded = (parent: string) =>
  git(parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')
    .split('\n')
    .filter((r) => r.endsWith('/head'))
    .map((r) => r.split('/')[3])
    .sort();

describe('a removal that fails for one sandbox', () => {
  it('reports that one and lets every other removal stand', async () => {
    const root = tempDir('wts-iso-root-');
    const a = makeRepo();
    const b = makeRepo();
    cleanup.push(root, a.root, b.root);
    const names = ['exploration-0000a101', 'exploration-0000a102', 'exploration-0000a103'];
    const dirs = [];
    for (const name of names) dirs.push(await makeDiskSandbox(a, root, name, { ageDays: 100 }));
    const other = await makeDiskSandbox(b, root, 'exploration-0000b101', { ageDays: 100 });
    // A lock left on the second sandbox's record: git cannot delete that ref.
    const ref = git(
      a.parent,
      'for-each-ref',
      '--format=%(refname)',
      `refs/worktree-sandbox/disk/${names[1]}/`,
    )
      .split('\n')
      .find((r) => r.endsWith('/head'))!;
    fs.writeFileSync(path.join(a.parent, '.git', `${ref}.lock`), '');

    const started = Date.now();
    const result = await reap(reapOptions(root, uniquePrefix('iso')));
    const by = Object.fromEntries(result.sandboxes.map((s) => [s.sandbox, s]));
    expect(by[names[0]].result).toBe('removed');
    expect(by[names[2]].result).toBe('removed');
    expect(by['exploration-0000b101'].result).toBe('removed');
    expect(by[names[1]]).toMatchObject({ result: 'partly removed' });
    expect(by[names[1]].detail).toMatch(/records of it could not be dropped/);
    for (const dir of [...dirs, other]) expect(fs.existsSync(path.join(dir, '.git'))).toBe(false);
    // Only the locked one's records are left; the other parent's are gone.
    expect(recorded(a.parent)).toEqual([names[1]]);
    expect(recorded(b.parent)).toEqual([]);
    // Bound: four small sandboxes in well under 30 s.
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
