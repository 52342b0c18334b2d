// The inputs' defaults are written once, in action.yml. This writes them into src/action-defaults.ts for
// the code that runs without the Actions runner filling them in (the CLI, the settings' fallbacks):
//   node scripts/action-defaults.mjs          rewrite src/action-defaults.ts
//   node scripts/action-defaults.mjs --check  exit 1 when it differs from what action.yml says
// Defaults that are workflow expressions (`${{ github.token }}`) are left out: only the runner knows them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(here, 'src', 'action-defaults.ts');

export function defaultsModule(actionYaml) {
  const inputs = parse(actionYaml).inputs ?? {};
  const entries = Object.entries(inputs)
    .map(([name, spec]) => [name, String(spec.default ?? '')])
    .filter(([, value]) => !value.includes('${{'));
  const lines = entries.map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
  return [
    "// Generated from action.yml by scripts/action-defaults.mjs: do not edit. The inputs' defaults, written once.",
    'export const ACTION_DEFAULTS: Readonly<Record<string, string>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = defaultsModule(fs.readFileSync(path.join(here, 'action.yml'), 'utf8'));
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== wanted) {
      console.error(
        'src/action-defaults.ts differs from action.yml: run `node scripts/action-defaults.mjs`.',
      );
      process.exit(1);
    }
  } else fs.writeFileSync(target, wanted);
}
