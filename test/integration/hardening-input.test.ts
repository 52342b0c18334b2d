// Hostile inputs through the bundle as the runner runs it (as the unprivileged runner user): each ends with
// a clear error naming the input, and nothing is created, changed or executed (no volume with the test's
// prefix, no worktree entry, no branch or tag, nothing under the worktree root, no marker file, the
// command never ran); or, for text that is only data, it is carried verbatim and nothing is executed.
// One value of each kind runs here, with every value that tries to run or smuggle something; the other
// values of each rule are proved in src/settings/input-errors.spec.ts, without the bundle.
import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runStep, type StepOptions } from '../support/action.js';
import { removeVolumes, uniquePrefix, volumesWithPrefix } from '../support/docker.js';
import { runnerIds, TEST_IMAGE } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';

// Real Docker runs: the integration project's timeout, whichever way jest is started.
jest.setTimeout(180_000);

const rgit = (cwd: string, ...args: string[]) => git(cwd, '-c', 'safe.directory=*', ...args);
/** The command prints RAN-42 when it runs: the text `RAN-$((6*7))` itself never matches. */
const COMMAND = 'echo RAN-$((6*7))';

let repo: TestRepo;
let root: string;
let markers: string;
let prefix: string;
let link: string;

beforeAll(() => {
  const owner = runnerIds();
  repo = makeRepo({ owner });
  root = tempDir('wts-root-');
  chownTree(root, owner);
  markers = tempDir('wts-markers-');
  fs.chmodSync(markers, 0o777);
  prefix = uniquePrefix('input');
  link = path.join(repo.root, 'link-to-parent');
  fs.symlinkSync(repo.parent, link);
});

afterAll(() => {
  removeVolumes(prefix);
  for (const dir of [repo?.root, root, markers].filter(Boolean))
    fs.rmSync(dir, { recursive: true, force: true });
});

function world() {
  const list = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const p = path.join(dir, e.name);
          return e.isDirectory() ? [p, ...list(p)] : [p];
        })
      : [];
  return {
    volumes: volumesWithPrefix(prefix),
    worktrees: rgit(repo.parent, 'worktree', 'list', '--porcelain'),
    refs: rgit(repo.parent, 'for-each-ref', '--format=%(refname) %(objectname)'),
    underRoot: list(root),
    markers: fs.readdirSync(markers),
    parentFiles: fs.readdirSync(repo.parent).sort(),
  };
}

const M = () => markers;
interface Case {
  input: string;
  value: string | (() => string);
  /** The input named in the error (default: `input`). */
  named?: string;
  extra?: Record<string, string>;
  printf?: boolean;
  /** Reaches git in the parent, which the runner owns (the other cases alternate root and the runner). */
  asRunner?: true;
}

const cases: Case[] = [
  // Branch names.
  { input: 'branch', value: '-x' },
  { input: 'branch', value: () => `--upload-pack=touch ${M()}/upload-pack` },
  { input: 'branch', value: 'a..b' },
  { input: 'branch', value: 'a\nb' },
  { input: 'branch', value: 'bad\\377\\376name', printf: true },
  { input: 'branch', value: () => `x$(touch ${M()}/branch-subst)` },
  // Start points.
  { input: 'base', value: () => `--upload-pack=touch ${M()}/base` },
  { input: 'base', value: 'no-such-revision', asRunner: true },
  { input: 'base', value: 'main\n--exec=x' },
  // Paths.
  { input: 'repository-path', value: () => `${repo.root}/../../../etc` },
  { input: 'repository-path', value: () => `${repo.parent}\nx` },
  { input: 'repository-path', value: () => path.join(repo.root, 'no such folder') },
  { input: 'worktree-root', value: () => `${root}/a\nb`, extra: { isolation: 'disk' } },
  { input: 'worktree-root', value: () => `${root}/tab\there`, extra: { isolation: 'disk' } },
  // Volume prefixes that would change the meaning of an argument, or run something.
  { input: 'volume-prefix', value: '-x' },
  { input: 'volume-prefix', value: () => `x;touch ${M()}/prefix` },
  // Numbers (and a size that carries an engine option).
  { input: 'timeout-minutes', value: '-1' },
  { input: 'memory', value: '2g --privileged' },
  // Enumerations.
  { input: 'mode', value: 'delete' },
  { input: 'network', value: 'host' },
  { input: 'network', value: 'container:other' },
  { input: 'push', value: 'true; rm -rf /' },
  // Environment lines that try to smuggle another variable or an engine option.
  { input: 'env', value: 'A=1\nB C=2' },
  { input: 'env', value: '-e FOO=1' },
  { input: 'env', value: '--privileged' },
  { input: 'env', value: 'SANDBOX_PARENT=/' },
  // Images that would be read as options or several words.
  { input: 'image', value: '--privileged' },
  { input: 'image', value: () => `x;touch ${M()}/image` },
  // The command itself is required.
  { input: 'command', value: '   ' },
];

describe('hostile inputs end in a clear error, nothing created, changed or executed', () => {
  test.each(cases.map((c, i) => [i, c.input, c] as const))('#%i %s', async (i, _input, c) => {
    const value = typeof c.value === 'function' ? c.value() : c.value;
    const before = world();
    const inputs: Record<string, string> = {
      command: COMMAND,
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'worktree-root': root,
      'volume-prefix': prefix,
      branch: 'hostile-input',
      ...c.extra,
    };
    const options: StepOptions = { asRunner: c.asRunner ?? i % 2 === 0, inputs };
    if (c.printf) options.printfEnv = { [`INPUT_${c.input.toUpperCase()}`]: value };
    else inputs[c.input] = value;
    const step = await runStep(options);

    expect(step.code).toBe(1);
    const errors = step.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(c.named ?? c.input);
    expect(step.stdout).not.toContain('RAN-42');
    expect(world()).toEqual(before);
  });
});

test('text that is only data is carried verbatim and never executed', async () => {
  const before = world();
  const branch = `data;touch\${IFS}${markers}/branch;\`id\``;
  const injected = `$(touch ${markers}/env) -e X=1 --privileged \`touch ${markers}/env2\``;
  const message = `fix: $(touch ${markers}/message) \`touch ${markers}/message2\` "quoted" 'single'`;
  const spacedRoot = path.join(root, 'with space', '..', 'with space');
  const step = await runStep({
    asRunner: true,
    inputs: {
      command: 'printf "inject=%s\\n" "$INJECT"; echo RAN-$((6*7)); echo data > data.txt',
      image: TEST_IMAGE,
      isolation: 'disk',
      branch,
      env: `INJECT=${injected}`,
      'repository-path': link,
      'worktree-root': spacedRoot,
      'commit-message': message,
      push: 'true',
      'volume-prefix': prefix,
    },
  });
  expect(step.code).toBe(0);
  expect(step.stdout).toContain('RAN-42');
  expect(step.stdout).toContain(`inject=${injected}`);
  expect(step.outputs.branch).toBe(branch);
  expect(step.outputs.pushed).toBe('true');
  expect(rgit(repo.origin, 'log', '-1', '--format=%B', branch)).toBe(message);
  expect(rgit(repo.parent, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`)).toMatch(
    /^[0-9a-f]{40}$/,
  );
  // The sandbox lives under the real, normalized root (the folder with a space in its name).
  expect(step.outputs['worktree-path'].startsWith(path.join(root, 'with space') + path.sep)).toBe(true);
  expect(fs.existsSync(path.join(step.outputs['worktree-path'], 'data.txt'))).toBe(true);
  expect(fs.readdirSync(markers)).toEqual([]);
  expect(world().volumes).toEqual(before.volumes);
});
