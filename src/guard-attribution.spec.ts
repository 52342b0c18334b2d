import { attribute } from './guard-attribution.js';

const V = 'ref refs/heads/main was moved from aaa to bbb: restored';

describe('attribute', () => {
  test('found when the only suspect closes: said as it is', () => {
    expect(attribute(V, 'a', ['a'], { kind: 'close', sandbox: 'a' })).toBe(V);
  });

  test('found by another run: says when; with one suspect, blames nobody else', () => {
    expect(attribute(V, 'a', ['a'], { kind: 'open', sandbox: 'b' })).toBe(
      `${V} (found when the command of sandbox b was about to start)`,
    );
    expect(attribute(V, 'a', ['a'], { kind: 'prepare', sandbox: 'b' })).toBe(
      `${V} (found when another run on this repository began)`,
    );
    expect(attribute(V, 'a', ['a', 'z'], { kind: 'recover', sandbox: 'z' })).toBe(
      `${V} (found when the interrupted run of sandbox z was finished); the command of sandbox z ran at the same time and may have made this change instead`,
    );
  });

  test('several suspects: each run reports it, naming the others', () => {
    const at = { kind: 'close', sandbox: 'a' } as const;
    expect(attribute(V, 'a', ['a', 'b', 'c'], at)).toBe(
      `${V}; the commands of sandboxes b, c ran at the same time and may have made this change instead`,
    );
    expect(attribute(V, 'b', ['a', 'b'], at)).toBe(
      `${V} (found when the command of sandbox a had ended); the command of sandbox a ran at the same time and may have made this change instead`,
    );
  });
});
