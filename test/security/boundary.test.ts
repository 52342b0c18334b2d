// Live attacks on the boundary (docs/security-model.md, "The boundary"): a hostile command, run through the bundle
// as the unprivileged runner user on both engines and both isolations, tries everything that gave a
// container a way out before: poisoning the parent's objects, writing the parent's config, commondir,
// config.worktree, hooks and worktree registrations, reading persisted credentials, reaching another
// sandbox, and planting programs in its own repository for host-side git to run. Every planted program
// touches a marker on the host if it ever runs there; a control on a copy proves each plant is live.
import { afterAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMainAndPost, runStep } from '../support/action.js';
import { inVolume, removeVolumes, uniquePrefix, type Engine } from '../support/docker.js';
import { rootlessPodman } from '../support/rootless.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { chownTree, git, makeRepo, tempDir } from '../support/repo.js';
import { projectName } from '../../src/sandbox/naming.js';

const ENGINES = availableEngines();
const cleanup: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const f of cleanup) await f();
});

const SECRET = 'SECRET-TOKEN-PERSISTED-IN-PARENT';
const VICTIM_WORK = 'VICTIM-UNCOMMITTED-WORK';

/**
 * The hostile command. Environment: M (the host's marker folder), VICTIM_PATH (a disk victim, if any).
 * A write that fails in its redirection is reported by the shell itself, which `cmd > f 2>/dev/null` does
 * not silence: each such write is braced, so that no message of the shell's lands inside a line the test
 * reads (stdout and stderr reach the log through separate pipes).
 */
const ATTACK = String.raw`set -u
G="$SANDBOX_PARENT/.git"
prog() { printf '#!/bin/sh\ntouch "%s/%s"\n' "$M" "$2" > "$1"; chmod +x "$1"; }
# real work, which must come back
echo "work of the command" >> README.md
git add README.md && git commit -q -m "work committed by the command"
echo "uncommitted work" >> src/app.js
# 1. the parent's object store: overwrite the blob every checkout of main reads, add an object
blob=$(git rev-parse HEAD~1:README.md)
obj="$G/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)"
chmod u+w "$obj" 2>/dev/null; { printf 'poisoned' > "$obj"; } 2>/dev/null && echo "WROTE-object"
echo poison | GIT_OBJECT_DIRECTORY="$G/objects" git hash-object -w --stdin >/dev/null 2>&1 && echo "WROTE-new-object"
# 2. the parent's metadata: what host-side git would read
for t in config config.worktree commondir HEAD index packed-refs hooks/pre-push hooks/reference-transaction worktrees/fake/gitdir info/attributes refs/heads/main; do
  mkdir -p "$(dirname "$G/$t")" 2>/dev/null
  { printf '[core]\n\tgitProxy = %s/x\n' "$M" > "$G/$t"; } 2>/dev/null && echo "WROTE-$t"
done
echo "PARENT-CONFIG:$(cat "$G/config" 2>/dev/null | tr '\n' ' ')"
echo "PARENT-GIT-DIR:$(ls -A "$G" | tr '\n' ' ')"
# 3. other sandboxes: their folders, and anything uncommitted they left in a store this one can read
if [ -n "$VICTIM_PATH" ]; then
  echo "VICTIM-LISTING:$(ls -A "$VICTIM_PATH" 2>&1 | tr '\n' ' ')"
  { echo evil > "$VICTIM_PATH/secret-work.txt"; } 2>/dev/null && echo "WROTE-victim"
fi
echo "NEIGHBOURS:$(ls -A "$(dirname "$SANDBOX_WORKTREE")" | tr '\n' ' ')"
echo "READABLE-VICTIM-WORK:$(git cat-file --batch-all-objects --batch 2>/dev/null | grep -c "$VICTIM_WORK")"
# 4. plants in its own repository, for any host-side git to run
mkdir -p .git/hooks .git/info
for h in pre-commit post-commit pre-push reference-transaction post-checkout post-merge pre-auto-gc post-rewrite; do prog ".git/hooks/$h" "hook-$h"; done
prog .git/x-fsmonitor fsmonitor;   git config core.fsmonitor "$PWD/.git/x-fsmonitor"
prog .git/x-hooks-pre hookspath;   mkdir -p .git/evil-hooks; cp .git/x-hooks-pre .git/evil-hooks/pre-commit
prog .git/x-ssh ssh;               git config core.sshCommand "$PWD/.git/x-ssh"
prog .git/x-proxy gitproxy;        git config core.gitProxy "$PWD/.git/x-proxy"
prog .git/x-filter filter;         git config filter.evil.clean "$PWD/.git/x-filter"; git config filter.evil.smudge "$PWD/.git/x-filter"
prog .git/x-textconv textconv;     git config diff.evil.textconv "$PWD/.git/x-textconv"
prog .git/x-cred credential;       git config credential.helper "$PWD/.git/x-cred"
prog .git/x-pager pager;           git config core.pager "$PWD/.git/x-pager"
prog .git/x-ext ext;               git config url."ext::$PWD/.git/x-ext %S".insteadOf "$SANDBOX_PARENT"
printf '* filter=evil diff=evil\n' > .git/info/attributes
echo "PLANTED"
`;

