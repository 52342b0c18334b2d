// Everything that comes back from a sandbox is bounded on the host: a commit whose three small trees name
// 153,600 long paths, and 15,000 untracked files, leave the action's memory, the host's git, the state the
// post step gets (in an environment variable), the outputs and the job summary small, and the post step
// cleans up as its policy says. Figures: notes/bounds.md.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, type StepResult } from '../support/action.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { TREE_BOMB_PATHS, treeBombScript } from '../support/tree-bomb.js';

const repos: TestRepo[] = [];
const dirs: string[] = [];
const prefixes: string[] = [];
afterAll(() => {
  for (const p of prefixes) removeVolumes(p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function setup(label: string) {
  const owner = runnerIds();
  const repo = makeRepo({ owner });
  repos.push(repo);
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  // The post step's RUNNER_TEMP, kept to look at what it saved.
  const runnerTemp = tempDir('wts-bounds-temp-');
  dirs.push(runnerTemp);
  chownTree(runnerTemp, owner);
  fs.chmodSync(runnerTemp, 0o777);
  return {
    repo,
    prefix,
    runnerTemp,
    inputs: (more: Record<string, string>) => ({
      mode: 'run',
      image: TEST_IMAGE,
      isolation: 'container',
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      ...more,
    }),
  };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;

function peaks(step: StepResult): { node: number; git: number } {
  return { node: step.peakRssKb, git: step.peakRssByCommand.git ?? 0 };
}

/**
 * The most one step may leave the next in GITHUB_STATE: a few kilobytes (~4.7 KB here: the sandbox's
 * location and the identities for a capture), whatever the sandbox holds.
 */
const STATE_MAX_BYTES = 8 * 1024;
/** The runner refuses a step summary over 1 MiB. */
const SUMMARY_MAX_BYTES = 1024 * 1024;
/** Node's peak for a whole run, the baseline's ~70-90 MiB plus room for a noisy machine. */
const NODE_MAX_KB = 150 * 1024;
/** Any host-side git process's peak: git diff held ~230 MB (--name-only) to 420 MB (--stat) here. */
const GIT_MAX_KB = 60 * 1024;

describe('a tree bomb: a commit of three small trees naming 153,600 long paths', () => {
  // Checked out sparsely, the bomb is the work tree's snapshot too: 153,600 changed files. Committed but
  // not checked out, the work tree lacks every path: 153,600 uncommitted deletions.
  it.each([
    { as: 'changed files', sparse: true },
    { as: 'uncommitted deletions', sparse: false },
  ])(
    'as $as: reported in bounded memory and time, the summary says what was left out, and cleanup: always leaves nothing',
    async ({ sparse }) => {
      const { repo, prefix, runnerTemp, inputs } = setup('bomb');
      const startFiles = git(repo.parent, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean);
      const total = TREE_BOMB_PATHS + startFiles.length;

      // The baseline, in the same run: a small commit.
      const small = await runMainAndPost({
        inputs: inputs({
          cleanup: 'always',
          command: 'echo small > small.txt && git add -A && git commit -qm small',
        }),
        asRunner: true,
      });
      expect(small.main.code).toBe(0);
      expect(small.post.code).toBe(0);

      const started = Date.now();
      const { main, post } = await runMainAndPost({
        inputs: inputs({ cleanup: 'always', command: treeBombScript({ sparse }) }),
        env: { RUNNER_TEMP: runnerTemp },
        asRunner: true,
        timeoutMs: 300_000,
      });
      const seconds = (Date.now() - started) / 1000;
      const base = { main: peaks(small.main), post: peaks(small.post) };
      const bomb = { main: peaks(main), post: peaks(post) };
      process.stdout.write(
        `tree bomb as ${sparse ? 'changed files' : 'uncommitted deletions'} (${TREE_BOMB_PATHS} paths): main+post ${seconds.toFixed(1)} s; ` +
          `node main ${mib(bomb.main.node)} post ${mib(bomb.post.node)}, git main ${mib(bomb.main.git)} post ${mib(bomb.post.git)}; ` +
          `baseline node main ${mib(base.main.node)} post ${mib(base.post.node)}, git main ${mib(base.main.git)} post ${mib(base.post.git)}; ` +
          `state ${main.stateBytes} B (baseline ${small.main.stateBytes} B), summary ${main.summary.length} B\n`,
      );
      if (process.env.BOUNDS_DEBUG) process.stdout.write(`${main.stdout}\n${post.stdout}\n`);
      expect(main.code).toBe(0);
      expect(post.code).toBe(0);
      expect(seconds).toBeLessThan(180);
      expect(main.outputs.commits).toBe('1');

      if (sparse) {
        // Counted exactly (the bomb's paths and the files it replaced), named only in part.
        expect(main.outputs['files-changed']).toBe(String(total));
        expect(main.outputs.changed).toBe('true');
        expect(main.outputs['diff-stat'].length).toBeLessThan(64 * 1024);
        // the first paths (as many as fit in 32 KiB), then what was left out
        const stat = main.outputs['diff-stat'].split('\n');
        const more = /^… and ([\d,]+) more path\(s\): ([\d,]+) changed/.exec(stat[stat.length - 1]);
        expect(more).not.toBeNull();
        expect(Number(more![1].replace(/,/g, '')) + stat.length - 1).toBe(total);
        expect(more![2]).toBe(total.toLocaleString('en-US'));
        expect(main.summary).toContain(`| Files changed | ${total.toLocaleString('en-US')} |`);
        expect(main.summary).toContain(more![0]);
      } else {
        expect(main.outputs['files-changed']).toBe('0');
      }
      expect(Buffer.byteLength(main.summary)).toBeLessThan(SUMMARY_MAX_BYTES);
      // The state does not grow with what the sandbox holds.
      expect(main.stateBytes).toBeLessThan(STATE_MAX_BYTES);
      expect(main.stateBytes - small.main.stateBytes).toBeLessThan(64);

      // Memory: node and every git on the host, against the stated figures.
      for (const step of [bomb.main, bomb.post]) {
        expect(step.node).toBeGreaterThan(0);
        expect(step.node).toBeLessThan(NODE_MAX_KB);
        expect(step.git).toBeLessThan(GIT_MAX_KB);
      }

      // cleanup: always: the volume is gone, the work saved: the bomb's commit as a bundle, and the work
      // tree's "deletions" of its paths as a bundle of the snapshot (too many files for a patch).
      expect(volumesWithPrefix(prefix)).toEqual([]);
      expect(post.stdout).toContain(`Removed sandbox ${main.outputs.sandbox} (cleanup: always).`);
      const dir = path.join(runnerTemp, 'worktree-sandbox');
      const saved = fs.readdirSync(dir).sort();
      expect(saved.some((f) => f.endsWith('.uncommitted.bundle'))).toBe(!sparse);
      const commits = saved.find((f) => f.endsWith('.bundle') && !f.endsWith('.uncommitted.bundle'));
      expect(commits).toBeDefined();
      for (const f of saved) expect(fs.statSync(path.join(dir, f)).size).toBeLessThan(1024 * 1024);
      // the commit is in the bundle: nothing lost
      expect(git(repo.parent, 'bundle', 'list-heads', path.join(dir, commits!))).toContain(
        main.outputs['head-sha'],
      );
    },
    600_000,
  );
});

describe('15,000 untracked files', () => {
  it('leave a state of a few hundred bytes; the post step runs, saves the work and removes the sandbox', async () => {
    const { prefix, runnerTemp, inputs } = setup('many');
    const { main, post } = await runMainAndPost({
      inputs: inputs({
        cleanup: 'always',
        command:
          'mkdir many && cd many && seq -f "untracked-file-with-a-longish-name-%05g.txt" 1 15000 | xargs touch',
      }),
      env: { RUNNER_TEMP: runnerTemp },
      asRunner: true,
      timeoutMs: 300_000,
    });
    process.stdout.write(
      `15,000 untracked files: state ${main.stateBytes} B, summary ${Buffer.byteLength(main.summary)} B, node main ${mib(main.peakRssKb)} post ${mib(post.peakRssKb)}, git ${mib(main.peakRssByCommand.git ?? 0)}\n`,
    );
    expect(main.code).toBe(0);
    expect(main.stateBytes).toBeLessThan(STATE_MAX_BYTES);
    expect(main.outputs['files-changed']).toBe('15000');
    expect(main.summary).toContain('… and 14,900 more path(s)');
    expect(Buffer.byteLength(main.summary)).toBeLessThan(SUMMARY_MAX_BYTES);
    // the post step started (no E2BIG) and did its work
    expect(post.code).toBe(0);
    expect(post.stderr).toBe('');
    expect(post.stdout).toMatch(/Saved the uncommitted work of \S+ to \S+\.uncommitted\.bundle\./);
    expect(volumesWithPrefix(prefix)).toEqual([]);
    // nothing lost: the bundle holds the snapshot of the 15,000 files
    const bundle = fs
      .readdirSync(path.join(runnerTemp, 'worktree-sandbox'))
      .find((f) => f.endsWith('.uncommitted.bundle'))!;
    const scratch = tempDir('wts-bounds-check-');
    dirs.push(scratch);
    git(scratch, 'init', '-q');
    // the bundle needs the commit the run started from: borrowed from the parent's objects
    const parentObjects = path.join(repos[repos.length - 1].parent, '.git', 'objects');
    fs.writeFileSync(path.join(scratch, '.git', 'objects', 'info', 'alternates'), `${parentObjects}\n`);
    git(
      scratch,
      'fetch',
      '-q',
      path.join(runnerTemp, 'worktree-sandbox', bundle),
      'refs/run/snapshot:refs/heads/snapshot',
    );
    const files = git(scratch, 'ls-tree', '-r', '--name-only', 'snapshot', '--', 'many')
      .split('\n')
      .filter(Boolean);
    expect(files).toHaveLength(15_000);
  }, 600_000);
});
