import { describe, expect, it } from '@jest/globals';
import {
  defaultWorktreeRoot,
  InputError,
  parseSettings,
  validateBranchNames,
  type RunSettings,
} from './settings.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';
const run = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  parseSettings(reader({ command: 'true', ...inputs }), { HOME: '/home/u', ...env }) as RunSettings;

describe('parseSettings: run mode', () => {
  it('applies the defaults of action.yml when inputs are empty', () => {
    const s = run({}, { GITHUB_WORKSPACE: '/ws' });
    expect(s).toMatchObject({
      mode: 'run',
      isolation: 'container',
      cleanup: 'auto',
      branch: '',
      image: 'buildpack-deps:bookworm-scm',
      volumePrefix: 'worktree-sandbox',
      repositoryPath: '/ws',
      worktreeRoot: '/home/u/.cache/worktree-sandbox/worktrees',
      timeoutMinutes: 0,
      allowFailure: false,
      push: false,
    });
    expect(s.limits).toEqual({
      pidsLimit: 4096,
      network: 'bridge',
      readOnlyRootfs: false,
      memory: undefined,
      cpus: undefined,
    });
  });

  it('uses XDG_CACHE_HOME for the default worktree root', () => {
    expect(run({}, { XDG_CACHE_HOME: '/xdg' }).worktreeRoot).toBe('/xdg/worktree-sandbox/worktrees');
  });

  it('requires a command in run mode', () => {
    expect(() => parseSettings(reader({}), {})).toThrow(/Invalid input 'command'/);
  });

  it.each([
    ['mode', 'fix', /Invalid input 'mode'.*run, reap/],
    ['isolation', 'vm', /Invalid input 'isolation'.*container, disk/],
    ['cleanup', 'sometimes', /Invalid input 'cleanup'.*auto, always, never/],
    ['secret-scan', 'strict', /Invalid input 'secret-scan'.*block, warn, off/],
    ['allow-failure', 'yes', /Invalid input 'allow-failure'.*true or false/],
    ['timeout-minutes', '-1', /Invalid input 'timeout-minutes'/],
    ['timeout-minutes', '1e3', /Invalid input 'timeout-minutes'/],
    ['pids-limit', '1.5', /Invalid input 'pids-limit'.*whole number/],
    ['volume-prefix', 'bad/prefix', /Invalid input 'volume-prefix'/],
    ['volume-prefix', '-x', /Invalid input 'volume-prefix'/],
    ['branch', '-x', /Invalid input 'branch'/],
    ['branch', 'a\nb', /Invalid input 'branch'/],
    ['base', '--upload-pack=x', /Invalid input 'base'/],
    ['worktree-root', '/tmp/a\nb', /Invalid input 'worktree-root'/],
    ['image', 'img --privileged', /Invalid input 'image'/],
    ['memory', 'lots', /Invalid input 'memory'/],
    ['network', 'host', /Invalid input 'network'.*bridge, none/],
    ['network', '*', /Invalid input 'network'.*bare/],
  ])('rejects %s=%j naming the input and what it accepts', (input, value, message) => {
    expect(() => run({ [input]: value })).toThrow(InputError);
    expect(() => run({ [input]: value })).toThrow(message);
  });

  it('reads secret-scan, block by default', () => {
    expect(run({}).secretScan).toBe('block');
    expect(run({ 'secret-scan': 'WARN' }).secretScan).toBe('warn');
    expect(run({ 'secret-scan': 'off' }).secretScan).toBe('off');
  });

  it('accepts booleans in the forms the runner passes', () => {
    expect(run({ push: 'TRUE', 'allow-failure': 'False' })).toMatchObject({
      push: true,
      allowFailure: false,
    });
  });

  it('accepts a fractional timeout in minutes', () => {
    expect(run({ 'timeout-minutes': '0.5' }).timeoutMinutes).toBe(0.5);
  });

  it('reads env lines as NAME or NAME=value, values verbatim', () => {
    const s = run({ env: 'A=1\nB\n# comment\n\nC=x=y $(id) `id` -e D=2' }, { B: 'from-runner' });
    expect(s.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'from-runner' },
      { name: 'C', value: 'x=y $(id) `id` -e D=2' },
    ]);
  });

  it.each(['-e X=1', 'A B=1', '1A=2', 'SANDBOX_NAME=x', 'A=1\nA=2'])('rejects the env line %j', (line) => {
    expect(() => run({ env: line })).toThrow(/Invalid input 'env'/);
  });

  it('strips refs/heads/ from a branch', () => {
    expect(run({ branch: 'refs/heads/feat/x' }).branch).toBe('feat/x');
  });
});

