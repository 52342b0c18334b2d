// `list`, `rm` and `reap` of the real `worktree-sandbox` binary on real sandboxes made by run mode's
// own code (disk and volume); one clean, one holding work, one in use
// through a held lock, one through a running container, one orphan whose parent was deleted. Podman
// volumes get the same list/reap where Podman is on the machine.
import { runCli } from '../support/cli.js';
import { nodeRuntimes } from '../support/runtimes.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lockSandbox } from '../../src/sandbox/lock.js';
import { engineCli, removeVolumes, uniquePrefix, volumesWithPrefix, type Engine } from '../support/docker.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE } from '../support/env.js';
import { git, makeRepo, tempDir, type TestRepo } from '../support/repo.js';
import { inVolumeSandbox, makeDiskSandbox, makeVolumeSandbox, projectDir } from '../support/sandboxes.js';

/** Names of the sandboxes a parent keeps records of. */
const recorded = (parent: string) =>
  git(parent, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')
    .split('\n')
    .filter((r) => r.endsWith('/head'))
    .map((r) => r.split('/')[3]);

const ENGINES = availableEngines();
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const clean of cleanups.reverse()) {
    try {
      clean();
    } catch {
      /* best effort: the next one still runs */
    }
  }
});

/**
 * The real binary, on the Node under test (20 and 24: `node` is set per runtime below). Asynchronous: a
 * test that holds a sandbox lock keeps it fresh from this event loop, which a synchronous spawn blocks.
 */
let node = process.execPath;
const cli = (args: string[], options: { cwd?: string } = {}) => runCli(node, args, options);

function newRepo(): TestRepo {
  const repo = makeRepo();
  cleanups.push(() => fs.rmSync(repo.root, { recursive: true, force: true }));
  return repo;
}

