import * as fs from 'node:fs';
import * as path from 'node:path';
import { git as gitIn, tempDir } from '../../test/support/repo.js';
import { parseHead, parseLooseRef, parsePackedRefs, readRefTips } from './sandbox-files.js';

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
    git('commit', '--quiet', '--allow-empty', '-m', 'one');
    const one = git('rev-parse', 'HEAD');
    git('commit', '--quiet', '--allow-empty', '-m', 'two');
    const two = git('rev-parse', 'HEAD');
    git('branch', 'packed', one);
    git('branch', 'moved', one);
    git('pack-refs', '--all');
    git('branch', '--force', 'moved', two); // loose again, over its packed line
    git('branch', 'loose', two);
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
