// The inputs are written once, in action.yml. This writes them into src/action-defaults.ts for the code
// that runs without the Actions runner filling them in (the CLI's options, the settings' fallbacks):
//   node scripts/action-defaults.mjs          rewrite src/action-defaults.ts
//   node scripts/action-defaults.mjs --check  exit 1 when it differs from what action.yml says
// Options: --action FILE --out FILE (defaults: action.yml, src/action-defaults.ts next to this folder).
// Defaults that are workflow expressions (`${{ github.token }}`) are left out: only the runner knows them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const actionFile = opt('--action', path.join(here, 'action.yml'));
const target = opt('--out', path.join(here, 'src', 'action-defaults.ts'));

export function defaultsModule(actionYaml) {
  const inputs = parse(actionYaml).inputs ?? {};
  const lines = Object.entries(inputs).map(([name, spec]) => {
    const fallback = String(spec.default ?? '');
    const input = { description: String(spec.description ?? '') };
    if (!fallback.includes('${{')) input.default = fallback;
    return `  ${JSON.stringify(name)}: ${JSON.stringify(input)},`;
  });
  return [
    '// Generated from action.yml by scripts/action-defaults.mjs: do not edit. The inputs, written once.',
    '',
    '/** An input as action.yml writes it; no default when it is a workflow expression (only the runner knows it). */',
    'export interface ActionInput {',
    '  description: string;',
    '  default?: string;',
    '}',
    '',
    "/** Every input, in action.yml's order: the CLI's options are made of them. */",
    'export const ACTION_INPUTS: Readonly<Record<string, ActionInput>> = {',
    ...lines,
    '};',
    '',
    "/** The inputs' defaults, for the code that runs without the runner filling them in. */",
    'export const ACTION_DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(',
    '  Object.entries(ACTION_INPUTS).flatMap(([name, input]) =>',
    '    input.default === undefined ? [] : [[name, input.default]],',
    '  ),',
    ');',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = defaultsModule(fs.readFileSync(actionFile, 'utf8'));
  if (args.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== wanted) {
      console.error(
        'src/action-defaults.ts differs from action.yml: run `node scripts/action-defaults.mjs`.',
      );
      process.exit(1);
    }
  } else fs.writeFileSync(target, wanted);
}
