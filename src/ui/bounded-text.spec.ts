// Text held within bytes: cut between characters, and the newest items of a list kept first within a count
// and a byte budget (what else each counts is the caller's), the last one kept cut short.
import { describe, expect, it } from '@jest/globals';
import { cutToBytes, keepNewest } from './bounded-text.js';

describe('cutToBytes', () => {
  it('keeps text within the bound and never splits a character', () => {
    expect(cutToBytes('abc', 3)).toEqual({ text: 'abc', cut: false });
    expect(cutToBytes('aé', 2)).toEqual({ text: 'a', cut: true });
    expect(cutToBytes('a😀b', 4)).toEqual({ text: 'a', cut: true });
    expect(cutToBytes('a😀b', 5)).toEqual({ text: 'a😀', cut: true });
  });
});

describe('keepNewest', () => {
  it('keeps the newest within the count, newest first, and counts what it left out', () => {
    const all = Array.from({ length: 25 }, (_, i) => ({ author: 'u', body: `c${i}` }));
    const b = keepNewest(all, 20, 64 * 1024);
    expect(b.kept).toHaveLength(20);
    expect(b.kept[0].body).toBe('c24');
    expect(b.kept[19].body).toBe('c5');
    expect(b).toMatchObject({ leftOut: 5, bodiesCut: 0 });
  });

  it('stays within the bytes, cutting the last body it keeps', () => {
    const all = [
      { author: 'old', body: 'x'.repeat(100) },
      { author: 'big', body: 'é'.repeat(40_000) },
      { author: 'new', body: 'y'.repeat(10) },
    ];
    const b = keepNewest(all, 20, 1000, (c) => Buffer.byteLength(c.author));
    const bytes = b.kept.reduce((n, c) => n + Buffer.byteLength(c.author + c.body), 0);
    expect(bytes).toBeLessThanOrEqual(1000);
    expect(b.kept.map((c) => c.author)).toEqual(['new', 'big']);
    expect(b).toMatchObject({ leftOut: 1, bodiesCut: 1 });
  });
});