function newDir(prefix: string): string {
  const dir = tempDir(prefix);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function newPrefix(engine: Engine): string {
  const prefix = uniquePrefix('clils');
  cleanups.push(() => removeVolumes(prefix, engine));
  return prefix;
}

/** A detached container that mounts the volume, removed at the end. */
function startUser(engine: Engine, prefix: string, volume: string): string {
  const name = `${prefix}-user`;
  engineCli(
    engine,
    'run',
    '-d',
    '--name',
    name,
    '--mount',
    `type=volume,source=${volume},target=/w`,
    TEST_IMAGE,
    'sleep',
    '600',
  );
  // kill first: `podman rm --force` would wait 10 s for sleep to ignore SIGTERM
  cleanups.push(() => {
    engineCli(engine, 'kill', name);
    engineCli(engine, 'rm', '--force', name);
  });
  return name;
}

interface Listed {
  project: string;
  sandbox: string;
  isolation: string;
  where: string;
  class: string;
  branch: string | null;
  ageDays: number | null;
  sizeBytes: number | null;
  state: string;
  stateDetail: string | null;
  removal: { when: string; after: string | null; reason: string };
}

interface Reaped {
  result: string;
  sandbox: string;
  where: string;
  reason: string;
  archived: string[];
}

const byName = <T extends { sandbox: string }>(list: T[]) =>
  Object.fromEntries(list.map((e) => [e.sandbox, e]));

describe.each(nodeRuntimes())(
  '$name: worktree-sandbox list, rm and reap on real sandboxes (docker)',
  ({ execPath }) => {
    beforeAll(() => {
      node = execPath;
    });
    afterAll(() => {
      node = process.execPath;
    });

    it('lists every state, refuses and forces rm, reaps in a dry run then for real', async () => {
      const repo = newRepo();
      const other = newRepo();
      const gone = newRepo();
      const root = newDir('wts-cli-root-');
      const archive = newDir('wts-cli-archive-');
      const prefix = newPrefix('docker');
      const project = path.basename(projectDir(root, repo.parent));
      const otherProject = path.basename(projectDir(root, other.parent));
      const gitDir = path.join(fs.realpathSync(repo.parent), '.git');

      const stale = await makeDiskSandbox(repo, root, 'exploration-0000c001', { ageDays: 40 });
      const fresh = await makeDiskSandbox(repo, root, 'exploration-0000c002', { ageDays: 5 });
      const twin = await makeDiskSandbox(other, root, 'exploration-0000c002', { ageDays: 5 });
      const work = await makeDiskSandbox(repo, root, 'feature-work', { branch: 'feature/work' });
      fs.appendFileSync(path.join(work, 'README.md'), 'unsaved edit\n');
      const locked = await makeDiskSandbox(repo, root, 'exploration-0000b001', { ageDays: 40 });
      const orphan = await makeDiskSandbox(gone, root, 'feature-orphan', {
        branch: 'feature/orphan',
        ageDays: 100,
      });
      fs.rmSync(gone.root, { recursive: true, force: true });
      const busy = await makeVolumeSandbox(repo, prefix, {
        transientName: 'exploration-0000v001',
        ageDays: 40,
      });
      const idle = await makeVolumeSandbox(repo, prefix, {
        transientName: 'exploration-0000v002',
        ageDays: 40,
      });
      const container = startUser('docker', prefix, busy.volume);
      const release = await lockSandbox(gitDir, 'exploration-0000b001', 1000);
      cleanups.push(() => void release().catch(() => undefined));
      const where = ['--worktree-root', root, '--volume-prefix', prefix, '--image', TEST_IMAGE];

      // ---- list --json: the reaper's view, every state ----
      const listed = await cli(['list', '--json', ...where]);
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      const all = JSON.parse(listed.stdout) as Listed[];
      const mine = byName(all.filter((e) => e.project === project));
      expect(mine['exploration-0000c001']).toMatchObject({
        isolation: 'disk',
        where: stale,
        class: 'transient',
        branch: null,
        ageDays: 40,
        state: 'clean',
        removal: { when: 'next reap', reason: 'stale and holds no work' },
      });
      expect(mine['exploration-0000c001'].sizeBytes).toBeGreaterThan(0);
      expect(mine['exploration-0000c002']).toMatchObject({
        where: fresh,
        state: 'clean',
        removal: { when: 'after' },
      });
      const after = Date.parse(mine['exploration-0000c002'].removal.after!);
      expect(Math.abs(after - (Date.now() + 25 * 86_400_000))).toBeLessThan(3_600_000);
      expect(mine['feature-work']).toMatchObject({
        class: 'persistent',
        branch: 'feature/work',
        state: 'holds work',
        stateDetail: '1 uncommitted file(s)',
        removal: { when: 'kept', reason: 'holds work: 1 uncommitted file(s)' },
      });
      expect(mine['exploration-0000b001']).toMatchObject({
        state: 'in use',
        stateDetail: 'a run holds its lock',
        removal: { when: 'kept' },
      });
      expect(mine['exploration-0000v001']).toMatchObject({
        isolation: 'container',
        where: busy.volume,
        state: 'in use',
        stateDetail: `running container ${container} mounts it`,
      });
      expect(mine['exploration-0000v002']).toMatchObject({
        where: idle.volume,
        state: 'clean',
        removal: { when: 'next reap' },
      });
      expect(mine['exploration-0000v002'].sizeBytes).toBeGreaterThan(0);
      const orphaned = all.find((e) => e.sandbox === 'feature-orphan')!;
      expect(orphaned).toMatchObject({
        where: orphan,
        class: 'orphan',
        state: 'orphan',
        removal: { when: 'next reap' },
      });
      expect(orphaned.stateDetail).toContain('is gone');
      expect(all.filter((e) => e.project === otherProject).map((e) => e.where)).toEqual([twin]);

      // ---- list as text: one row per sandbox, aligned ----
      const text = await cli(['list', ...where]);
      expect(text.code).toBe(0);
      const lines = text.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(
        /^PROJECT +SANDBOX +ISOLATION +CLASS +BRANCH +AGE +SIZE +STATE +REMOVAL +DETAIL$/,
      );
      expect(lines).toHaveLength(all.length + 1);
      const row = (name: string, proj = project) =>
        lines.find((l) => l.startsWith(`${proj} `) && l.includes(` ${name} `))!;
      expect(row('feature-work')).toMatch(
        / disk +persistent +feature\/work +\d+ d .* holds work +kept \(holds work\) +holds work: 1 uncommitted file\(s\)$/,
      );
      expect(row('exploration-0000v001')).toMatch(
        / volume +transient .* in use +kept \(in use\) +in use: running container/,
      );
      expect(row('exploration-0000c002')).toMatch(
        / clean +after \d{4}-\d\d-\d\d \(25 d\) +fresh: 5 of 30 days/,
      );
      expect(text.stderr).toBe('');

      // ---- rm: the gates ----
      const refused = await cli(['rm', 'feature-work', ...where]);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toBe(
        `worktree-sandbox: kept ${project}/feature-work (${work}): holds work: 1 uncommitted file(s) (--force removes it all the same, the work saved first under --archive-dir)\n`,
      );
      expect(fs.existsSync(work)).toBe(true);
      for (const force of [[], ['--force']]) {
        const inUse = await cli(['rm', 'exploration-0000b001', ...force, ...where]);
        expect(inUse.code).toBe(4);
        expect(inUse.stderr).toContain('in use: a run holds its lock');
      }
      const volumeInUse = await cli(['rm', busy.volume, '--force', '--json', ...where]);
      expect(volumeInUse.code).toBe(4);
      expect(JSON.parse(volumeInUse.stdout)).toMatchObject({ status: 'kept', where: busy.volume });
      expect(fs.existsSync(locked)).toBe(true);
      expect(volumesWithPrefix(prefix)).toContain(busy.volume);

      // Run from inside the sandbox: removing it would pull the floor from under the caller.
      const fromInside = await cli(['rm', 'exploration-0000c001', ...where], {
        cwd: path.join(stale, 'src'),
      });
      expect(fromInside.code).toBe(4);
      expect(fromInside.stderr).toMatch(/: in use: process \d+ has its working directory in it\n$/);
      expect(fs.existsSync(stale)).toBe(true);

      const ambiguous = await cli(['rm', 'exploration-0000c002', ...where]);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toContain('is ambiguous');
      expect(ambiguous.stderr).toContain('--project');
      expect(ambiguous.stderr.trim().split('\n')).toHaveLength(1);
      const unknown = await cli(['rm', 'no-such-sandbox', ...where]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^worktree-sandbox: no sandbox named "no-such-sandbox"/);

      const one = await cli(['rm', 'exploration-0000c002', '--project', otherProject, ...where]);
      expect(one.stderr).toBe('');
      expect(one.code).toBe(0);
      expect(one.stdout).toMatch(
        new RegExp(`^Removed ${otherProject}/exploration-0000c002 \\(.*\\): holds no work; .* freed\\.\\n$`),
      );
      expect(fs.existsSync(twin)).toBe(false);
      expect(fs.existsSync(fresh)).toBe(true);
      expect(recorded(other.parent)).toEqual([]);

      // --force: the work saved first (default folder in the temp dir, named in the output), then removed.
      const forced = await cli(['rm', 'feature-work', '--force', ...where]);
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      const saved = /^Saved first: (.+)$/m.exec(forced.stdout)![1].split(', ');
      const defaultDir = path.join(os.tmpdir(), `worktree-sandbox-archive-${process.getuid!()}`);
      cleanups.push(() => fs.rmSync(path.join(defaultDir, project), { recursive: true, force: true }));
      expect(saved).toHaveLength(1);
      expect(path.dirname(saved[0])).toBe(path.join(defaultDir, project));
      expect(saved[0]).toMatch(/\.bundle$/);
      git(repo.parent, 'fetch', '--quiet', saved[0], 'refs/worktree-sandbox/snapshot');
      expect(git(repo.parent, 'show', 'FETCH_HEAD:README.md')).toContain('unsaved edit');
      expect(fs.existsSync(work)).toBe(false);
      expect(recorded(repo.parent)).not.toContain('feature-work');

      // ---- reap: a dry run removes nothing; the real run removes exactly what it said ----
      const dry = await cli(['reap', '--dry-run', '--json', ...where]);
      expect(dry.code).toBe(0);
      const plan = JSON.parse(dry.stdout) as { dryRun: boolean; sandboxes: Reaped[] };
      expect(plan.dryRun).toBe(true);
      const wouldRemove = plan.sandboxes.filter((s) => s.result === 'would remove').map((s) => s.where);
      expect(wouldRemove.sort()).toEqual([stale, orphan, idle.volume].sort());
      expect(fs.existsSync(stale) && fs.existsSync(orphan)).toBe(true);
      expect(volumesWithPrefix(prefix)).toContain(idle.volume);

      const real = await cli(['reap', '--archive-dir', archive, ...where]);
      expect(real.code).toBe(0);
      const [headline, , header] = real.stdout.split('\n');
      expect(headline).toMatch(/^Reap: \d+ found, 5 stale, 3 removed, \d+ kept; .* freed\.$/);
      expect(header).toMatch(/^RESULT +PROJECT +SANDBOX +ISOLATION +CLASS +AGE +SIZE +REASON$/);
      expect(real.stdout).toMatch(/^removed +\S+ +feature-orphan +disk +orphan +100 d .*\.tar\.gz\)$/m);
      expect(real.stdout).toMatch(
        /^kept +\S+ +exploration-0000b001 +disk +transient +40 d .* in use: a run holds its lock$/m,
      );
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(orphan)).toBe(false);
      expect(volumesWithPrefix(prefix).sort()).toEqual([busy.volume]);
      expect(fs.existsSync(locked) && fs.existsSync(fresh)).toBe(true);

      await release();
      const afterwards = JSON.parse((await cli(['list', '--json', ...where])).stdout) as Listed[];
      expect(afterwards.map((e) => e.sandbox).sort()).toEqual(
        ['exploration-0000b001', 'exploration-0000c002', 'exploration-0000v001'].sort(),
      );
      expect(byName(afterwards)['exploration-0000b001']).toMatchObject({
        state: 'clean',
        removal: { when: 'next reap' },
      });
    }, 240_000);
  },
);

