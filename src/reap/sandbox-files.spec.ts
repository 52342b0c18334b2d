import { parseHead, parseLooseRef, parsePackedRefs } from './sandbox-files.js';

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