/** The markers a live plant writes. */
const MARKERS = ['fsmonitor', 'hook-pre-commit', 'filter'];

function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (p: string) => {
    for (const e of fs.readdirSync(p, { withFileTypes: true })) {
      const full = path.join(p, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) found.set(full, createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
    }
  };
  walk(dir);
  return found;
}

/** `<root>/<project>` for a parent, as run mode computes it (real paths). */
function projectDir(root: string, parent: string): string {
  return path.join(fs.realpathSync(root), projectName(fs.realpathSync(parent)));
}

/** A file in a volume, read from the storage the runs used (the runner's own, for rootless Podman). */
async function readVolume(engine: Engine, volume: string, file: string): Promise<string> {
  if (engine === 'docker') return inVolume(TEST_IMAGE, volume, `cat ${file}`, engine);
  const read = await rootlessPodman([
    'run',
    '--rm',
    '--network',
    'none',
    '--mount',
    `type=volume,source=${volume},target=/sandbox`,
    '--entrypoint',
    'cat',
    TEST_IMAGE,
    file,
  ]);
  if (read.exitCode !== 0) throw new Error(`podman (rootless) could not read ${file}: ${read.stderr}`);
  return read.stdout.trim();
}

function refsOf(repo: string): string {
  return git(repo, 'for-each-ref', '--format=%(objectname) %(refname)');
}

/** Plain git in the parent, as a person or a later workflow step would run it (no hardening). */
function plainGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: '/root',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'safe.directory',
      GIT_CONFIG_VALUE_0: '*',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

interface Case {
  engine: Engine;
  isolation: 'container' | 'disk';
  /** Disk only: the worktree root inside the parent's work tree (git-ignored), as Loom's ADR puts it. */
  rootInsideParent?: boolean;
}

const CASES: Case[] = ENGINES.flatMap((engine) => [
  { engine, isolation: 'container' as const },
  { engine, isolation: 'disk' as const },
  { engine, isolation: 'disk' as const, rootInsideParent: true },
]);

