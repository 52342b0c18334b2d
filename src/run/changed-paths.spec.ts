import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Git } from '../engine/git.js';
import { git as sh, makeLocalRepo } from '../../test/support/repo.js';
import { TREE_BOMB_PATHS, treeBombScript } from '../../test/support/tree-bomb.js';
import { changedPaths, parseTree } from './changed-paths.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** Two commits of one repository are compared: no origin or clone needed. */
function repo(): string {
  const r = makeLocalRepo();
  roots.push(r.root);
  return r.parent;
}

const rev = (cwd: string, what: string) => sh(cwd, 'rev-parse', what).trim();
const gitDiff = (cwd: string, a: string, b: string) =>
  execFileSync('git', ['diff', '--no-renames', '--name-only', '-z', a, b, '--'], {
    cwd,
    maxBuffer: 1024 ** 3,
  })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);

/**
 * The same `git diff`, for a diff too large to hold as strings (a tree bomb's ~94 MB of names): read from
 * its pipe as it comes, keeping the first `keep` paths and counting the rest.
 */
async function gitDiffLarge(
  cwd: string,
  a: string,
  b: string,
  keep: number,
): Promise<{ first: string[]; count: number }> {
  const child = spawn('git', ['diff', '--no-renames', '--name-only', '-z', a, b, '--'], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first: string[] = [];
  let count = 0;
  let partial = Buffer.alloc(0); // the start of a name cut by the end of a piece
  child.stdout.on('data', (data: Buffer) => {
    let start = 0;
    for (let end; (end = data.indexOf(0, start)) >= 0; start = end + 1) {
      count++;
      if (first.length < keep)
        first.push(Buffer.concat([partial, data.subarray(start, end)]).toString('utf8'));
      partial = Buffer.alloc(0);
    }
    partial = Buffer.concat([partial, data.subarray(start)]);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  expect(code).toBe(0);
  expect(partial.length).toBe(0); // -z ends every name with NUL
  return { first, count };
}

describe('changedPaths', () => {
  // One wrapper for the file: Git.create checks git's version, a process of its own.
  let git: Git;
  beforeAll(async () => {
    git = await Git.create();
  });

  it('lists what git diff lists, in the same order: added, removed, changed, type changes', async () => {
    const cwd = repo();
    const start = rev(cwd, 'HEAD');
    fs.mkdirSync(`${cwd}/d/e`, { recursive: true });
    for (const f of ['a', 'd/b', 'd/e/c', 'z', 'x-y', 'x.y', 'x/y']) {
      fs.mkdirSync(`${cwd}/${f}`.replace(/\/[^/]+$/, ''), { recursive: true });
      fs.writeFileSync(`${cwd}/${f}`, f);
    }
    fs.writeFileSync(`${cwd}/dir-then-file`, 'file');
    sh(cwd, 'add', '-A');
    sh(cwd, 'commit', '-qm', 'one');
    const one = rev(cwd, 'HEAD');
    fs.rmSync(`${cwd}/d/e`, { recursive: true });
    fs.writeFileSync(`${cwd}/a`, 'changed');
    fs.rmSync(`${cwd}/dir-then-file`);
    fs.mkdirSync(`${cwd}/dir-then-file`);
    fs.writeFileSync(`${cwd}/dir-then-file/inner`, 'x');
    fs.symlinkSync('a', `${cwd}/z-link`);
    sh(cwd, 'add', '-A');
    sh(cwd, 'commit', '-qm', 'two');
    const two = rev(cwd, 'HEAD');
    for (const [a, b] of [
      [start, one],
      [one, two],
      [start, two],
      [two, start],
    ]) {
      const found = await changedPaths(git, cwd, a, b);
      const listed = gitDiff(cwd, a, b);
      expect(found).toEqual({ paths: listed, count: listed.length, exact: true });
    }
    expect(await changedPaths(git, cwd, two, two)).toEqual({ paths: [], count: 0, exact: true });
  });

  it('lists at most maxPaths and counts a tree bomb exactly, reading each tree once, in bounded memory', async () => {
    const cwd = repo();
    const start = rev(cwd, 'HEAD');
    execFileSync('sh', ['-c', treeBombScript()], { cwd });
    const bomb = rev(cwd, 'HEAD');
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const found = await changedPaths(git, cwd, start, bomb, {
      maxPaths: 1_000,
      maxTreeBytes: 64 * 1024 * 1024,
      timeoutMs: 60_000,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    // 1,000 names of ~610 bytes, a few trees: far below the ~230 MB git diff holds for the same diff.
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
    // the bomb's paths, and the files the repository started with
    const all = await gitDiffLarge(cwd, start, bomb, 1_000);
    expect(all.count).toBeGreaterThan(TREE_BOMB_PATHS);
    expect(found).toEqual({ paths: all.first, count: all.count, exact: true });
    // the other way round: everything deleted, counted the same way
    expect((await changedPaths(git, cwd, bomb, start)).count).toBe(all.count);
  });

  it('stops at its byte budget and says the count is a lower bound', async () => {
    const cwd = repo();
    const start = rev(cwd, 'HEAD');
    execFileSync('sh', ['-c', treeBombScript({ a: 3, b: 3, c: 4 })], { cwd });
    const found = await changedPaths(git, cwd, start, rev(cwd, 'HEAD'), {
      maxPaths: 5,
      maxTreeBytes: 4_000,
      timeoutMs: 60_000,
    });
    expect(found.exact).toBe(false);
    expect(found.paths.length).toBeLessThanOrEqual(5);
    expect(found.count).toBeGreaterThanOrEqual(found.paths.length);
    expect(found.stopped).toMatch(/larger than/);
  });

  it('refuses ids that are not object ids (nothing but hex reaches cat-file)', async () => {
    const cwd = repo();
    await expect(changedPaths(git, cwd, 'HEAD', rev(cwd, 'HEAD'))).rejects.toThrow(/Not an object id/);
  });
});

describe('parseTree', () => {
  it('reads modes, names and ids, and refuses a cut tree', () => {
    const id = Buffer.alloc(20, 0xab);
    const body = Buffer.concat([Buffer.from('100644 a b\0'), id, Buffer.from('40000 d\0'), id]);
    expect(parseTree(body, 20)).toEqual([
      { mode: '100644', name: 'a b', oid: 'ab'.repeat(20), tree: false },
      { mode: '40000', name: 'd', oid: 'ab'.repeat(20), tree: true },
    ]);
    expect(() => parseTree(body.subarray(0, body.length - 1), 20)).toThrow(/malformed/);
  });
});