describe('parseSettings: reap mode', () => {
  it('has the retention matrix defaults', () => {
    expect(parseSettings(reader({ mode: 'reap' }), {})).toMatchObject({
      mode: 'reap',
      headlessExpiryDays: 30,
      branchExpiryDays: 90,
      orphanExpiryDays: 90,
      dryRun: false,
      maxRemovals: 0,
    });
  });

  it.each(['0', '-3', '1.5', 'ten'])('rejects expiry days %j', (value) => {
    expect(() => parseSettings(reader({ mode: 'reap', 'headless-expiry-days': value }), {})).toThrow(
      /Invalid input 'headless-expiry-days'.*whole number ≥ 1/,
    );
  });

  it('never lets orphans expire sooner than persistent sandboxes', () => {
    expect(() => parseSettings(reader({ mode: 'reap', 'orphan-expiry-days': '10' }), {})).toThrow(
      /orphan-expiry-days/,
    );
  });
});

describe('validateBranchNames', () => {
  it('applies git rules through the given checker', async () => {
    const s = run({ branch: 'a..b' });
    await expect(validateBranchNames(s, async () => false)).rejects.toThrow(
      /Invalid input 'branch'.*check-ref-format/,
    );
    await expect(validateBranchNames(s, async () => true)).resolves.toBeUndefined();
  });
});

describe('parseSettings: pull-request bot inputs', () => {
  it('defaults to no trigger, the trusted associations, no bots and no pull request number', () => {
    expect(run({}).trigger).toEqual({
      command: '',
      allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
      allowedBots: [],
      prNumber: 0,
      pullRequestBot: false,
      labelTrigger: '',
      assigneeTrigger: '',
      issueBranchPrefix: 'worktree-sandbox/issue-',
    });
  });

  it('reads the trigger word, the lists and pr-number', () => {
    const s = run({
      trigger: ' /fix ',
      'allowed-associations': 'owner, contributor',
      'allowed-bots': 'dependabot renovate[bot]',
      'pr-number': '42',
      'pull-request-bot': 'true',
      'label-trigger': ' fix-me ',
      'assignee-trigger': 'fix-bot[bot]',
      'issue-branch-prefix': 'bot/issue-',
    });
    expect(s.trigger).toEqual({
      command: '/fix',
      allowedAssociations: ['OWNER', 'CONTRIBUTOR'],
      allowedBots: ['dependabot', 'renovate[bot]'],
      prNumber: 42,
      pullRequestBot: true,
      labelTrigger: 'fix-me',
      assigneeTrigger: 'fix-bot[bot]',
      issueBranchPrefix: 'bot/issue-',
    });
  });

  it.each([
    ['trigger', '/fix this'],
    ['trigger', '$(id)'],
    ['allowed-associations', 'OWNER,ADMIN'],
    ['pr-number', '0'],
    ['label-trigger', 'a'.repeat(51)],
    ['label-trigger', 'fix\nme'],
    ['assignee-trigger', 'two words'],
    ['assignee-trigger', '$(id)'],
    ['issue-branch-prefix', 'has space/'],
    ['issue-branch-prefix', 'a..b/'],
    ['issue-branch-prefix', '-x/'],
    ['issue-branch-prefix', 'x~1/'],
    ['pr-number', '#7'],
    ['pr-number', '7.5'],
    ['pull-request-bot', 'yes'],
  ])('rejects %s %j', (input, value) => {
    expect(() => run({ [input]: value })).toThrow(InputError);
    expect(() => run({ [input]: value })).toThrow(`Invalid input '${input}'`);
  });
});

