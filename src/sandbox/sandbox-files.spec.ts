import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyCommits, git as gitIn, gitWithInput, tempDir } from '../../test/support/repo.js';
import {
  parseHead,
  parseLooseRef,
  parsePackedRefs,
  readRecordNames,
  readRefTips,
  readSavingTips,
} from './sandbox-files.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('parseHead', () => {
  it('reads a branch or a commit', () => {
    expect(parseHead('ref: refs/heads/feature/x\n')).toEqual({ ref: 'refs/heads/feature/x' });
    expect(parseHead(`${A}\n`)).toEqual({ oid: A });
  });

  it('refuses anything else', () => {
    for (const text of ['ref: refs/heads/../../etc/passwd', 'ref: HEAD', 'ref: refs/heads/a b', 'main', ''])
      expect(parseHead(text)).toHaveProperty('error');
  });
});

describe('parseLooseRef', () => {
  it('reads an object name or a symbolic ref', () => {
    expect(parseLooseRef(`${A}\n`)).toEqual({ oid: A });
    expect(parseLooseRef('ref: refs/remotes/origin/main\n')).toEqual({
      symbolic: 'refs/remotes/origin/main',
    });
    expect(parseLooseRef('junk')).toHaveProperty('error');
  });
});

describe('parsePackedRefs', () => {
  it('reads refs and peeled tags', () => {
    const text = `# pack-refs with: peeled fully-peeled sorted \n${A} refs/heads/main\n${B} refs/tags/v1\n^${A}\n`;
    const parsed = parsePackedRefs(text);
    expect(parsed).toEqual({
      refs: new Map([
        ['refs/heads/main', A],
        ['refs/tags/v1', B],
      ]),
      peeled: [A],
      peeledOf: new Map([['refs/tags/v1', A]]),
    });
  });

  it('refuses a malformed line', () => {
    expect(parsePackedRefs(`${A}refs/heads/main\n`)).toHaveProperty('error');
    expect(parsePackedRefs(`^zz\n`)).toHaveProperty('error');
  });
});

describe('readRefTips', () => {
  const dir = tempDir('wts-ref-tips-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  const gitDir = path.join(dir, '.git');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("answers as git's for-each-ref does where it is sure, and leaves the rest to git", () => {
    git('init', '--quiet', '--initial-branch=main');
    gitWithInput(dir, emptyCommits(['one', 'two']), 'fast-import', '--quiet');
    const [one, two] = git('rev-list', '--reverse', 'main').split('\n');
    // Branches set in one `update-ref --stdin` each time, as `git branch` would set them.
    gitWithInput(
      dir,
      `create refs/heads/packed ${one}\ncreate refs/heads/moved ${one}\n`,
      'update-ref',
      '--stdin',
    );
    git('pack-refs', '--all');
    // moved: loose again, over its packed line
    gitWithInput(
      dir,
      `update refs/heads/moved ${two}\ncreate refs/heads/loose ${two}\n`,
      'update-ref',
      '--stdin',
    );
    git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    fs.symlinkSync(path.join(gitDir, 'refs/heads/loose'), path.join(gitDir, 'refs/heads/linked'));
    fs.mkdirSync(path.join(gitDir, 'refs/heads/folder/inside'), { recursive: true });

    const asked = ['refs/heads/main', 'refs/heads/packed', 'refs/heads/moved', 'refs/heads/loose'];
    const odd = [
      'refs/heads/alias',
      'refs/heads/linked',
      'refs/heads/folder',
      'refs/heads/gone',
      'refs/../x',
    ];
    const tips = readRefTips(gitDir, [...asked, ...odd]);
    // Every answer is git's own.
    for (const ref of asked) expect(tips.get(ref)).toBe(git('for-each-ref', '--format=%(objectname)', ref));
    expect(tips.get('refs/heads/moved')).toBe(two);
    expect(tips.get('refs/heads/packed')).toBe(one);
    // A symbolic ref, a link, a folder, a missing or malformed name: git answers those.
    expect([...tips.keys()].sort()).toEqual([...asked].sort());

    // A packed-refs with a line it does not understand is not read: the packed branch is left to git.
    const packedFile = path.join(gitDir, 'packed-refs');
    const packed = fs.readFileSync(packedFile, 'utf8');
    fs.appendFileSync(packedFile, 'not a ref line\n');
    expect(readRefTips(gitDir, ['refs/heads/packed']).size).toBe(0);
    fs.writeFileSync(packedFile, packed);
    expect(readRefTips(gitDir, ['refs/heads/packed']).get('refs/heads/packed')).toBe(one);

    // packed-refs past its bound is not read: the packed branch is left to git.
    fs.appendFileSync(path.join(gitDir, 'packed-refs'), `# ${'x'.repeat(1024 * 1024)}\n`);
    expect(readRefTips(gitDir, ['refs/heads/packed']).size).toBe(0);
  });
});

