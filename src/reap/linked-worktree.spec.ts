import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git as gitIn, tempDir } from '../../test/support/repo.js';
import { recordingGit } from '../../test/support/git-calls.js';
import {
  ParentFacts,
  parseGitFile,
  readGitFile,
  REGISTRATIONS_AT_ONCE,
  removeRegistrations,
  verifyRegistration,
  branchTips,
} from './linked-worktree.js';
import { removeTree } from './remove-tree.js';
import type { LinkedFacts } from './scanned-sandbox.js';

describe('parseGitFile', () => {
  it("names the parent and the registration of a worktree's .git file", () => {
    expect(parseGitFile('gitdir: /srv/repo/.git/worktrees/feature-x\n')).toEqual({
      parentPath: '/srv/repo',
      adminDir: '/srv/repo/.git/worktrees/feature-x',
      id: 'feature-x',
    });
  });

  it.each([
    ['a relative path', 'gitdir: ../repo/.git/worktrees/x\n'],
    ['a path not in normal form', 'gitdir: /srv/repo/../other/.git/worktrees/x\n'],
    ['a doubled slash', 'gitdir: /srv//repo/.git/worktrees/x\n'],
    ['a bare parent', 'gitdir: /srv/repo.git/worktrees/x\n'],
    ['a folder below the registration', 'gitdir: /srv/repo/.git/worktrees/x/y\n'],
    ['the registrations folder itself', 'gitdir: /srv/repo/.git/worktrees\n'],
    ['a second line', 'gitdir: /srv/repo/.git/worktrees/x\n/etc\n'],
    ['a carriage return', 'gitdir: /srv/repo/.git/worktrees/x\r\n'],
    ['no gitdir line', '/srv/repo/.git/worktrees/x\n'],
    ['a submodule', 'gitdir: /srv/repo/.git/modules/x\n'],
  ])('refuses %s', (_what, text) => {
    expect(parseGitFile(text)).toHaveProperty('error');
  });
});

