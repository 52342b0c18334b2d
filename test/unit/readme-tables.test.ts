// The README's input/output tables must say exactly what action.yml says.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const script = path.resolve('scripts/readme-tables.mjs');
const check = (action: string, readme: string) =>
  spawnSync(process.execPath, [script, '--check', '--action', action, '--readme', readme], {
    encoding: 'utf8',
  });

describe('README tables', () => {
  it('match action.yml', () => {
    const result = check('action.yml', 'README.md');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('every input and output of action.yml is in the README', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const action = fs.readFileSync('action.yml', 'utf8');
    const names = [...action.matchAll(/^ {2}([a-z][a-z-]*):$/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
  });

  it('a drifted README is caught', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-readme-'));
    const readme = path.join(dir, 'README.md');
    fs.writeFileSync(
      readme,
      fs.readFileSync('README.md', 'utf8').replace(/^\| `cleanup` /m, '| `clean-up` '),
    );
    const result = check('action.yml', readme);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('differ from');
    fs.rmSync(dir, { recursive: true });
  });
});
