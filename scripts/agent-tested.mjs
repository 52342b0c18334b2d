#!/usr/bin/env node
// Writes the "Tested with <version> on <date>." line of each agent recipe in docs/agents.md from what the
// recipe tests (test/e2e/agents/) recorded: once every check of a CLI passed, its test writes
// `<cache>/tested/<cli>.json` ({ cli, package, version, date }), where <cache> is
// WORKTREE_SANDBOX_AGENT_CACHE or <tmp>/worktree-sandbox-agents, as the tests take it. So the line says what
// a run showed, never what someone typed: the scheduled drift workflow runs this after the tests against
// the latest CLIs, and a newer CLI that passed shows up as a new line in the diff it proposes.
//
//   node scripts/agent-tested.mjs [--results <dir>] [--doc <file>]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIS = ['claude-code', 'codex', 'gemini-cli'];
// As test/support/agent-recipes.ts reads it (the whitespace kept, since the line may wrap).
const TESTED_LINE = /Tested(\s+)with(\s+)\d+\.\d+\.\d+(?:-[\w.]+)?(\s+)on(\s+)\d{4}-\d\d-\d\d/;

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const cache = process.env.WORKTREE_SANDBOX_AGENT_CACHE ?? path.join(os.tmpdir(), 'worktree-sandbox-agents');
const results = option('--results', path.join(cache, 'tested'));
const docFile = option('--doc', path.join(ROOT, 'docs/agents.md'));

/** The line of recipe `cli` set to `version` and `date`, in the paragraph before its marker. */
function setTested(doc, cli, version, date) {
  const marker = doc.indexOf(`<!-- recipe: ${cli} -->`);
  if (marker < 0) throw new Error(`${docFile} has no recipe ${cli}`);
  const start = doc.lastIndexOf('\n\n', marker - 3);
  const paragraph = doc.slice(start, marker);
  if (!TESTED_LINE.test(paragraph)) throw new Error(`recipe ${cli}: no "Tested with" line before it`);
  const line = paragraph.replace(
    TESTED_LINE,
    (_, a, b, c, d) => `Tested${a}with${b}${version}${c}on${d}${date}`,
  );
  return doc.slice(0, start) + line + doc.slice(marker);
}

let doc = fs.readFileSync(docFile, 'utf8');
for (const cli of CLIS) {
  const file = path.join(results, `${cli}.json`);
  if (!fs.existsSync(file)) {
    console.log(
      `${cli}: no result in ${results} (its tests did not run, or did not all pass): line unchanged`,
    );
    continue;
  }
  const { version, date } = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!/^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(version) || !/^\d{4}-\d\d-\d\d$/.test(date))
    throw new Error(`${file}: not a version and a date`);
  doc = setTested(doc, cli, version, date);
  console.log(`${cli}: Tested with ${version} on ${date}`);
}
fs.writeFileSync(docFile, doc);
