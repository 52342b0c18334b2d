// The input rules, value by value, as a run applies them before it makes anything: `parseSettings`, then
// git's own branch-name rule (`validateBranchNames` with the real `git check-ref-format`, one process of a
// few milliseconds). Each bad value ends in an InputError that names the input. The bundle's run of the
// same path (one `::error::`, nothing created, nothing executed) is test/integration/hardening-input.test.ts,
// which keeps one value of each kind and every value that tries to run or smuggle something.
import { describe, expect, it } from '@jest/globals';
import { createGit } from '../engine/git.js';
import { InputError, parseSettings, validateBranchNames, type RunSettings } from './settings.js';

const gitCli = createGit();
const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

/** What a run does with its inputs before anything else: parse, then git's branch rule. */
async function check(input: string, value: string): Promise<unknown> {
  try {
    const settings = parseSettings(reader({ command: 'true', branch: 'hostile-input', [input]: value }), {
      HOME: '/home/u',
    }) as RunSettings;
    const git = await gitCli;
    await validateBranchNames(settings, (name) => git.isValidBranchName(name));
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a bad input value ends in an error naming the input, before anything is made', () => {
  it.each([
    // Branch names git refuses, or that name something else (the previous branch, HEAD).
    ['branch', 'a b'],
    ['branch', '@{-1}'],
    ['branch', '@'],
    ['branch', 'HEAD'],
    ['branch', 'refs/../x'],
    ['branch', 'main.lock'],
    ['branch', 'x'.repeat(300)],
    // Volume prefixes Docker would reject.
    ['volume-prefix', 'bad/prefix'],
    ['volume-prefix', 'a b'],
    ['volume-prefix', 'ümlaut'],
    ['volume-prefix', '.hidden'],
    ['volume-prefix', 'a'.repeat(64)],
    // Numbers.
    ['timeout-minutes', '1e3'],
    ['timeout-minutes', '0x10'],
    ['timeout-minutes', 'NaN'],
    ['timeout-minutes', 'Infinity'],
    ['pids-limit', '-5'],
    ['pids-limit', '1.5'],
    ['pids-limit', '0'],
    ['memory', '-1g'],
    ['memory', '1.5.5g'],
    ['cpus', '-1'],
    ['cpus', '1,5'],
    // Words outside the input's choices.
    ['isolation', 'vm'],
    ['cleanup', 'sometimes'],
    ['allow-failure', 'yes'],
    ['read-only-rootfs', '1'],
    ['max-import-size', '12 parsecs'],
    ['engine', 'kubectl'],
    // Environment lines.
    ['env', 'FOO BAR=1'],
    ['env', 'A=1\nA=2'],
    // An image that is two words.
    ['image', 'a b'],
  ])('%s %j', async (input, value) => {
    const error = await check(input, value);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`Invalid input '${input}'`);
  });

  it('lets the same inputs through with good values (the rule, not the reader, refuses)', async () => {
    for (const [input, value] of [
      ['branch', 'feat/ok'],
      ['volume-prefix', 'ok-prefix_1.2'],
      ['timeout-minutes', '1.5'],
      ['pids-limit', '5'],
      ['memory', '1.5g'],
      ['cpus', '1.5'],
      ['isolation', 'disk'],
      ['engine', 'podman'],
      ['env', 'FOO=1'],
      ['image', 'debian:bookworm'],
    ])
      expect(await check(input, value)).toBeUndefined();
  });
});
