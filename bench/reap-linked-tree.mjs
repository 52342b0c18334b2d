// Generates a cache of linked worktrees in the seed tool's layout (its worktree cache: `<root>/<project>/
// <name>`, each folder's `.git` a file `gitdir: <parent>/.git/worktrees/<name>`, registered in the parent
// by `.git/worktrees/<name>/` whose `gitdir` points back), for the parents bench/reap-tree.mjs makes.
// Per parent, two templates are made by real `git worktree add` (detached, and on a branch); every
// worktree is an exact copy of one of them made from here (work files, `.git` file, registration with
// HEAD, commondir, gitdir, reflog, and an index whose stat data is the copy's own), so that thousands of
// worktrees take seconds, and are what git itself sees as clean (`git worktree list`, `git status`).
// Half transient (`exploration-<8 hex>`, detached), half persistent (`feature-<n>` on `bench/feature-<n>`,
// a branch at the parent's HEAD, which origin has); STALE_PER_PROJECT of each project 100 to 300 days
// old, the rest 1 to 25 days.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexEntries, makeSandboxTree, random, restat } from './reap-tree.mjs';

const DAY = 86_400;
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

function git(cwd, ...args) {
  return execFileSync('git', args, {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A template worktree as data: its work files (from its index) and its registration's files. */
function linkedTemplate(parent, dir, branch) {
  const id = path.basename(dir);
  if (!fs.existsSync(dir)) {
    if (branch) git(parent, 'worktree', 'add', '--quiet', '-b', branch, dir);
    else git(parent, 'worktree', 'add', '--quiet', '--detach', dir);
  }
  const admin = path.join(parent, '.git', 'worktrees', id);
  const index = fs.readFileSync(path.join(admin, 'index'));
  const entries = indexEntries(index);
  return {
    index,
    entries,
    contents: entries.map((e) => fs.readFileSync(path.join(dir, e.path))),
    head: fs.readFileSync(path.join(admin, 'HEAD'), 'utf8'),
    reflog: fs.readFileSync(path.join(admin, 'logs', 'HEAD'), 'utf8'),
  };
}

/**
 * Adds to each parent (from makeParents) its two linked templates, made once under `<base>/linked-
 * templates/<project>/` (kept registered in the parent, outside the cache root).
 */
export function withLinkedTemplates(base, parents) {
  return parents.map((p, n) => {
    const dir = path.join(base, 'linked-templates', `project${String(n).padStart(2, '0')}`);
    fs.mkdirSync(dir, { recursive: true });
    return {
      ...p,
      linked: {
        transient: linkedTemplate(p.parent, path.join(dir, `ltemplate-${n}-transient`), ''),
        persistent: linkedTemplate(
          p.parent,
          path.join(dir, `ltemplate-${n}-persistent`),
          `bench/ltemplate-${n}`,
        ),
      },
    };
  });
}

/**
 * Lays out the cache under `root`: everything (`renew: 'all'`), or only the stale worktrees again
 * (`renew: 'stale'`), which is all a reaper changes (their folders and registrations). Returns the number
 * of worktrees and how many are stale.
 */
export function makeLinkedTree(
  root,
  parents,
  { perProject, stalePerProject, seed = 1, renew = 'all', now = Math.floor(Date.now() / 1000) },
) {
  const rand = random(seed);
  fs.mkdirSync(root, { recursive: true });
  const realRoot = fs.realpathSync(root);
  let count = 0;
  let stale = 0;
  for (const [p, { gitDir, head, linked }] of parents.entries()) {
    fs.rmSync(path.join(gitDir, 'worktree-sandbox'), { recursive: true, force: true });
    const project = path.join(realRoot, `project${String(p).padStart(2, '0')}`);
    fs.mkdirSync(project, { recursive: true });
    const branches = [`bench/ltemplate-${p}`];
    let newest = 0;
    for (let i = 0; i < perProject; i++) {
      const isStale = i >= perProject - stalePerProject;
      const ageDays = isStale ? 100 + rand() * 200 : 1 + rand() * 24;
      const when = Math.floor(now - ageDays * DAY);
      const transient = i % 2 === 0;
      const name = transient
        ? `exploration-${(i * 2654435761 + p * 40503).toString(16).padStart(8, '0').slice(-8)}`
        : `feature-${i}`;
      const branch = transient ? '' : `bench/${name}`;
      if (branch) branches.push(branch);
      newest = Math.max(newest, when);
      count++;
      if (isStale) stale++;
      if (renew === 'stale' && !isStale) continue;
      const dir = path.join(project, name);
      const admin = path.join(gitDir, 'worktrees', name);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(admin, { recursive: true, force: true });
      copyWorktree({
        dir,
        admin,
        head,
        branch,
        template: transient ? linked.transient : linked.persistent,
        when,
      });
    }
    fs.utimesSync(project, newest, newest);
    // The parent's branches (the persistent worktrees' and the templates') and its remote-tracking branch.
    const packed = [
      '# pack-refs with: peeled fully-peeled sorted ',
      ...[...branches.map((b) => `refs/heads/${b}`), 'refs/remotes/origin/main']
        .sort()
        .map((ref) => `${head} ${ref}`),
    ];
    fs.writeFileSync(path.join(gitDir, 'packed-refs'), `${packed.join('\n')}\n`);
  }
  return { count, stale };
}

function copyWorktree({ dir, admin, head, branch, template, when }) {
  const { entries, contents, index } = template;
  fs.mkdirSync(dir);
  const made = new Set();
  entries.forEach((e, n) => {
    const file = path.join(dir, e.path);
    const folder = path.dirname(file);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    fs.writeFileSync(file, contents[n], { mode: e.mode & 0o777 });
    fs.utimesSync(file, when, when);
  });
  fs.writeFileSync(path.join(dir, '.git'), `gitdir: ${admin}\n`);
  fs.mkdirSync(path.join(admin, 'logs'), { recursive: true });
  fs.writeFileSync(path.join(admin, 'HEAD'), branch ? `ref: refs/heads/${branch}\n` : `${head}\n`);
  fs.writeFileSync(path.join(admin, 'commondir'), '../..\n');
  fs.writeFileSync(path.join(admin, 'gitdir'), `${path.join(dir, '.git')}\n`);
  fs.writeFileSync(
    path.join(admin, 'logs', 'HEAD'),
    template.reflog.replaceAll(/ \d{10} ([+-]\d{4})\t/g, ` ${when} $1\t`),
  );
  fs.writeFileSync(path.join(admin, 'index'), restat(index, entries, dir));
  for (const f of ['HEAD', 'commondir', 'gitdir', 'logs/HEAD'])
    fs.utimesSync(path.join(admin, f), when, when);
  // The index written a minute after the files (as git does): its entries are not "racily clean".
  fs.utimesSync(path.join(admin, 'index'), when + 60, when + 60);
  for (const folder of made) fs.utimesSync(folder, when, when);
  fs.utimesSync(dir, when, when);
}

/**
 * The tree a reap benchmark starts from, in its layout (`linked`: this file's worktrees; `own` and `real`:
 * bench/reap-tree.mjs's sandboxes, `real` with untracked and ignored entries), written back to disk before
 * the clock starts, so that no tool pays for the generator's writes.
 */
export function layOutReapTree(
  layout,
  root,
  parents,
  shape,
  { untrackedPerProject = 0, ignoredPerProject = 0 } = {},
) {
  const tree =
    layout === 'linked'
      ? makeLinkedTree(root, parents, shape)
      : makeSandboxTree(root, parents, { ...shape, untrackedPerProject, ignoredPerProject });
  execFileSync('sync');
  return tree;
}
