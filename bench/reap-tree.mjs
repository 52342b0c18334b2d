// Generates the reap benchmark's cache: PROJECTS parent repositories (each with a bare origin it is pushed
// to), and under ROOT/<project>/ SANDBOXES_PER_PROJECT linked worktrees, STALE_PER_PROJECT of them 100 to
// 300 days old and the rest 1 to 25 days old, half transient (`exploration-<8 hex>`), half persistent
// (`feature-<n>` on its own branch, which origin has).
//
// One worktree per project is made by `git worktree add`; the others are exact copies of it made from
// here (files, `.git` file, admin folder, and an index whose stat data is the copy's own), so that ten
// thousand worktrees take seconds, not minutes, and are what git itself would see as clean worktrees.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const DAY = 86_400;
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
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

/** A small deterministic random generator, so that every copy of the tree is the same. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The files of each project: 31 files in four folders, a few hundred bytes to a few kB each. */
function projectFiles(p) {
  const files = {
    'README.md': `# project ${p}\n`,
    'package.json': `{"name":"project-${p}","version":"1.0.0"}\n`,
  };
  for (let i = 0; i < 16; i++)
    files[`src/module-${i}.ts`] = `export const value${i} = ${i};\n`.repeat(10 + i * 8);
  for (let i = 0; i < 8; i++)
    files[`test/module-${i}.test.ts`] = `test('m${i}', () => expect(${i}).toBe(${i}));\n`.repeat(12);
  for (let i = 0; i < 4; i++) files[`docs/page-${i}.md`] = `Page ${i}.\n`.repeat(40);
  files['.gitignore'] = 'node_modules/\n';
  return files;
}

/**
 * Creates the parents (once: they are reused by every copy of the tree) and returns what a copy needs.
 * Parents live in `<base>/parents/<p>`, so a copy of the tree only rewrites ROOT and the admin folders.
 */
export function makeParents(base, projects) {
  const parents = [];
  for (let p = 0; p < projects; p++) {
    const dir = path.join(base, 'parents', `project${String(p).padStart(2, '0')}`);
    const parent = path.join(dir, 'repo');
    const origin = path.join(dir, 'origin.git');
    if (!fs.existsSync(path.join(parent, '.git'))) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(parent, { recursive: true });
      git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
      git(parent, 'init', '--quiet', '--initial-branch=main');
      for (const [name, content] of Object.entries(projectFiles(p))) {
        fs.mkdirSync(path.dirname(path.join(parent, name)), { recursive: true });
        fs.writeFileSync(path.join(parent, name), content);
      }
      git(parent, 'add', '-A');
      git(parent, 'commit', '--quiet', '-m', 'initial');
      git(parent, 'remote', 'add', 'origin', origin);
      git(parent, 'push', '--quiet', 'origin', 'main');
      git(parent, 'fetch', '--quiet', 'origin');
    }
    parents.push({ parent: fs.realpathSync(parent), head: git(parent, 'rev-parse', 'HEAD') });
  }
  return parents;
}

/**
 * Lays out the sandbox tree under `root` for the given parents: everything (`renew: 'all'`, `root` must not
 * exist), or only the stale sandboxes again (`renew: 'stale'`), which is all a reaper changes: the tree is
 * then identical to a fresh copy (same names, contents and ages; fresh sandboxes untouched). Returns the
 * number of sandboxes and how many are stale.
 */
