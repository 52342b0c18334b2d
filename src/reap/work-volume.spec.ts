// A volume sandbox's history goes through the same parent check as a disk sandbox's: what its helper read
// (HEAD and the objects its refs name, as data) is judged by the parent alone, on a real parent repository
// here, the helper's reading given by a fake. Commits that only a local branch of a parent with a remote
// holds keep the sandbox; once a remote-tracking ref reaches them it holds no work. The reaper does the
// same end to end on disk sandboxes (test/integration/reap-disk.test.ts); the helper's reading of real
// volumes is test/integration/reap-volumes.test.ts's.
import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeEngine } from '../../test/support/fakes.js';
import { git as gitIn, tempDir } from '../../test/support/repo.js';
import { createGit } from '../engine/git.js';
import type { Inspection, InspectionRequest } from './inspection-script.js';
import type { ScannedSandbox } from './scan.js';

const inspectInHelpers =
  jest.fn<
    (
      engine: unknown,
      image: unknown,
      parent: unknown,
      requests: readonly InspectionRequest[],
    ) => Promise<Map<string, Inspection>>
  >();
jest.unstable_mockModule('./helper-inspection.js', () => ({ inspectInHelpers }));
const { checkWork } = await import('./work.js');

const dir = tempDir('wts-work-volume-');
const git = (...args: string[]) => gitIn(dir, ...args);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('keeps a volume sandbox whose commits only a local branch of the parent holds, until origin has them', async () => {
  git('init', '--quiet', '--initial-branch=main');
  git('commit', '--quiet', '--allow-empty', '-m', 'base');
  const base = git('rev-parse', 'HEAD');
  git('remote', 'add', 'origin', 'https://example.invalid/r.git');
  git('update-ref', 'refs/remotes/origin/main', base);
  // The run imported three commits into the parent's branch, and recorded the sandbox.
  git('switch', '--quiet', '-c', 'feature/x');
  for (const n of ['f1', 'f2', 'f3']) git('commit', '--quiet', '--allow-empty', '-m', n);
  const tip = git('rev-parse', 'HEAD');
  git('update-ref', 'refs/worktree-sandbox/volume/feature-x/head', tip);

  const parent = {
    path: dir,
    gitDir: path.join(dir, '.git'),
    objectStores: [path.join(dir, '.git', 'objects')],
  };
  const sandbox: ScannedSandbox = {
    key: 'volume:wts-p-feature-x',
    sandbox: 'feature-x',
    project: 'p',
    isolation: 'container',
    where: 'wts-p-feature-x',
    volume: 'wts-p-feature-x',
    parent,
    parentPath: dir,
    recorded: 'head',
    headRef: 'refs/heads/feature/x',
  };
  // What the helper read in the volume: HEAD on the branch, nothing uncommitted.
  inspectInHelpers.mockResolvedValue(
    new Map([
      [sandbox.key, { work: { headOid: tip, named: [tip], uncommitted: { value: 0 } }, sizeBytes: 4096 }],
    ]),
  );
  const deps = { git: await createGit(), engine: fakeEngine(), image: () => Promise.resolve('helper') };

  const kept = (await checkWork([sandbox], deps)).get(sandbox.key)!;
  expect(kept.work).toMatchObject({
    state: 'work',
    detail: '3 commit(s) on branch "feature/x" on no remote',
    held: { unsaved: { count: 3, branch: 'feature/x', hasRemote: true } },
  });
  expect(inspectInHelpers.mock.calls[0][3]).toEqual([
    expect.objectContaining({ key: sandbox.key, target: { volume: sandbox.volume, name: sandbox.sandbox } }),
  ]);

  // Pushed and fetched back: origin's ref reaches them.
  git('update-ref', 'refs/remotes/origin/feature/x', tip);
  expect((await checkWork([sandbox], deps)).get(sandbox.key)!.work).toEqual({ state: 'clean' });
});
