// The host's ignore decision against git itself: many generated .gitignore files (tracked, at several
// folder levels) and untracked paths in temporary repositories (test/support/gitignore-cases.ts); git's
// own listing of untracked files that are not ignored (`git ls-files --others --exclude-standard`, what
// `git status` reports) against the host's (clean-probe's unlisted entries judged by ignored.ts). The
// host must never call ignored a file git reports; where it supports the patterns, both lists must be
// equal. About a thousand git processes: the integration lane, not the unit one.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { proveClean } from '../../src/reap/clean-probe.js';
import { ignoredRules, untrackedFiles } from '../../src/reap/ignored.js';
import { gitUntracked, scenario } from '../support/gitignore-cases.js';

describe('ignored.ts against git', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never calls ignored a file git reports, and agrees with git wherever it decides (200 generated cases)', () => {
    let decided = 0;
    let unsupported = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { repo, gitignores, tree } = scenario(seed);
      made.push(repo);
      const proof = proveClean(repo, path.join(repo, '.git'), tree);
      const rules = ignoredRules(gitignores);
      if ('unsupported' in rules) {
        unsupported++;
        continue;
      }
      const theirs = gitUntracked(repo);
      if (proof.clean) {
        expect({ seed, theirs }).toEqual({ seed, theirs: [] });
        continue;
      }
      expect(proof.untracked).toBeDefined();
      const ours = untrackedFiles(repo, proof.untracked!.unlisted, rules);
      if (!Array.isArray(ours)) {
        unsupported++;
        continue;
      }
      decided++;
      // Safety: everything git reports, the host reports (a file git reports is never called ignored).
      const missing = theirs.filter((f) => !ours.includes(f));
      const extra = ours.filter((f) => !theirs.includes(f));
      const at = JSON.stringify({ seed, gitignores: [...gitignores], missing, extra });
      expect(missing.length ? `called ignored what git reports: ${at}` : 'safe').toBe('safe');
      // And no more: where the host decides, it decides as git does.
      expect(extra.length ? `reported what git ignores: ${at}` : 'same').toBe('same');
    }
    // The generator must exercise the decision, not only the fallback.
    expect(decided).toBeGreaterThanOrEqual(60);
    expect(unsupported).toBeLessThan(140);
  }, 120_000);
});