describe('readSavingTips', () => {
  const dir = tempDir('wts-saving-tips-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  const gitDir = path.join(dir, '.git');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** What git says the remote-tracking refs and tags name (`peeled`: annotated tags' commits too). */
  const gitsAnswer = (peeled = true) =>
    new Set(
      git(
        'for-each-ref',
        `--format=%(objectname)${peeled ? ' %(*objectname)' : ''}`,
        'refs/remotes/',
        'refs/tags/',
      )
        .split(/\s+/)
        .filter(Boolean),
    );
  const sorted = (set: Set<string> | undefined) => [...(set ?? ['undefined'])].sort();

  it("names exactly the objects git's remote-tracking refs and tags name, loose or packed", () => {
    git('init', '--quiet', '--initial-branch=main');
    gitWithInput(dir, emptyCommits(['c1', 'c2', 'c3', 'c4', 'c5']), 'fast-import', '--quiet');
    const [c1, c2, c3, c4, c5] = git('rev-list', '--reverse', 'main').split('\n');
    // Nothing yet: no remote-tracking ref, no tag, no packed-refs.
    expect(sorted(readSavingTips(gitDir))).toEqual([]);

    gitWithInput(
      dir,
      `create refs/remotes/origin/main ${c2}\ncreate refs/remotes/origin/moved ${c1}\ncreate refs/remotes/origin/dropped ${c1}\n`,
      'update-ref',
      '--stdin',
    );
    git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    git('tag', '-a', '-m', 'annotated', 'v1', c3);
    git('tag', 'light', c1);
    git('branch', 'local-only', c5); // a branch saves nothing (the parent has a remote)
    // Loose: what each ref names (a loose annotated tag's commit is not read: git walks for it).
    expect(sorted(readSavingTips(gitDir))).toEqual(sorted(gitsAnswer(false)));

    // Packed, with the annotated tag's peeled line; then a loose ref over its packed line, a packed ref
    // deleted, and a loose tag.
    git('pack-refs', '--all');
    expect(fs.existsSync(path.join(gitDir, 'packed-refs'))).toBe(true);
    expect(sorted(readSavingTips(gitDir))).toEqual(sorted(gitsAnswer()));
    expect(readSavingTips(gitDir)!.has(c3)).toBe(true); // v1's commit, from the peeled line
    git('update-ref', 'refs/remotes/origin/moved', c4);
    git('update-ref', '-d', 'refs/remotes/origin/dropped');
    git('tag', '-a', '-m', 'loose', 'v2', c4);
    const tips = readSavingTips(gitDir)!;
    // Everything each ref names, v1's packed commit, and nothing git would not say: not moved's old
    // packed value, not dropped's, never a branch's commit.
    expect(sorted(tips)).toEqual(sorted(new Set([...gitsAnswer(false), c3])));
    for (const oid of tips) expect(gitsAnswer().has(oid)).toBe(true);
    expect(tips.has(c5)).toBe(false);
  });

  it('says nothing where the answer would not be sure', () => {
    const packedFile = path.join(gitDir, 'packed-refs');
    const packed = fs.readFileSync(packedFile, 'utf8');
    // A malformed packed-refs.
    fs.appendFileSync(packedFile, 'not a ref line\n');
    expect(readSavingTips(gitDir)).toBeUndefined();
    fs.writeFileSync(packedFile, packed);
    // packed-refs past its bound.
    // The same bytes as one string would be, written in pieces: 32 MiB filled once, not copied three times.
    const fd = fs.openSync(packedFile, 'w');
    for (const piece of [Buffer.from(`${packed}# `), Buffer.alloc(32 * 1024 * 1024, 'x'), Buffer.from('\n')])
      fs.writeSync(fd, piece);
    fs.closeSync(fd);
    expect(readSavingTips(gitDir)).toBeUndefined();
    fs.writeFileSync(packedFile, packed);
    // A ref that is a symbolic link, under a saving prefix.
    const link = path.join(gitDir, 'refs', 'remotes', 'origin', 'linked');
    fs.symlinkSync(path.join(gitDir, 'refs', 'remotes', 'origin', 'moved'), link);
    expect(readSavingTips(gitDir)).toBeUndefined();
    fs.unlinkSync(link);
    // Another ref storage, or a git folder that shares another's refs.
    for (const marker of ['reftable', 'commondir']) {
      fs.writeFileSync(path.join(gitDir, marker), '');
      expect(readSavingTips(gitDir)).toBeUndefined();
      fs.rmSync(path.join(gitDir, marker));
    }
    expect(sorted(readSavingTips(gitDir))).toEqual(sorted(gitsAnswer()));
  });
});

describe('readRecordNames', () => {
  const dir = tempDir('wts-record-names-');
  const git = (...args: string[]) => gitIn(dir, ...args);
  const gitDir = path.join(dir, '.git');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitsList = () =>
    git('for-each-ref', '--format=%(refname)', '--', 'refs/worktree-sandbox/').split('\n').filter(Boolean);

  it("lists the parent's records as git's for-each-ref does, loose or packed, or leaves it to git", () => {
    git('init', '--quiet', '--initial-branch=main');
    git('commit', '--quiet', '--allow-empty', '-m', 'one');
    expect(readRecordNames(gitDir)).toEqual([]);
    const records = ['disk/a/head', 'disk/a/offered', 'volume/b/creating', 'disk/c%2Fd/head'];
    const names = [...records.map((ref) => `refs/worktree-sandbox/${ref}`), 'refs/heads/other']; // other: not a record
    gitWithInput(dir, names.map((name) => `create ${name} HEAD\n`).join(''), 'update-ref', '--stdin');
    expect(readRecordNames(gitDir)).toEqual(gitsList());
    git('pack-refs', '--all');
    git('update-ref', 'refs/worktree-sandbox/disk/e/head', 'HEAD'); // loose beside packed ones
    git('update-ref', '-d', 'refs/worktree-sandbox/disk/a/offered'); // a packed one deleted
    expect(readRecordNames(gitDir)).toEqual(gitsList());
    expect(readRecordNames(gitDir)).toHaveLength(4);
    // A symbolic ref among them: git lists it (by its own name), so git is asked.
    git('symbolic-ref', 'refs/worktree-sandbox/disk/f/head', 'refs/heads/main');
    expect(readRecordNames(gitDir)).toBeUndefined();
  });
});
