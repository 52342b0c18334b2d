// False positives of `secret-scan`: the scan, as a push runs it (every added line of every commit, every
// commit message, secretlint's recommended rules), over this repository's own history must find nothing.
// A project's ordinary code, tests, lock files, bundles and docs are what a push carries every day.
import { describe, expect, it } from '@jest/globals';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Git } from '../../src/engine/git.js';
import { checkCommits, secretGate } from '../../src/run/secret-gate.js';
import { silentUi, type Ui } from '../../src/ui/ui.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The one thing the scan finds in this history, and rightly: a URL with a password in it
 * (`https://user:pa55word@…`), a fake one, in a test of a module removed since (the line is in the
 * commit that added it and in the merges that brought it, each compared with its first parent).
 */
const KNOWN_FIXTURE =
  /^ {2}src\/credentials\.spec\.ts:39 \(commit [0-9a-f]{12}\): @secretlint\/secretlint-rule-basicauth \(BasicAuth\)$/;

/**
 * And the scanner itself, bundled into dist/: its Shopify rule's comments quote Shopify's own example keys
 * (`e.g.) shpss_…`), which the rule then finds, in each of the two bundles (the action's and the CLI's).
 */
const BUNDLED_RULE_EXAMPLES =
  /^ {2}dist\/(cli\/)?\d+\.index\.js:\d+ \(commit [0-9a-f]{12}\): @secretlint\/secretlint-rule-shopify \(SHOPIFY_KEY\)$/;

describe("secret-scan over this repository's own history", () => {
  it("finds nothing in any commit reachable from HEAD but one known fake credential in a test, and the bundled rules' own examples", async () => {
    const git = await Git.create();
    const head = (await git.run(ROOT, ['rev-parse', 'HEAD'])).trim();
    const infos: string[] = [];
    const warnings: string[] = [];
    const ui: Ui = { ...silentUi, info: (m) => infos.push(m), warning: (m) => warnings.push(m) };
    // No known values (none of this repository's tests' fake tokens is a secret of a step): the well-known
    // formats alone, the part that can be wrong about ordinary text.
    const gate = secretGate({ secretScan: 'warn', token: '', network: { mode: 'bridge' }, env: [] }, ui);
    await checkCommits(git, ROOT, [head], gate, "this repository's history");
    const said = [...infos, ...warnings].join('\n');
    expect(said).not.toContain('could not be scanned whole');
    const findings = warnings.flatMap((w) => w.split('\n').slice(1));
    for (const line of findings)
      expect(KNOWN_FIXTURE.test(line) || BUNDLED_RULE_EXAMPLES.test(line) ? 'known' : line).toBe('known');
    expect(warnings.length + infos.length).toBe(1);
    process.stdout.write(`${said.split('\n')[0]}\n`);
  }, 600_000);
});
