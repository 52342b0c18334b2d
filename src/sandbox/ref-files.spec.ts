import * as fs from 'node:fs';
import * as path from 'node:path';
import { git as gitIn, tempDir } from '../../test/support/repo.js';
import { readRefsAsData } from './ref-files.js';

describe('readRefsAsData', () => {
  const dir = tempDir('wts-ref-files-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  const gitDir = path.join(dir, '.git');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** What git's own for-each-ref says of exactly these refs. */
  const byGit = (refs: string[]) =>
    new Map(
      git('for-each-ref', '--format=%(refname) %(objectname)', ...refs)
        .split('\n')
        .filter((line) => refs.includes(line.split(' ')[0]))
        .map((line) => line.split(' ') as [string, string]),
    );

  it("answers as git does, a ref's absence included, wherever it is sure", () => {
    git('init', '--quiet', '--initial-branch=main');
    git('commit', '--quiet', '--allow-empty', '-m', 'one');
    const one = git('rev-parse', 'HEAD');
    git('commit', '--quiet', '--allow-empty', '-m', 'two');
    const two = git('rev-parse', 'HEAD');
    git('update-ref', 'refs/worktree-sandbox/disk/a/head', one);
    git('update-ref', 'refs/worktree-sandbox/disk/a/offered', one);
    git('pack-refs', '--all');
    git('update-ref', 'refs/worktree-sandbox/disk/a/offered', two); // loose again, over its packed line
    git('update-ref', 'refs/remotes/origin/bot', two);

    const asked = [
      'refs/worktree-sandbox/disk/a/head',
      'refs/worktree-sandbox/disk/a/creating',
      'refs/worktree-sandbox/disk/a/offered',
      'refs/remotes/origin/bot',
      'refs/heads/main',
    ];
    const read = readRefsAsData(gitDir, asked);
    expect(read).toEqual(byGit(asked));
    expect(read?.get('refs/worktree-sandbox/disk/a/head')).toBe(one);
    expect(read?.get('refs/worktree-sandbox/disk/a/offered')).toBe(two);
    expect(read?.has('refs/worktree-sandbox/disk/a/creating')).toBe(false);

    // Without packed-refs at all, an absent ref is surely absent too.
    fs.rmSync(path.join(gitDir, 'packed-refs'));
    expect(readRefsAsData(gitDir, ['refs/worktree-sandbox/disk/b/head'])).toEqual(new Map());
    git('update-ref', 'refs/worktree-sandbox/disk/a/head', one); // loose now
  });

  it('leaves the answer to git wherever the files cannot say for sure', () => {
    const ref = 'refs/worktree-sandbox/disk/a/head';
    const other = 'refs/worktree-sandbox/disk/a/creating';
    expect(readRefsAsData(gitDir, [ref, other])).toBeDefined();
    // A name that is no ref name.
    expect(readRefsAsData(gitDir, ['refs/../HEAD'])).toBeUndefined();
    // A symbolic ref names another ref, not an object.
    git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/bot');
    expect(readRefsAsData(gitDir, ['refs/remotes/origin/HEAD'])).toBeUndefined();
    // A ref file that is a link, or a folder.
    const linked = path.join(gitDir, 'refs/worktree-sandbox/disk/c');
    fs.mkdirSync(linked, { recursive: true });
    fs.symlinkSync(path.join(gitDir, ref), path.join(linked, 'head'));
    expect(readRefsAsData(gitDir, ['refs/worktree-sandbox/disk/c/head'])).toBeUndefined();
    expect(readRefsAsData(gitDir, ['refs/worktree-sandbox/disk'])).toBeUndefined();
    // packed-refs malformed, or larger than a lookup reads: an absent loose ref is not surely absent.
    fs.writeFileSync(path.join(gitDir, 'packed-refs'), 'not a packed ref\n');
    expect(readRefsAsData(gitDir, [ref, other])).toBeUndefined();
    const oid = readRefsAsData(gitDir, [ref])!.get(ref)!;
    const tags = Array.from({ length: 25_000 }, (_, n) => `${oid} refs/tags/t${n}\n`).join('');
    fs.writeFileSync(path.join(gitDir, 'packed-refs'), `# pack-refs with: peeled\n${tags}`);
    expect(readRefsAsData(gitDir, [ref, other])).toBeUndefined();
    // Still answered when no ref needs packed-refs.
    expect(readRefsAsData(gitDir, [ref])?.get(ref)).toBe(git('rev-parse', ref));
    fs.rmSync(path.join(gitDir, 'packed-refs'));
    // Refs kept elsewhere (reftable), or shared with another folder (commondir): absence is not sure.
    for (const name of ['reftable', 'commondir']) {
      fs.writeFileSync(path.join(gitDir, name), '');
      expect(readRefsAsData(gitDir, [ref])?.get(ref)).toBe(oid);
      expect(readRefsAsData(gitDir, [ref, other])).toBeUndefined();
      fs.rmSync(path.join(gitDir, name));
    }
    expect(readRefsAsData(gitDir, [ref, other])).toEqual(new Map([[ref, oid]]));
  });
});
