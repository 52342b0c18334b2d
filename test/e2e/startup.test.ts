// What a run-mode step loads: the bundle's start is on the path of every run (the target: a reused
// sandbox's run within 0.15 s of a bare `docker run`, docs/benchmarks.md), so the HTTP stack that only the GitHub side uses stays out of it
// (src/bundle/undici-on-demand.ts, http-client-on-demand.ts, docs/adr/0008-undici-on-demand.md). Node's own list of the built-in
// modules it loaded (`process.moduleLoadList`) is written when each step's process exits.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMainAndPost, runStep } from '../support/action.js';
import { TEST_IMAGE } from '../support/env.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';

const repos: TestRepo[] = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-startup-'));
afterAll(() => {
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

/**
 * Built-in modules that only the GitHub side's HTTP stack loads here (undici; @actions/http-client and
 * its tunnel): none of them may appear in a run mode step.
 */
const HTTP_ONLY = ['http2', 'zlib', 'worker_threads', 'perf_hooks', 'dns', 'console', 'http', 'https', 'tls'];

/** NODE_OPTIONS for a step that writes the built-in modules it loaded to `file` when it exits. */
function recordingModules(file: string): Record<string, string> {
  const hook = path.join(scratch, 'record-modules.cjs');
  fs.writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').appendFileSync(${JSON.stringify(file)}, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/')).map((m) => m.slice(13)).join(' ') + '\\n'));\n`,
  );
  return { NODE_OPTIONS: `--require ${hook}` };
}

describe.each(nodeRuntimes())('$name', ({ execPath, major }) => {
  it('a run-mode step (main and post) never loads the HTTP stack (undici, HTTP/2, http, https, tls)', async () => {
    const repo = makeRepo();
    repos.push(repo);
    const list = path.join(scratch, `modules-${major}`);
    const { main, post } = await runMainAndPost({
      node: execPath,
      inputs: {
        mode: 'run',
        image: TEST_IMAGE,
        isolation: 'disk',
        branch: 'startup',
        'repository-path': repo.parent,
        'worktree-root': path.join(repo.root, 'cache'),
        cleanup: 'always',
        command: 'echo changed >> README.md',
      },
      env: { GITHUB_WORKSPACE: repo.parent, ...recordingModules(list) },
    });
    expect([main.code, main.stderr]).toEqual([0, '']);
    expect(post.code).toBe(0);
    expect(main.outputs['files-changed']).toBe('1');
    const steps = fs.readFileSync(list, 'utf8').trim().split('\n');
    expect(steps).toHaveLength(2);
    for (const loaded of steps) {
      const modules = loaded.split(' ');
      // the list is real: the step's own built-ins are in it
      expect(modules).toEqual(expect.arrayContaining(['child_process', 'fs']));
      expect(HTTP_ONLY.filter((m) => modules.includes(m))).toEqual([]);
    }
  });

  it('the start-up alone (an input error ends the step before anything runs) loads none of it either', async () => {
    // The GitHub side does load them when it talks to the API: test/e2e/pr-bot.test.ts runs that bundle path.
    const list = path.join(scratch, `modules-input-${major}`);
    const step = await runStep({
      node: execPath,
      inputs: { mode: 'bogus' },
      env: recordingModules(list),
    });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(/::error::.*'mode'/);
    const modules = fs.readFileSync(list, 'utf8').trim().split(' ');
    expect(HTTP_ONLY.filter((m) => modules.includes(m))).toEqual([]);
  });
});
