// The README's Quick start as written, as the runner runs it: the bundle as uid 1001, a branch, `npx
// prettier --write .` in a Node 24 image, `push: true`. There is no registry for `node:24` here: the image
// is the test image plus Node 24 and npm (scripts/setup.sh), which is what `node:24` offers the command.
// npm fetches prettier from the npm registry (the network is `bridge`, the default).
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost } from '../support/action.js';
import { removeVolumes, uniquePrefix } from '../support/docker.js';
import { runnerIds } from '../support/env.js';
import { git, makeRepo, type TestRepo } from '../support/repo.js';

const NODE_IMAGE = process.env.WORKTREE_SANDBOX_NODE_IMAGE ?? 'worktree-sandbox-node:24';
const repos: TestRepo[] = [];
const prefixes: string[] = [];
afterAll(() => {
  for (const p of prefixes) removeVolumes(p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

describe('the Quick start', () => {
  it('npx prettier --write . in a Node 24 image, as uid 1001: formats, commits, pushes; npm caches in HOME', async () => {
    const repo = makeRepo({
      files: { 'src/app.js': 'const  x = {a:1,\nb:2}\nconsole.log( x )\n', 'README.md': '# test\n' },
      owner: runnerIds(),
    });
    repos.push(repo);
    const prefix = uniquePrefix('qs');
    prefixes.push(prefix);
    const inputs = {
      branch: 'format',
      image: NODE_IMAGE,
      command: 'npx prettier --write .',
      push: 'true',
      'commit-message': 'style: prettier',
      'repository-path': repo.parent,
      'volume-prefix': prefix,
    };
    const { main, post } = await runMainAndPost({
      inputs,
      asRunner: true,
      env: { GITHUB_WORKSPACE: repo.parent },
      timeoutMs: 600_000,
    });
    if (main.code !== 0) process.stdout.write(main.stdout.slice(-3000));
    expect(main.stdout).not.toMatch(/EACCES/);
    expect({ code: main.code, stderr: main.stderr }).toEqual({ code: 0, stderr: '' });
    expect(post.code).toBe(0);
    expect(main.outputs.pushed).toBe('true');
    expect(git(repo.origin, 'log', '-1', '--format=%s', 'format')).toBe('style: prettier');
    const formatted = git(repo.origin, 'show', 'format:src/app.js');
    expect(formatted).toBe('const x = { a: 1, b: 2 };\nconsole.log(x);');
    // The npm cache lives in the sandbox's HOME, not in the work tree: no change shows it.
    expect(main.outputs['diff-stat']).not.toMatch(/\.npm|_cacache/);
    // The next run reuses the sandbox and its cache: prettier is not fetched again.
    const again = await runMainAndPost({
      inputs: { ...inputs, command: 'npx --offline prettier --check .' },
      asRunner: true,
      env: { GITHUB_WORKSPACE: repo.parent },
      timeoutMs: 600_000,
    });
    expect(again.main.code).toBe(0);
    expect(again.main.stdout).toContain('All matched files use Prettier code style!');
    expect(fs.existsSync(path.join(repo.parent, '.npm'))).toBe(false);
  }, 900_000);
});
