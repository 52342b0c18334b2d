// A reused sandbox's records are read from the parent's files, with no git process.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { ContainerEngine } from '../../src/engine/engine.js';
import { resolveBranch } from '../../src/sandbox/branch.js';
import { prepareSandbox } from '../../src/sandbox/create.js';
import { locateSandbox } from '../../src/sandbox/layout.js';
import { findParentRepository } from '../../src/sandbox/repository.js';
import { TEST_IMAGE } from '../support/env.js';
import { recordingGit } from '../support/git-calls.js';
import { git, makeRepo, tempDir } from '../support/repo.js';

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