// Registrations laid out by hand as `git worktree add` writes them (the reaper reads them as data only).
describe('removeRegistrations', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A parent's `.git` with registrations `ids`, each naming `<cache>/<id>/.git`; their facts as the scan has them. */
  function parentWith(ids: string[]): { gitDir: string; facts: Map<string, LinkedFacts> } {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-registrations-'));
    made.push(base);
    const gitDir = path.join(base, 'repo', '.git');
    const facts = new Map<string, LinkedFacts>();
    for (const id of ids) {
      const admin = path.join(gitDir, 'worktrees', id);
      fs.mkdirSync(path.join(admin, 'logs'), { recursive: true });
      const gitdirText = `${path.join(base, 'cache', id, '.git')}\n`;
      fs.writeFileSync(path.join(admin, 'gitdir'), gitdirText);
      fs.writeFileSync(path.join(admin, 'HEAD'), `${'a'.repeat(40)}\n`);
      fs.writeFileSync(path.join(admin, 'commondir'), '../..\n');
      fs.writeFileSync(path.join(admin, 'index'), 'DIRC');
      fs.writeFileSync(path.join(admin, 'logs', 'HEAD'), 'reflog\n');
      facts.set(id, { adminDir: admin, id, registered: { gitdirText } });
    }
    return { gitDir, facts };
  }

  /** Every file under `dir`, with its content: to show a registration was not touched. */
  function contents(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) {
        const file = path.join(entry.parentPath, entry.name);
        out[path.relative(dir, file)] = fs.readFileSync(file, 'utf8');
      }
    return out;
  }

  /** The real walk, a little slowed down so that walks in flight overlap; it refuses `failing`. */
  function countingRemover(failing = new Set<string>()) {
    const state = { inFlight: 0, most: 0, calls: [] as string[] };
    const remover: typeof removeTree = async (top, device) => {
      state.calls.push(top);
      state.inFlight++;
      state.most = Math.max(state.most, state.inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (failing.has(top))
          return { freedBytes: 0, problems: [{ path: path.join(top, 'index'), error: 'EPERM' }] };
        return await removeTree(top, device);
      } finally {
        state.inFlight--;
      }
    };
    return { remover, state };
  }

  it('removes a batch of registrations several at once, and only those of the batch', async () => {
    const ids = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'kept-dirty', 'kept-fresh'];
    const { gitDir, facts } = parentWith(ids);
    const keptBefore = ['kept-dirty', 'kept-fresh'].map((id) => contents(facts.get(id)!.adminDir));
    const { remover, state } = countingRemover();

    const batch = ids.slice(0, 6).map((id) => facts.get(id)!);
    const problems = await removeRegistrations(gitDir, batch, remover);

    expect(problems).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(fs.readdirSync(path.join(gitDir, 'worktrees')).sort()).toEqual(['kept-dirty', 'kept-fresh']);
    expect(['kept-dirty', 'kept-fresh'].map((id) => contents(facts.get(id)!.adminDir))).toEqual(keptBefore);
    // Several at once, never more than REGISTRATIONS_AT_ONCE.
    expect(state.most).toBeGreaterThan(1);
    expect(state.most).toBeLessThanOrEqual(REGISTRATIONS_AT_ONCE);
  });

  it('leaves only the registration that cannot be removed, says why, and removes the rest of the batch', async () => {
    const { gitDir, facts } = parentWith(['w1', 'w2', 'w3', 'w4']);
    const stuck = facts.get('w3')!.adminDir;
    const { remover } = countingRemover(new Set([stuck]));

    const problems = await removeRegistrations(gitDir, [...facts.values()], remover);

    expect(problems).toEqual([
      undefined,
      undefined,
      { path: path.join(stuck, 'index'), error: 'EPERM' },
      undefined,
    ]);
    expect(fs.readdirSync(path.join(gitDir, 'worktrees'))).toEqual(['w3']);
    expect(fs.readFileSync(path.join(stuck, 'gitdir'), 'utf8')).toBe(facts.get('w3')!.registered!.gitdirText);
  });

  it('leaves a registration that changed since the scan, one that is a link, and one never verified', async () => {
    const { gitDir, facts } = parentWith(['changed', 'link', 'unverified', 'plain']);
    const changed = facts.get('changed')!;
    fs.writeFileSync(path.join(changed.adminDir, 'gitdir'), '/elsewhere/other-worktree/.git\n');
    // A registration swapped for a link to a folder elsewhere: the link may go, never what it points at.
    const link = facts.get('link')!;
    const target = path.join(path.dirname(gitDir), 'precious');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'gitdir'), link.registered!.gitdirText);
    fs.rmSync(link.adminDir, { recursive: true });
    fs.symlinkSync(target, link.adminDir);
    const unverified = { ...facts.get('unverified')!, registered: undefined };
    const { remover } = countingRemover();

    const problems = await removeRegistrations(
      gitDir,
      [changed, link, unverified, facts.get('plain')!],
      remover,
    );

    expect(problems.map((p) => p?.error)).toEqual([
      'it changed since the scan',
      'it is not a folder (a symbolic link is never followed)',
      'not a verified registration',
      undefined,
    ]);
    expect(fs.readdirSync(path.join(gitDir, 'worktrees')).sort()).toEqual(['changed', 'link', 'unverified']);
    expect(fs.readFileSync(path.join(target, 'gitdir'), 'utf8')).toBe(link.registered!.gitdirText);
    expect(fs.readFileSync(path.join(changed.adminDir, 'gitdir'), 'utf8')).toBe(
      '/elsewhere/other-worktree/.git\n',
    );
  });

  it('walks a registration named twice once, and removes .git/worktrees with the last registration, as git does', async () => {
    const { gitDir, facts } = parentWith(['w1', 'w2']);
    const { remover, state } = countingRemover();

    const problems = await removeRegistrations(
      gitDir,
      [facts.get('w1')!, facts.get('w2')!, facts.get('w1')!],
      remover,
    );

    expect(problems).toEqual([undefined, undefined, undefined]);
    expect(state.calls.filter((top) => top === facts.get('w1')!.adminDir)).toHaveLength(1);
    expect(fs.existsSync(path.join(gitDir, 'worktrees'))).toBe(false);
    expect(fs.existsSync(gitDir)).toBe(true);
  });
});