export function makeSandboxTree(
  root,
  parents,
  { perProject, stalePerProject, seed = 1, renew = 'all', now = Math.floor(Date.now() / 1000) },
) {
  const rand = random(seed);
  fs.mkdirSync(root, { recursive: true });
  const realRoot = fs.realpathSync(root);
  let count = 0;
  let stale = 0;
  parents.forEach(({ parent, head }, p) => {
    const gitDir = path.join(parent, '.git');
    fs.rmSync(path.join(gitDir, 'worktree-sandbox'), { recursive: true, force: true });
    if (renew === 'all') fs.rmSync(path.join(gitDir, 'worktrees'), { recursive: true, force: true });
    const project = path.join(
      realRoot,
      `project${String(p).padStart(2, '0')}-${createHash('sha256').update(parent).digest('hex').slice(0, 6)}`,
    );
    fs.mkdirSync(project, { recursive: true });
    // The template: a worktree made by git itself, the first (fresh) sandbox.
    const template = path.join(project, 'exploration-00000000');
    const templateAdmin = path.join(gitDir, 'worktrees', 'exploration-00000000');
    if (renew === 'all') git(parent, 'worktree', 'add', '--quiet', '--detach', template, 'HEAD');
    const index = fs.readFileSync(path.join(templateAdmin, 'index'));
    const entries = indexEntries(index);
    const contents = entries.map((e) => fs.readFileSync(path.join(template, e.path)));
    const branches = [];
    for (let i = 0; i < perProject; i++) {
      const isStale = i >= perProject - stalePerProject;
      const ageDays = isStale ? 100 + rand() * 200 : 1 + rand() * 24;
      const when = Math.floor(now - ageDays * DAY);
      const transient = i % 2 === 0;
      const name = transient
        ? `exploration-${(i * 2654435761 + p * 40503).toString(16).padStart(8, '0').slice(-8)}`
        : `feature-${i}`;
      const branch = transient ? undefined : `bench/${name}`;
      if (branch) branches.push(branch);
      count++;
      if (isStale) stale++;
      if (renew === 'stale' && !isStale) continue;
      if (i === 0) ageTree(template, templateAdmin, when);
      else {
        fs.rmSync(path.join(project, name), { recursive: true, force: true });
        fs.rmSync(path.join(gitDir, 'worktrees', name), { recursive: true, force: true });
        copySandbox({ project, name, gitDir, head, branch, entries, contents, index, when });
      }
    }
    // Every branch sandbox has its own branch, at the commit origin has.
    const packed = [
      '# pack-refs with: peeled fully-peeled sorted ',
      ...branches.sort().map((b) => `${head} refs/heads/${b}`),
    ];
    fs.writeFileSync(path.join(gitDir, 'packed-refs'), `${packed.join('\n')}\n`);
  });
  return { count, stale };
}

function copySandbox({ project, name, gitDir, head, branch, entries, contents, index, when }) {
  const dir = path.join(project, name);
  const admin = path.join(gitDir, 'worktrees', name);
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
    `${'0'.repeat(40)} ${head} Bench <bench@example.com> ${when} +0000\tworktree\n`,
  );
  fs.writeFileSync(path.join(admin, 'index'), restat(index, entries, dir));
  // The index written a minute after the files (as git does): its entries are not "racily clean".
  fs.utimesSync(path.join(admin, 'index'), when + 60, when + 60);
  for (const f of [
    path.join(admin, 'HEAD'),
    path.join(admin, 'logs', 'HEAD'),
    path.join(admin, 'logs'),
    admin,
  ])
    fs.utimesSync(f, when, when);
  for (const folder of made) fs.utimesSync(folder, when, when);
  fs.utimesSync(dir, when, when);
}

function ageTree(dir, admin, when) {
  for (const f of ['index', 'HEAD', 'ORIG_HEAD', 'logs/HEAD', 'logs', ''].map((x) => path.join(admin, x)))
    if (fs.existsSync(f)) fs.utimesSync(f, when, when);
  fs.utimesSync(dir, when, when);
}

/** Entry offsets of a version 2 index (SHA-1). */
function indexEntries(buf) {
  if (buf.toString('latin1', 0, 4) !== 'DIRC' || buf.readUInt32BE(4) !== 2)
    throw new Error('expected a version 2 index');
  const entries = [];
  let off = 12;
  for (let i = 0, n = buf.readUInt32BE(8); i < n; i++) {
    const nameLength = buf.readUInt16BE(off + 60) & 0xfff;
    entries.push({
      offset: off,
      mode: buf.readUInt32BE(off + 24),
      path: buf.toString('utf8', off + 62, off + 62 + nameLength),
    });
    off += (62 + nameLength + 8) & ~7;
  }
  return entries;
}

/** The template index with each entry's stat data replaced by that of the copy's file; checksum redone. */
function restat(template, entries, dir) {
  const buf = Buffer.from(template);
  for (const e of entries) {
    const st = fs.lstatSync(path.join(dir, e.path), { bigint: true });
    const put = (value, at) => buf.writeUInt32BE(Number(BigInt.asUintN(32, value)), e.offset + at);
    put(st.ctimeNs / 1_000_000_000n, 0);
    put(st.ctimeNs % 1_000_000_000n, 4);
    put(st.mtimeNs / 1_000_000_000n, 8);
    put(st.mtimeNs % 1_000_000_000n, 12);
    put(st.dev, 16);
    put(st.ino, 20);
    put(st.uid, 28);
    put(st.gid, 32);
    put(st.size, 36);
  }
  const end = buf.length - 20;
  createHash('sha1').update(buf.subarray(0, end)).digest().copy(buf, end);
  return buf;
}