function setup(c: Case) {
  const ids = runnerIds();
  const repo = makeRepo();
  // A parent as actions/checkout leaves it: a persisted credential; and per-worktree config enabled.
  git(repo.parent, 'config', 'http.https://example.invalid/.extraheader', `AUTHORIZATION: basic ${SECRET}`);
  git(repo.parent, 'config', 'core.repositoryformatversion', '1');
  git(repo.parent, 'config', 'extensions.worktreeConfig', 'true');
  const root = c.rootInsideParent ? path.join(repo.parent, '.worktrees') : path.join(repo.root, 'cache');
  if (c.rootInsideParent)
    fs.appendFileSync(path.join(repo.parent, '.git', 'info', 'exclude'), '.worktrees/\n');
  fs.mkdirSync(root);
  chownTree(repo.root, ids);
  const markers = tempDir('wts-markers-');
  fs.chmodSync(markers, 0o777);
  const prefix = uniquePrefix('sec');
  cleanup.push(async () => {
    if (c.engine === 'docker') removeVolumes(prefix, c.engine);
    else {
      const listed = await rootlessPodman(['volume', 'ls', '--quiet', '--filter', `name=${prefix}`]);
      const names = listed.stdout.split('\n').filter(Boolean);
      if (names.length) await rootlessPodman(['volume', 'rm', '--force', ...names]);
    }
    fs.rmSync(repo.root, { recursive: true, force: true });
    fs.rmSync(markers, { recursive: true, force: true });
  });
  const inputs = (more: Record<string, string>) => ({
    mode: 'run',
    image: TEST_IMAGE,
    engine: c.engine,
    isolation: c.isolation,
    'repository-path': repo.parent,
    'worktree-root': root,
    'volume-prefix': prefix,
    ...more,
  });
  // As on a GitHub-hosted runner: the runner user's Podman is rootless (its own storage).
  const env = { GITHUB_WORKSPACE: repo.parent };
  return { repo, root, markers, prefix, inputs, env, rootlessPodman: c.engine === 'podman' };
}