describe('parseSettings: commit identity', () => {
  it('defaults author and committer to the Actions bot of github.com', () => {
    const bot = {
      name: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com',
    };
    expect(run({})).toMatchObject({ author: bot, committer: bot });
  });

  it('derives the default e-mail from GITHUB_SERVER_URL on GitHub Enterprise Server', () => {
    const s = run({}, { GITHUB_SERVER_URL: 'https://ghes.example.com' });
    expect(s.committer).toEqual({
      name: 'github-actions[bot]',
      email: 'github-actions[bot]@users.noreply.ghes.example.com',
    });
  });

  it('reads Name <email> for each', () => {
    const s = run({ author: 'Ada Lovelace <ada@example.com>', committer: 'Fix Bot <fix@example.com>' });
    expect(s.author).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(s.committer).toEqual({ name: 'Fix Bot', email: 'fix@example.com' });
  });

  it.each([
    ['author', 'ada@example.com'],
    ['author', 'Ada <ada>'],
    ['committer', 'Fix Bot <fix@example.com>\nX <y@z>'],
  ])('rejects %s=%j naming the input', (input, value) => {
    expect(() => run({ [input]: value })).toThrow(new RegExp(`Invalid input '${input}'.*Name <email>`));
  });
});

describe('parseSettings: opening a pull request', () => {
  it('is off by default, with the defaults of action.yml', () => {
    expect(run({}).pullRequest).toEqual({
      open: false,
      title: 'Changes made in worktree-sandbox',
      body: 'Automated changes made by worktree-sandbox.',
      draft: false,
      labels: [],
    });
  });

  it('reads title, body, draft and labels (commas or newlines, each once)', () => {
    const s = run({
      push: 'true',
      'pull-request': 'true',
      'pull-request-title': ' fix: the typo ',
      'pull-request-body': 'Made by **the bot**.\n\nSee the run.',
      'pull-request-draft': 'true',
      'pull-request-labels': 'bot, good first issue\nbot\n',
    });
    expect(s.pullRequest).toEqual({
      open: true,
      title: 'fix: the typo',
      body: 'Made by **the bot**.\n\nSee the run.',
      draft: true,
      labels: ['bot', 'good first issue'],
    });
  });

  it.each([
    [{ 'pull-request': 'true' }, /Invalid input 'pull-request'.*push: true/],
    [{ 'pull-request': 'maybe', push: 'true' }, /Invalid input 'pull-request'.*true or false/],
    [{ 'pull-request-title': 'two\nlines' }, /Invalid input 'pull-request-title'/],
    [{ 'pull-request-title': 'x'.repeat(257) }, /Invalid input 'pull-request-title'/],
    [{ 'pull-request-draft': 'yes' }, /Invalid input 'pull-request-draft'/],
    [{ 'pull-request-labels': 'x'.repeat(51) }, /Invalid input 'pull-request-labels'/],
  ])('rejects %j', (inputs, message) => {
    expect(() => run(inputs)).toThrow(message);
  });
});

describe('defaultWorktreeRoot', () => {
  const env = { HOME: '/home/runner', RUNNER_TEMP: '/home/runner/_work/_temp' };

  it('is the cache folder on a plain host', () => {
    expect(defaultWorktreeRoot(env, false)).toBe('/home/runner/.cache/worktree-sandbox/worktrees');
    expect(defaultWorktreeRoot({ ...env, XDG_CACHE_HOME: '/c' }, false)).toBe(
      '/c/worktree-sandbox/worktrees',
    );
  });

  it('is beside the workspaces in the runner’s work folder when the action runs in a container', () => {
    expect(defaultWorktreeRoot(env, true)).toBe('/home/runner/_work/_worktree-sandbox/worktrees');
    expect(defaultWorktreeRoot({ HOME: '/github/home', RUNNER_TEMP: '/__w/_temp' }, true)).toBe(
      '/__w/_worktree-sandbox/worktrees',
    );
    // Not on a runner (the CLI in a container): the cache folder still.
    expect(defaultWorktreeRoot({ HOME: '/root' }, true)).toBe('/root/.cache/worktree-sandbox/worktrees');
  });
});
