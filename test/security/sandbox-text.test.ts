// Text from a sandbox reaches the runner's log only escaped or fenced, lone carriage returns included (the
// runner breaks lines at a lone `\r` too): file names and a commit subject in the run report, debug lines,
// a helper's error (a filter the sandbox configured, failing the capture with `\r::error::…` and
// `\r::set-output …` on its stderr) in the main step and the post step, and the same failure when the
// reaper archives the sandbox. The bundle runs as the runner runs it; its stdout is read as the runner
// reads it, and no line may issue a command that the sandbox wrote.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost, runStep, type StepResult } from '../support/action.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { chownTree, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { injectedCommands, runnerCommands } from '../support/runner-log.js';
import { age } from '../support/sandboxes.js';

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
  const root = tempDir('wts-text-root-');
  chownTree(root, owner);
  dirs.push(root);
  return {
    repo,
    prefix,
    root,
    common: {
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      'worktree-root': root,
    },
  };
}

/** Payloads with lone carriage returns: each would issue a command if printed as it is. */
const CR = "$(printf '\\r')";
const hostileNames = [
  `printf x > "name${CR}::warning::pwned by a file name"`,
  `git add -A && git commit -qm "subject${CR}::error::pwned by a subject${CR}::set-output name=x::y"`,
  `printf x > "untracked${CR}::error::pwned by an untracked name${CR}::set-output name=x::y"`,
].join(' && ');

/**
 * A filter the sandbox configures for every file, which fails after printing commands behind lone
 * carriage returns, and no newline: git's own error follows on the same line, so the payload is in the
 * last lines of the capture helper's stderr, which its error message quotes. Whatever runs `git add` in
 * the sandbox (the capture helper: in the run, in the post step, and when the reaper archives) fails so.
 */
const hostileFilter = [
  `git config filter.evil.clean "printf 'filter failed\\r::error::pwned by a filter\\r::set-output name=x::y\\r##[error]pwned ' >&2; exit 1"`,
  'git config filter.evil.required true',
  `echo '* filter=evil' > .gitattributes`,
  'echo work > work.txt',
].join(' && ');

function expectClean(step: StepResult, what: string): void {
  const injected = injectedCommands(step.stdout);
  if (injected.length) process.stdout.write(`${what}: ${JSON.stringify(injected)}\n`);
  expect(injected).toEqual([]);
}

describe('carriage returns and commands in sandbox text', () => {
  it('file names and a subject in the run report, and debug lines, stay data', async () => {
    const { common, prefix } = setup('textrun');
    const { main, post } = await runMainAndPost({
      inputs: { ...common, mode: 'run', isolation: 'container', cleanup: 'always', command: hostileNames },
      env: { RUNNER_DEBUG: '1' },
      asRunner: true,
    });
    expect(main.code).toBe(0);
    expect(post.code).toBe(0);
    expect(main.outputs['files-changed']).toBe('2');
    // the text did reach the log (fenced or escaped) ...
    expect(main.stdout).toContain('pwned by a file name');
    expect(runnerCommands(main.stdout).some((c) => c.name === 'debug')).toBe(true);
    // ... and issued nothing
    expectClean(main, 'main');
    expectClean(post, 'post');
    expect(volumesWithPrefix(prefix)).toEqual([]);
  }, 300_000);

  it("a helper's error (a sandbox's failing filter) in the main step and the post step stays data; work that cannot be brought back is kept even with cleanup: always", async () => {
    const { common, prefix } = setup('texthelper');
    const { main, post } = await runMainAndPost({
      inputs: { ...common, mode: 'run', isolation: 'container', cleanup: 'always', command: hostileFilter },
      env: { RUNNER_DEBUG: '1' },
      asRunner: true,
    });
    // the capture failed, and said why (the filter's words, escaped)
    expect(main.code).not.toBe(0);
    expect(main.stdout).toContain('pwned by a filter');
    expectClean(main, 'main');
    // the post step could not bring the work back either, so it could not save it: the volume is kept
    // (whatever the policy, nothing is lost), with a warning that says why
    expect(post.code).toBe(0);
    expect(post.stdout).toContain('pwned by a filter');
    expect(post.stdout).toMatch(
      /::warning::Kept sandbox \S+ .*could not be brought back, so it could not be saved/,
    );
    expectClean(post, 'post');
    expect(volumesWithPrefix(prefix)).toHaveLength(1);
  }, 300_000);

  it("the reaper's archiving failure (the same filter) stays data, and an innocent stale sandbox is archived and removed", async () => {
    const { common, root } = setup('textreap');
    const archive = tempDir('wts-text-archive-');
    dirs.push(archive);
    chownTree(archive, runnerIds());
    // Two transient disk sandboxes kept with their work: a hostile one (its capture fails) and an innocent one.
    const hostile = await runMainAndPost({
      inputs: { ...common, mode: 'run', isolation: 'disk', cleanup: 'never', command: hostileFilter },
      asRunner: true,
    });
    expect(hostile.main.code).not.toBe(0);
    expectClean(hostile.main, 'hostile run');
    expectClean(hostile.post, 'hostile post');
    const innocent = await runMainAndPost({
      inputs: {
        ...common,
        mode: 'run',
        isolation: 'disk',
        cleanup: 'never',
        command: 'echo work > work.txt',
      },
      asRunner: true,
    });
    expect(innocent.main.code).toBe(0);
    const hostilePath = hostile.main.outputs['worktree-path'];
    const innocentPath = innocent.main.outputs['worktree-path'];
    expect(hostilePath).toBeTruthy();
    for (const p of [hostilePath, innocentPath]) age(p, 100);

    const reap = await runStep({
      inputs: { ...common, mode: 'reap', force: 'true', 'archive-dir': archive },
      env: { RUNNER_DEBUG: '1' },
      asRunner: true,
    });
    expect(reap.code).toBe(0);
    expect(reap.stdout).toContain('archiving failed');
    expect(reap.stdout).toContain('pwned by a filter');
    expectClean(reap, 'reap');
    // nothing lost: the hostile sandbox, not archived, is kept; the innocent one archived, then removed
    expect(fs.existsSync(`${hostilePath}/work.txt`)).toBe(true);
    expect(fs.existsSync(innocentPath)).toBe(false);
    const archived = fs.readdirSync(archive, { recursive: true }).map(String);
    expect(archived.some((f) => f.endsWith('.bundle'))).toBe(true);
    void root;
  }, 300_000);
});