describe.each(CASES)(
  '$engine engine, $isolation isolation (root inside the parent: $rootInsideParent)',
  (c) => {
    it('a hostile command changes nothing outside its sandbox, reads nothing it should not, runs nothing on the host', async () => {
      const { repo, root, markers, inputs, env, rootlessPodman: rootless } = setup(c);
      // A victim sandbox with uncommitted work, brought back by its own run (its snapshot is in its private store).
      const victim = await runStep({
        inputs: inputs({
          branch: 'victim',
          cleanup: 'never',
          command: `echo ${VICTIM_WORK} > secret-work.txt`,
        }),
        env,
        asRunner: true,
        rootlessPodman: rootless,
      });
      expect(victim.code).toBe(0);
      const victimPath = c.isolation === 'disk' ? path.join(projectDir(root, repo.parent), 'victim') : '';

      const objectsBefore = filesUnder(path.join(repo.parent, '.git', 'objects'));
      const readmeAtMain = git(repo.parent, 'cat-file', 'blob', 'main:README.md');
      const originBefore = refsOf(repo.origin)
        .split('\n')
        .filter((l) => !l.endsWith('refs/heads/attack'));
      const configBefore = fs.readFileSync(path.join(repo.parent, '.git', 'config'), 'utf8');
      const hooksBefore = fs.readdirSync(path.join(repo.parent, '.git', 'hooks')).sort();

      const { main, post } = await runMainAndPost({
        inputs: inputs({
          branch: 'attack',
          push: 'true',
          cleanup: 'never',
          env: `M=${markers}\nVICTIM_PATH=${victimPath}\nVICTIM_WORK=${VICTIM_WORK}`,
          command: ATTACK,
        }),
        env,
        asRunner: true,
        rootlessPodman: rootless,
      });
      expect(main.stderr).toBe('');
      expect(main.code).toBe(0);
      expect(post.code).toBe(0);
      const out = main.stdout;
      expect(out).toContain('PLANTED');
      // Nothing of the parent could be written, nothing of it but its objects was even visible.
      expect(out).not.toMatch(/WROTE-/);
      expect(out).toMatch(/^PARENT-CONFIG:$/m);
      expect(out).toMatch(/^PARENT-GIT-DIR:objects $/m);
      expect(out).not.toContain(SECRET);
      // No other sandbox is visible, and nothing uncommitted of another sandbox is readable.
      expect(out).toMatch(/^READABLE-VICTIM-WORK:0$/m);
      const neighbours = /^NEIGHBOURS:(.*)$/m.exec(out)![1].trim().split(' ');
      expect(neighbours).not.toContain('victim');
      if (c.isolation === 'disk') expect(out).toMatch(/^VICTIM-LISTING:.*No such file or directory/m);

      // The work came back, and went to origin's sandbox branch only.
      expect(main.outputs.pushed).toBe('true');
      expect(git(repo.origin, 'log', '--format=%s', 'attack')).toMatch(/work committed by the command/);
      expect(
        refsOf(repo.origin)
          .split('\n')
          .filter((l) => !l.endsWith('refs/heads/attack')),
      ).toEqual(originBefore);

      // A person works in the parent afterwards: nothing planted runs, nothing is poisoned.
      plainGit(repo.parent, 'status');
      plainGit(repo.parent, 'log', '-p', '-2', 'attack');
      plainGit(repo.parent, 'checkout', '--quiet', 'attack');
      plainGit(repo.parent, 'checkout', '--quiet', 'main');
      plainGit(repo.parent, 'fsck', '--full');
      expect(fs.readdirSync(markers)).toEqual([]);
      expect(git(repo.parent, 'cat-file', 'blob', 'main:README.md')).toBe(readmeAtMain);
      expect(fs.readFileSync(path.join(repo.parent, 'README.md'), 'utf8').trimEnd()).toBe(readmeAtMain);
      const objectsAfter = filesUnder(path.join(repo.parent, '.git', 'objects'));
      for (const [file, hash] of objectsBefore) expect([file, objectsAfter.get(file)]).toEqual([file, hash]);
      expect(fs.readFileSync(path.join(repo.parent, '.git', 'config'), 'utf8')).toBe(configBefore);
      expect(fs.readdirSync(path.join(repo.parent, '.git', 'hooks')).sort()).toEqual(hooksBefore);
      for (const f of ['config.worktree', 'commondir', 'worktrees'])
        expect(fs.existsSync(path.join(repo.parent, '.git', f))).toBe(false);

      // The victim keeps its work.
      const victimFile =
        c.isolation === 'disk'
          ? fs.readFileSync(path.join(victimPath, 'secret-work.txt'), 'utf8').trim()
          : await readVolume(c.engine, victim.outputs.volume, '/sandbox/victim/secret-work.txt');
      expect(victimFile).toBe(VICTIM_WORK);

      // Control: the plants are live. git run directly in (a copy of) the attacker's sandbox runs them.
      if (c.isolation === 'disk') {
        const sandbox = path.join(projectDir(root, repo.parent), 'attack');
        const copy = tempDir('wts-control-');
        execFileSync('cp', ['-a', `${sandbox}/.`, copy]);
        fs.writeFileSync(path.join(copy, 'touched.txt'), 'x');
        try {
          plainGit(copy, 'add', '-A');
          plainGit(copy, 'commit', '-q', '-m', 'control');
        } catch {
          // a failing plant still leaves its marker
        }
        for (const marker of MARKERS) expect(fs.readdirSync(markers)).toContain(marker);
        fs.rmSync(copy, { recursive: true, force: true });
      }
    });
  },
);