// Laid out by hand as `git worktree add` writes them; each case as the scan hands it over (a real path).
describe('verifyRegistration', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A parent with one registration `wt`, and its worktree `<base>/cache/wt` whose `.git` names it. */
  function layout() {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wts-verify-')));
    made.push(base);
    const parent = path.join(base, 'parent');
    const admin = path.join(parent, '.git', 'worktrees', 'wt');
    const worktree = path.join(base, 'cache', 'wt');
    fs.mkdirSync(admin, { recursive: true });
    fs.mkdirSync(worktree, { recursive: true });
    fs.writeFileSync(path.join(admin, 'gitdir'), `${path.join(worktree, '.git')}\n`);
    fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${admin}\n`);
    const target = () => {
      const read = readGitFile(worktree);
      if ('error' in read) throw new Error(read.error);
      return read;
    };
    return { base, parent, admin, worktree, target };
  }

  it('registered: the registration names the worktree back, through a link or not', () => {
    const { base, admin, worktree, target } = layout();
    const facts = new ParentFacts();
    expect(verifyRegistration(worktree, target(), facts)).toMatchObject({ state: 'registered' });
    fs.symlinkSync(path.join(base, 'cache'), path.join(base, 'cache-link'));
    fs.writeFileSync(path.join(admin, 'gitdir'), `${path.join(base, 'cache-link', 'wt', '.git')}\n`);
    expect(verifyRegistration(worktree, target(), facts)).toMatchObject({ state: 'registered' });
  });

  it('registered when the .git file reaches the parent through a link (its real .git compared)', () => {
    const { base, parent, worktree } = layout();
    const linked = path.join(base, 'parent-link');
    fs.symlinkSync(parent, linked);
    fs.writeFileSync(
      path.join(worktree, '.git'),
      `gitdir: ${path.join(linked, '.git', 'worktrees', 'wt')}\n`,
    );
    const target = readGitFile(worktree);
    if ('error' in target) throw new Error(target.error);
    expect(verifyRegistration(worktree, target, new ParentFacts())).toMatchObject({ state: 'registered' });
  });

  it('foreign: a registration that is a link, a worktrees folder that is a link, one naming another worktree', () => {
    const swapped = layout();
    const elsewhere = path.join(swapped.base, 'elsewhere');
    fs.renameSync(swapped.admin, elsewhere);
    fs.symlinkSync(elsewhere, swapped.admin);
    expect(verifyRegistration(swapped.worktree, swapped.target(), new ParentFacts())).toMatchObject({
      state: 'foreign',
      why: 'its registration wt is not a folder',
    });

    const moved = layout();
    const list = path.dirname(moved.admin);
    const away = path.join(moved.base, 'worktrees-away');
    fs.renameSync(list, away);
    fs.symlinkSync(away, list);
    expect(verifyRegistration(moved.worktree, moved.target(), new ParentFacts())).toMatchObject({
      state: 'foreign',
    });

    const other = layout();
    fs.writeFileSync(
      path.join(other.admin, 'gitdir'),
      `${path.join(other.base, 'cache', 'other', '.git')}\n`,
    );
    expect(verifyRegistration(other.worktree, other.target(), new ParentFacts())).toMatchObject({
      state: 'foreign',
      why: expect.stringContaining('belongs to another worktree'),
    });
  });
});

describe('branchTips', () => {
  it("reads the parent's branches as data, and asks git only for what that cannot say", async () => {
    const dir = tempDir('wts-branch-tips-');
    try {
      const git = (...args: string[]) => gitIn(dir, ...args);
      git('init', '--quiet', '--initial-branch=main');
      git('commit', '--quiet', '--allow-empty', '-m', 'one');
      const main = git('rev-parse', 'HEAD');
      git('symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
      const { git: cli, ran: asked } = await recordingGit();
      const parent = { path: dir, gitDir: path.join(dir, '.git'), objectStores: [] };

      expect(await branchTips(cli, parent, ['refs/heads/main'])).toEqual(
        new Map([['refs/heads/main', main]]),
      );
      expect(asked).toEqual([]);
      // A symbolic ref is git's to resolve; a branch the parent lacks is left out.
      const tips = await branchTips(cli, parent, ['refs/heads/main', 'refs/heads/alias', 'refs/heads/gone']);
      expect(tips).toEqual(
        new Map([
          ['refs/heads/main', main],
          ['refs/heads/alias', main],
        ]),
      );
      expect(asked.map((args) => args.slice(-2))).toEqual([['refs/heads/alias', 'refs/heads/gone']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
