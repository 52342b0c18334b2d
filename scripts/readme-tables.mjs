// The README's input and output tables are generated from action.yml, so they cannot drift:
//   node scripts/readme-tables.mjs          rewrite the tables in README.md
//   node scripts/readme-tables.mjs --check  exit 1 when README.md differs from what action.yml says
// Options: --action FILE --readme FILE (defaults: action.yml, README.md next to this folder).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const actionFile = opt('--action', path.join(here, 'action.yml'));
const readmeFile = opt('--readme', path.join(here, 'README.md'));

const cell = (text) =>
  String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
const code = (text) => (text === '' ? '' : `\`${String(text).replace(/`/g, "'")}\``);

export function tables(action) {
  const inputs = Object.entries(action.inputs ?? {}).map(
    ([name, spec]) => `| \`${name}\` | ${code(spec.default ?? '')} | ${cell(spec.description)} |`,
  );
  const outputs = Object.entries(action.outputs ?? {}).map(
    ([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`,
  );
  return {
    inputs: ['| Input | Default | Description |', '|---|---|---|', ...inputs].join('\n'),
    outputs: ['| Output | Description |', '|---|---|', ...outputs].join('\n'),
  };
}

function replaceBlock(text, name, body) {
  const start = `<!-- ${name}:start (generated from action.yml by scripts/readme-tables.mjs) -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${readmeFile} has no ${start} ... ${end} block`);
  // Blank lines around the table: Markdown then reads the comments and the table as blocks of their own.
  return `${text.slice(0, i + start.length)}\n\n${body}\n\n${text.slice(j)}`;
}

// Prettier pads table cells and may add blank lines: compare tables cell by cell, not by layout.
const normalize = (text) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split(/(?<!\\)\|/)
            .map((c) => c.trim().replace(/^-{3,}$/, '---'))
            .join('|')
        : line,
    )
    .join('\n');

const action = parse(fs.readFileSync(actionFile, 'utf8'));
const readme = fs.readFileSync(readmeFile, 'utf8');
const t = tables(action);
const wanted = replaceBlock(replaceBlock(readme, 'inputs', t.inputs), 'outputs', t.outputs);
if (args.includes('--check')) {
  if (normalize(wanted) !== normalize(readme)) {
    console.error(
      `${readmeFile}: the input/output tables differ from ${actionFile}; run node scripts/readme-tables.mjs`,
    );
    process.exit(1);
  }
  console.log('README tables match action.yml.');
} else if (wanted !== readme) {
  // Written as generated (one row a line, no padding): the README keeps the blocks out of Prettier's
  // reach (prettier-ignore), since padded to their widest cell the tables would double the README's size.
  fs.writeFileSync(readmeFile, wanted);
  console.log(`Updated the tables in ${readmeFile}.`);
}
