import * as fs from 'node:fs';
import * as path from 'node:path';
import { git as gitIn, gitWithInput, tempDir } from '../../test/support/repo.js';
import { recordingGit } from '../../test/support/git-calls.js';
import { privateStorePath, sandboxRefs } from './bookkeeping.js';
import type { Sandbox } from './layout.js';
import { forgetSandboxes } from './remove.js';

describe("forgetSandboxes on a real parent's records", () => {
  const dir = tempDir('wts-forget-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('drops every record of the sandboxes named, and only theirs, with one listing and one update per parent', async () => {
    git('init', '--quiet', '--initial-branch=main');
    git('commit', '--quiet', '--allow-empty', '-m', 'one');
    const parent = {
      path: dir,
      gitDir: path.join(dir, '.git'),
      objectStores: [path.join(dir, '.git', 'objects')],
    };
    const sandbox = (name: string, isolation: 'disk' | 'container' = 'disk') =>
      ({ name, isolation, parent }) as unknown as Sandbox;
    // Doomed: `a` with all three records, one of them packed; `b..c` (a name git spells with `%`) with
    // its head alone; `v` a volume's. Kept: a neighbour whose name starts as `a`'s does, the disk
    // sandbox named as the doomed volume, a fetch ref, the branch.
    const doomed = [sandbox('a'), sandbox('b..c'), sandbox('v', 'container')];
    const kept = [sandbox('ab'), sandbox('v')];
    const refs = (s: Sandbox) => sandboxRefs(s);
    // Each group of refs in one `update-ref --stdin` (as many `update-ref`s would write them).
    const create = (names: string[]) =>
      gitWithInput(dir, names.map((name) => `create ${name} HEAD\n`).join(''), 'update-ref', '--stdin');
    create([refs(doomed[0]).head, refs(doomed[0]).offered, refs(doomed[0]).creating]);
    git('pack-refs', '--all');
    create([
      ...[doomed[1], doomed[2], ...kept].map((s) => refs(s).head),
      refs(kept[0]).offered,
      'refs/worktree-sandbox/fetch/1-abc',
    ]);
    for (const s of [...doomed, ...kept]) fs.mkdirSync(privateStorePath(parent, s), { recursive: true });

    const { git: cli, ran } = await recordingGit();
    await forgetSandboxes(cli, doomed);

    expect(ran.map((args) => args[0])).toEqual(['for-each-ref', 'update-ref']);
    expect(git('for-each-ref', '--format=%(refname)').split('\n').sort()).toEqual(
      [
        'refs/heads/main',
        refs(kept[0]).head,
        refs(kept[0]).offered,
        refs(kept[1]).head,
        'refs/worktree-sandbox/fetch/1-abc',
      ].sort(),
    );
    for (const s of doomed) expect(fs.existsSync(privateStorePath(parent, s))).toBe(false);
    for (const s of kept) expect(fs.existsSync(privateStorePath(parent, s))).toBe(true);

    // Forgetting again (every record already gone) is no error.
    await forgetSandboxes(cli, doomed);
  });
});
