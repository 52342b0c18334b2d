import { describe, expect, it } from '@jest/globals';
import { describeFinding } from './secret-gate.js';
import { headerPlace, rawCommitLines, rawDiffPath, unquotePath } from './raw-commit.js';

const C = '1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d';
const TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const commitObject = (headers: string[], message: Buffer | string) =>
  Buffer.concat([Buffer.from(`${headers.join('\n')}\n\n`), Buffer.from(message)]);

describe('rawCommitLines', () => {
  it('names each header line by its header, a continuation by the header it continues', () => {
    const lines = rawCommitLines(
      C,
      commitObject(
        [
          `tree ${TREE}`,
          'author Ann <ann@example.com> 1700000000 +0000',
          'committer Bob <bob@example.com> 1700000000 +0000',
          'gpgsig -----BEGIN PGP SIGNATURE-----',
          ' line two',
          ' -----END PGP SIGNATURE-----',
          'x-hidden value',
        ],
        'subject\n\nbody\n',
      ),
    );
    expect(lines).toEqual([
      { place: { kind: 'header', name: 'tree', commit: C }, line: 1, text: `tree ${TREE}` },
      {
        place: { kind: 'author', commit: C },
        line: 1,
        text: 'author Ann <ann@example.com> 1700000000 +0000',
      },
      {
        place: { kind: 'committer', commit: C },
        line: 1,
        text: 'committer Bob <bob@example.com> 1700000000 +0000',
      },
      {
        place: { kind: 'header', name: 'gpgsig', commit: C },
        line: 1,
        text: 'gpgsig -----BEGIN PGP SIGNATURE-----',
      },
      { place: { kind: 'header', name: 'gpgsig', commit: C }, line: 2, text: 'line two' },
      { place: { kind: 'header', name: 'gpgsig', commit: C }, line: 3, text: '-----END PGP SIGNATURE-----' },
      // An extra header's name is the object's own text: not taken as the place's name.
      { place: { kind: 'header', name: undefined, commit: C }, line: 1, text: 'x-hidden value' },
      { place: { kind: 'message', commit: C }, line: 1, text: 'subject' },
      { place: { kind: 'message', commit: C }, line: 2, text: '' },
      { place: { kind: 'message', commit: C }, line: 3, text: 'body' },
      { place: { kind: 'message', commit: C }, line: 4, text: '' },
    ]);
  });

  it('reads the message as stored whatever `encoding` says, and as that encoding decodes it', () => {
    // ISO-2022-JP: after ESC $ B, git log reads the ASCII bytes as pairs of JIS characters.
    const jis = rawCommitLines(
      C,
      commitObject([`tree ${TREE}`, 'encoding ISO-2022-JP'], '\x1b$Bsk-secret-value-0123\n'),
    );
    const texts = jis.filter((l) => l.place.kind === 'message').map((l) => l.text);
    expect(texts[0]).toContain('sk-secret-value-0123');
    expect(texts.some((t) => !t.includes('sk-secret') && t.length > 0)).toBe(true); // the decoded reading
    // UTF-16: NULs out, the characters stay.
    const utf16 = rawCommitLines(
      C,
      commitObject(
        [`tree ${TREE}`, 'encoding UTF-16LE'],
        Buffer.from('key sk-secret-value-0123\n', 'utf16le'),
      ),
    );
    expect(utf16.filter((l) => l.place.kind === 'message').map((l) => l.text)).toContain(
      'key sk-secret-value-0123',
    );
    // Latin-1 with a non-ASCII secret: found in the decoded reading (what git log shows).
    const latin = rawCommitLines(
      C,
      commitObject([`tree ${TREE}`, 'encoding ISO-8859-1'], Buffer.from('geheim-schlüssel-0123\n', 'latin1')),
    );
    expect(latin.map((l) => l.text)).toContain('geheim-schlüssel-0123');
    // An encoding the runtime does not know: the bytes as stored only.
    const unknown = rawCommitLines(C, commitObject([`tree ${TREE}`, 'encoding x-none'], 'plain\n'));
    expect(unknown.filter((l) => l.place.kind === 'message').map((l) => l.text)).toEqual(['plain', '']);
  });

  it('takes an object with no message (no blank line) as headers only', () => {
    expect(rawCommitLines(C, Buffer.from(`tree ${TREE}`))).toEqual([
      { place: { kind: 'header', name: 'tree', commit: C }, line: 1, text: `tree ${TREE}` },
    ]);
  });
});

describe('unquotePath and rawDiffPath', () => {
  it("turns git's C quoting back into the stored name", () => {
    expect(unquotePath('plain/name.txt')).toBe('plain/name.txt');
    expect(unquotePath('"d\\"q/f\\tx"')).toBe('d"q/f\tx');
    expect(unquotePath('"a\\\\b\\n"')).toBe('a\\b\n');
    expect(unquotePath('"caf\\303\\251"')).toBe('café');
  });

  it('gives the path of every entry but a deleted one', () => {
    expect(rawDiffPath(':000000 100644 0000000 7898192 A\t"d\\"q/f\\tx"')).toBe('d"q/f\tx');
    expect(rawDiffPath(':000000 040000 0000000 b18c51b A\tfolder')).toBe('folder');
    expect(rawDiffPath(':100644 100644 1111111 2222222 M\tsrc/app.js')).toBe('src/app.js');
    expect(rawDiffPath(':100644 000000 1111111 0000000 D\tgone.txt')).toBeUndefined();
    expect(rawDiffPath('diff --git a/x b/x')).toBeUndefined();
  });
});

describe('describeFinding: the place, never the value', () => {
  const at = (place: Parameters<typeof describeFinding>[0]['place'], line = 1) =>
    describeFinding({ place, line, rule: 'env API_KEY' });
  it('names each place of a commit', () => {
    expect(at({ kind: 'author', commit: C })).toBe('author of 1a2b3c4d5e6f: env API_KEY');
    expect(at({ kind: 'committer', commit: C })).toBe('committer of 1a2b3c4d5e6f: env API_KEY');
    expect(at(headerPlace('gpgsig', C), 4)).toBe('header gpgsig of 1a2b3c4d5e6f, line 4: env API_KEY');
    expect(at(headerPlace('x-sk-secret', C))).toBe('an extra header of 1a2b3c4d5e6f, line 1: env API_KEY');
    expect(at({ kind: 'message', commit: C }, 3)).toBe('message of 1a2b3c4d5e6f, line 3: env API_KEY');
    expect(at({ kind: 'path', commit: C }, 0)).toBe('path name in 1a2b3c4d5e6f: env API_KEY');
    expect(at({ kind: 'file', path: 'src/app.js', commit: C }, 12)).toBe(
      'added line in src/app.js:12 of 1a2b3c4d5e6f: env API_KEY',
    );
    expect(at({ kind: 'reply' }, 2)).toBe('reply, line 2: env API_KEY');
  });

  it('escapes a path, and shows none once a path name has a finding', () => {
    const evil = { kind: 'file' as const, path: 'x\r::error::y', commit: C };
    expect(at(evil)).toBe('added line in x\\r::error::y:1 of 1a2b3c4d5e6f: env API_KEY');
    expect(describeFinding({ place: evil, line: 2, rule: 'token' }, true)).toBe(
      'added line 2 of 1a2b3c4d5e6f, in a file whose path is not shown (a path name has a finding): token',
    );
  });
});
