// False positives of `secret-scan`: the scan, as a push runs it (every added line of every commit, every
// commit object as stored, every path name, secretlint's recommended rules), over this repository's own
// history must find nothing.
// A project's ordinary code, tests, lock files, bundles and docs are what a push carries every day.
import { describe, expect, it } from '@jest/globals';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Git } from '../../src/engine/git.js';
import { checkCommits, secretGate } from '../../src/run/secret-gate.js';
import { silentUi, type Ui } from '../../src/ui/ui.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe("secret-scan over this repository's own history", () => {
  it('finds nothing in any commit reachable from HEAD', async () => {
    const git = await Git.create();
    const head = (await git.run(ROOT, ['rev-parse', 'HEAD'])).trim();
    const infos: string[] = [];
    const warnings: string[] = [];
    const ui: Ui = { ...silentUi, info: (m) => infos.push(m), warning: (m) => warnings.push(m) };
    // No known values (none of this repository's tests' fake tokens is a secret of a step): the well-known
    // formats alone, the part that can be wrong about ordinary text.
    const gate = secretGate({ secretScan: 'warn', token: '', network: { mode: 'bridge' }, env: [] }, ui);
    await checkCommits(git, ROOT, [head], gate, "this repository's history");
    expect(warnings).toEqual([]);
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatch(
      /^Secret scan of this repository's history: nothing found \(\d+ commit\(s\) with their headers, \d+ path name\(s\), \d+ added line\(s\)\)\.$/,
    );
    process.stdout.write(`${infos[0]}\n`);
  }, 600_000);
});
