// The branch's refs read as a run starts (readBranchRefs), from the path the run was given, before its
// parent is known: the same answer as the parent's, from a subfolder or a linked worktree; nothing when
// there is no repository; and resolveBranch takes them instead of asking git again. A reused sandbox's
// records are read from the parent's files, with no git process.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContainerEngine } from '../../src/engine/engine.js';
import { Git } from '../../src/engine/git.js';
import { readBranchRefs, resolveBranch } from '../../src/sandbox/branch.js';
import { prepareSandbox } from '../../src/sandbox/create.js';
import { locateSandbox } from '../../src/sandbox/layout.js';
import { findParentRepository } from '../../src/sandbox/repository.js';
import { TEST_IMAGE } from '../support/env.js';
import { recordingGit } from '../support/git-calls.js';
import { git, makeRepo, tempDir } from '../support/repo.js';

const repo = makeRepo();
git(repo.parent, 'branch', 'feature');
const linked = path.join(repo.root, 'linked');
git(repo.parent, 'worktree', 'add', '--quiet', '--detach', linked);
const elsewhere = tempDir();
afterAll(() => {
  fs.rmSync(repo.root, { recursive: true, force: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

describe('readBranchRefs', () => {
  const { git: cli } = Git.checking();
  const feature = git(repo.parent, 'rev-parse', 'feature');
  const main = git(repo.parent, 'rev-parse', 'origin/main');

  it('reads the local and origin refs of the branch, as the parent has them, from any folder of it', async () => {
    const parentRefs = await readBranchRefs(cli, repo.parent, 'feature');
    expect(parentRefs).toEqual(new Map([['refs/heads/feature', feature]]));
    expect(await readBranchRefs(cli, path.join(repo.parent, 'src'), 'feature')).toEqual(parentRefs);
    expect(await readBranchRefs(cli, linked, 'feature')).toEqual(parentRefs);
    expect(await readBranchRefs(cli, linked, 'main')).toEqual(
      new Map([
        ['refs/heads/main', main],
        ['refs/remotes/origin/main', main],
      ]),
    );
  });

  it('is undefined where there is no repository (resolveBranch then asks the parent)', async () => {
    expect(await readBranchRefs(cli, elsewhere, 'feature')).toBeUndefined();
    expect(await readBranchRefs(cli, path.join(elsewhere, 'missing'), 'feature')).toBeUndefined();
  });

  it('resolveBranch plans from the refs read early, and reads them itself when they are missing', async () => {
    const found = await findParentRepository(cli, linked);
    const calls: string[][] = [];
    const counting = Object.create(cli) as Git;
    counting.readRefs = (cwd: string, refs: readonly string[]) => {
      calls.push([...refs]);
      return cli.readRefs(cwd, refs);
    };
    const early = await resolveBranch(counting, found, 'feature', '', readBranchRefs(cli, linked, 'feature'));
    expect(calls).toEqual([]);
    const itself = await resolveBranch(counting, found, 'feature', '', Promise.resolve(undefined));
    expect(calls).toEqual([['refs/heads/feature', 'refs/remotes/origin/feature']]);
    expect(early).toEqual(itself);
    expect(early).toMatchObject({ kind: 'persistent', source: 'local' });
  });
});

describe("a reused sandbox's records", () => {
  it('are read from the parent’s files as data; once origin’s branch moved since the offer, by git', async () => {
    const own = makeRepo();
    const root = tempDir('wts-records-');
    try {
      const { git: cli, ran } = await recordingGit();
      const parent = await findParentRepository(cli, own.parent);
      const planned = await resolveBranch(cli, parent, 'bot/records', '');
      const location = locateSandbox(planned, parent, 'disk', fs.realpathSync(root), 'unused');
      const log = { info: () => undefined };
      const engine = new ContainerEngine('docker');
      const made = await prepareSandbox(cli, engine, location, planned, TEST_IMAGE, log);
      expect(made.reused).toBe(false);

      // There as it was left: taken as it is, with no git process at all.
      ran.length = 0;
      const again = await prepareSandbox(cli, engine, location, planned, TEST_IMAGE, log);
      expect(again).toMatchObject({ reused: true, startSha: made.startSha });
      expect(again.upstreamNew).toBeUndefined();
      expect(ran).toEqual([]);

      // origin's branch appeared since (a push by someone else, fetched): git reads the records, and the
      // new commit is offered to the sandbox.
      const theirs = git(own.parent, 'rev-parse', 'HEAD~1');
      git(own.parent, 'update-ref', 'refs/remotes/origin/bot/records', theirs);
      ran.length = 0;
      const moved = await prepareSandbox(cli, engine, location, planned, TEST_IMAGE, log);
      expect(moved).toMatchObject({ reused: true, upstreamNew: theirs });
      expect(ran.map((args) => args[0])).toEqual(['for-each-ref']);
    } finally {
      fs.rmSync(own.root, { recursive: true, force: true });
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