describe('racing a concurrent run', () => {
  it('a hostile command hammering the parent while another run imports and pushes changes nothing of that run', async () => {
    const { repo, markers, inputs, env } = setup({ engine: 'docker', isolation: 'disk' });
    // For ~20 s: rewrite the parent's refs, config, index, objects and registrations, as fast as it can.
    const hammer = String.raw`G="$SANDBOX_PARENT/.git"; end=$(( $(date +%s) + 20 )); n=0
while [ $(date +%s) -lt $end ]; do
  for t in config HEAD index packed-refs refs/heads/victim refs/heads/main commondir worktrees/x/gitdir hooks/pre-push; do
    { printf 'x' > "$G/$t"; } 2>/dev/null && echo "WROTE-$t"
  done
  for o in "$G"/objects/??/*; do { printf 'x' > "$o"; } 2>/dev/null && echo "WROTE-object" && break; done
  n=$((n+1))
done
echo "ATTEMPTS:$n"`;
    const objectsBefore = filesUnder(path.join(repo.parent, '.git', 'objects'));
    const [attack, victim] = await Promise.all([
      runStep({
        inputs: inputs({ branch: 'hammer', cleanup: 'never', env: `M=${markers}`, command: hammer }),
        env,
        asRunner: true,
      }),
      new Promise((r) => setTimeout(r, 3000)).then(() =>
        runStep({
          inputs: inputs({
            branch: 'victim',
            push: 'true',
            cleanup: 'never',
            command: 'echo honest > honest.txt',
          }),
          env,
          asRunner: true,
        }),
      ),
    ]);
    expect(attack.code).toBe(0);
    expect(Number(/^ATTEMPTS:(\d+)$/m.exec(attack.stdout)![1])).toBeGreaterThan(10);
    expect(attack.stdout).not.toMatch(/WROTE-/);
    expect(victim.code).toBe(0);
    expect(victim.outputs.pushed).toBe('true');
    // What the victim pushed is exactly its own work on its start commit.
    expect(git(repo.origin, 'show', 'victim:honest.txt')).toBe('honest');
    expect(git(repo.origin, 'rev-parse', 'victim~1')).toBe(git(repo.origin, 'rev-parse', 'main'));
    expect(git(repo.origin, 'diff', '--name-only', 'main', 'victim')).toBe('honest.txt');
    plainGit(repo.parent, 'fsck', '--full');
    const objectsAfter = filesUnder(path.join(repo.parent, '.git', 'objects'));
    for (const [file, hash] of objectsBefore) expect([file, objectsAfter.get(file)]).toEqual([file, hash]);
    expect(fs.readdirSync(markers)).toEqual([]);
  });
});

describe.each(ENGINES)('limits on what comes back (%s)', (engine) => {
  it('a command that commits more than max-import-size is stopped with a clear error; neither the parent nor origin grows', async () => {
    const { repo, inputs, env, rootlessPodman: rootless } = setup({ engine, isolation: 'container' });
    const objects = () => [...filesUnder(path.join(repo.parent, '.git', 'objects')).keys()].sort();
    const before = { objects: objects(), origin: refsOf(repo.origin) };
    const main = await runStep({
      inputs: inputs({
        branch: 'bomb',
        push: 'true',
        cleanup: 'never',
        'max-import-size': '1m',
        command: 'head -c 4000000 /dev/urandom > big.bin && git add big.bin && git commit -qm big',
      }),
      env,
      asRunner: true,
      rootlessPodman: rootless,
    });
    expect(main.code).toBe(1);
    expect(main.stdout).toMatch(/larger than max-import-size \(1048576 bytes\): nothing was imported/);
    expect(objects()).toEqual(before.objects);
    expect(refsOf(repo.origin)).toBe(before.origin);
  });

  it('tens of thousands of refs in the sandbox never reach the parent', async () => {
    const { repo, inputs, env, rootlessPodman: rootless } = setup({ engine, isolation: 'container' });
    const before = refsOf(repo.parent).split('\n').length;
    const started = Date.now();
    const main = await runStep({
      inputs: inputs({
        branch: 'refbomb',
        cleanup: 'never',
        command:
          'h=$(git rev-parse HEAD); i=0; while [ $i -lt 20000 ]; do echo "create refs/tags/t$i $h"; i=$((i+1)); done | git update-ref --stdin && git tag | wc -l',
      }),
      env,
      asRunner: true,
      rootlessPodman: rootless,
    });
    expect(main.code).toBe(0);
    expect(main.stdout).toMatch(/^20000$/m);
    // only the sandbox's own record (refs/worktree-sandbox/volume/refbomb/head) and its branch are new
    expect(refsOf(repo.parent).split('\n').length).toBe(before + 2);
    expect(Date.now() - started).toBeLessThan(120_000);
  });
});