// Volume sandboxes on every engine the machine has (Podman where installed: availableEngines prints
// which ran): the same list and reap through `--engine`.
describe.each(ENGINES)('worktree-sandbox list and reap on %s volumes', (engine) => {
  it('lists clean, holding work and in use, reaps only the clean one', async () => {
    const repo = newRepo();
    const root = newDir('wts-cli-root-');
    const prefix = newPrefix(engine);
    const make = (name: string) =>
      makeVolumeSandbox(repo, prefix, { transientName: name, ageDays: 40, engine });
    const clean = await make('exploration-0000e001');
    const work = await make('exploration-0000e002');
    const busy = await make('exploration-0000e003');
    inVolumeSandbox(work, 'echo draft > "$1/notes.txt"');
    const container = startUser(engine, prefix, busy.volume);
    const where = [
      '--engine',
      engine,
      '--worktree-root',
      root,
      '--volume-prefix',
      prefix,
      '--image',
      TEST_IMAGE,
    ];

    const listed = await cli(['list', '--json', ...where]);
    expect(listed.stderr).toBe('');
    const all = byName(JSON.parse(listed.stdout) as Listed[]);
    expect(Object.keys(all).sort()).toEqual([clean, work, busy].map((v) => v.location.name).sort());
    expect(all[clean.location.name]).toMatchObject({
      where: clean.volume,
      state: 'clean',
      removal: { when: 'next reap' },
    });
    expect(all[work.location.name]).toMatchObject({
      state: 'holds work',
      stateDetail: '1 uncommitted file(s)',
    });
    expect(all[busy.location.name]).toMatchObject({
      state: 'in use',
      stateDetail: `running container ${container} mounts it`,
    });

    const refused = await cli(['rm', work.location.name, ...where]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('holds work: 1 uncommitted file(s)');

    const reaped = await cli(['reap', '--json', ...where]);
    expect(reaped.code).toBe(0);
    const result = JSON.parse(reaped.stdout) as { dryRun: boolean; sandboxes: Reaped[] };
    expect(result.dryRun).toBe(false);
    expect(result.sandboxes.filter((s) => s.result === 'removed').map((s) => s.where)).toEqual([
      clean.volume,
    ]);
    expect(volumesWithPrefix(prefix, engine).sort()).toEqual([work.volume, busy.volume].sort());
    expect(recorded(repo.parent)).not.toContain(clean.location.name);
    expect(recorded(repo.parent)).toContain(work.location.name);
  }, 180_000);
});
