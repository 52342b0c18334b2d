// Generates the reap benchmark's cache in the action's layout (src/sandbox/layout.ts, bookkeeping.ts):
// PROJECTS parent repositories, each with a bare origin that holds its commits, and under
// ROOT/<project>/ (the project name as run mode derives it from the parent's path) SANDBOXES_PER_PROJECT
// sandboxes, STALE_PER_PROJECT of them 100 to 300 days old and the rest 1 to 25 days old, half transient
// (`exploration-<8 hex>`, detached HEAD), half persistent (`feature-<n>` on branch `bench/feature-<n>`).
// Each sandbox is a repository of its own (`<name>/.git`, its objects borrowed from the parent's store
// through `objects/info/alternates`), with its home `<project>/.home/<name>`; the project folder holds the
// `.parent` note, and the parent the records `refs/worktree-sandbox/disk/<name>/head`.
//
// Two templates per project (detached and on a branch) are made by run mode's own script (INIT_SCRIPT
// of src/sandbox/make-repository.ts: git init, alternates, git reset --hard); every sandbox is an exact
// copy of one of them made from here (work files, git folder, and an index whose stat data is the copy's own), so that
// ten thousand sandboxes take a minute, not an hour, and are what git itself would see as clean.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSource } from './src-modules.mjs';

const { INIT_SCRIPT } = await importSource('sandbox/make-repository');
const { projectName } = await importSource('sandbox/naming');
const { PARENT_NOTE, REF_ROOT, refComponent } = await importSource('sandbox/bookkeeping');
const { HOME_FOLDER } = await importSource('sandbox/layout');

const DAY = 86_400;
const TEMPLATE_BRANCH = 'bench/feature-template';
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
export function random(seed) {
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
  files['.gitignore'] = 'node_modules/\nbuild/\n';
  return files;
}

/**
 * Creates the parents (once: they are reused by every copy of the tree) and returns what a copy needs:
 * each parent's real path, git folder, object store, HEAD and the two templates made by INIT_SCRIPT.
 */
export function makeParents(base, projects) {
  const parents = [];
  for (let p = 0; p < projects; p++) {
    const dir = path.join(base, 'parents', `project${String(p).padStart(2, '0')}`);
    const parent = path.join(dir, 'repo');
    const origin = path.join(dir, 'origin.git');
    if (!fs.existsSync(path.join(dir, 'templates', 'ready'))) {
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
      const real = fs.realpathSync(parent);
      const head = git(real, 'rev-parse', 'HEAD');
      for (const [kind, branch] of [
        ['transient', ''],
        ['persistent', TEMPLATE_BRANCH],
      ]) {
        const wt = path.join(dir, 'templates', kind);
        fs.mkdirSync(wt, { recursive: true });
        execFileSync(
          'sh',
          [
            '-c',
            INIT_SCRIPT,
            'init-sandbox',
            wt,
            path.join(dir, 'templates', `${kind}.home`),
            head,
            branch,
            '',
            origin,
            path.join(real, '.git', 'objects'),
          ],
          { env: GIT_ENV, stdio: ['ignore', 'ignore', 'inherit'] },
        );
      }
      fs.writeFileSync(path.join(dir, 'templates', 'ready'), '');
    }
    const real = fs.realpathSync(parent);
    parents.push({
      parent: real,
      gitDir: path.join(real, '.git'),
      head: git(real, 'rev-parse', 'HEAD'),
      templates: {
        transient: readTemplate(path.join(dir, 'templates', 'transient')),
        persistent: readTemplate(path.join(dir, 'templates', 'persistent')),
      },
    });
  }
  return parents;
}

/** A template sandbox as data: its work files (from its index) and every file of its git folder. */
function readTemplate(wt) {
  const index = fs.readFileSync(path.join(wt, '.git', 'index'));
  const entries = indexEntries(index);
  const contents = entries.map((e) => fs.readFileSync(path.join(wt, e.path)));
  const gitFiles = [];
  const gitDirs = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(wt, '.git', rel), { withFileTypes: true })) {
      const name = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        gitDirs.push(name);
        walk(name);
      } else if (name !== 'index')
        gitFiles.push([name, fs.readFileSync(path.join(wt, '.git', name), 'utf8')]);
    }
  };
  walk('');
  return { index, entries, contents, gitFiles, gitDirs };
}

/**
 * Lays out the sandbox tree under `root` for the given parents: everything (`renew: 'all'`, `root` must not
 * exist), or only the stale sandboxes again (`renew: 'stale'`), which is all a reaper changes: the tree is
 * then identical to a fresh copy (same names, contents and ages; fresh sandboxes untouched), and every
 * parent's records are written again. Returns the number of sandboxes and how many are stale.
 */
export function makeSandboxTree(
  root,
  parents,
  {
    perProject,
    stalePerProject,
    seed = 1,
    renew = 'all',
    now = Math.floor(Date.now() / 1000),
    untrackedPerProject = 0,
    ignoredPerProject = 0,
  },
) {
  const rand = random(seed);
  fs.mkdirSync(root, { recursive: true });
  const realRoot = fs.realpathSync(root);
  let count = 0;
  let stale = 0;
  for (const [p, { parent, gitDir, head, templates }] of parents.entries()) {
    // What a reaper may leave behind in the parent (private stores, locks): gone, as in a fresh copy.
    fs.rmSync(path.join(gitDir, 'worktree-sandbox'), { recursive: true, force: true });
    const project = path.join(realRoot, projectName(parent));
    const homes = path.join(project, HOME_FOLDER);
    fs.mkdirSync(homes, { recursive: true });
    fs.writeFileSync(path.join(project, PARENT_NOTE), `${parent}\n`);
    const branches = [];
    const records = [];
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
      records.push(`${REF_ROOT}/disk/${refComponent(name)}/head`);
      newest = Math.max(newest, when);
      count++;
      if (isStale) stale++;
      if (renew === 'stale' && !isStale) continue;
      fs.rmSync(path.join(project, name), { recursive: true, force: true });
      fs.rmSync(path.join(homes, name), { recursive: true, force: true });
      // The first stale ones of a project: an untracked file (work), or only ignored build output.
      const nth = i - (perProject - stalePerProject);
      const extra = !isStale
        ? undefined
        : nth < untrackedPerProject
          ? 'untracked'
          : nth < untrackedPerProject + ignoredPerProject
            ? 'ignored'
            : undefined;
      copySandbox({
        dir: path.join(project, name),
        home: path.join(homes, name),
        branch,
        template: transient ? templates.transient : templates.persistent,
        when,
        extra,
      });
    }
    // Sandboxes are made in these folders, so their times are those of the newest sandbox.
    fs.utimesSync(homes, newest, newest);
    fs.utimesSync(path.join(project, PARENT_NOTE), newest, newest);
    fs.utimesSync(project, newest, newest);
    // The parent's records (each sandbox's head at the commit it started from, which origin has), its
    // branches (as the imports left them), and its remote-tracking branch.
    const packed = [
      '# pack-refs with: peeled fully-peeled sorted ',
      ...[...branches.map((b) => `refs/heads/${b}`), 'refs/remotes/origin/main', ...records]
        .sort()
        .map((ref) => `${head} ${ref}`),
    ];
    fs.writeFileSync(path.join(gitDir, 'packed-refs'), `${packed.join('\n')}\n`);
  }
  return { count, stale };
}

/** Untracked files as a real cache has them: notes (work), or build output the parent's .gitignore ignores. */
function addExtra(dir, extra, when) {
  const files =
    extra === 'untracked'
      ? { 'notes.txt': 'a draft nobody committed\n' }
      : {
          'node_modules/left-pad/package.json': '{"name":"left-pad","version":"1.3.0"}\n',
          'node_modules/left-pad/index.js': 'module.exports = (s, n) => s.padStart(n);\n',
          'node_modules/.package-lock.json': '{"lockfileVersion":3}\n',
          'build/out.js': 'console.log(1);\n',
          'build/out.js.map': '{"version":3}\n',
        };
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  for (const name of Object.keys(files).reverse()) {
    fs.utimesSync(path.join(dir, name), when, when);
    fs.utimesSync(path.dirname(path.join(dir, name)), when, when);
  }
}

function copySandbox({ dir, home, branch, template, when, extra }) {
  const { entries, contents, index, gitFiles, gitDirs } = template;
  const gitDir = path.join(dir, '.git');
  const rename = (text) => (branch ? text.replaceAll(TEMPLATE_BRANCH, branch) : text);
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
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
  fs.mkdirSync(gitDir);
  for (const rel of gitDirs) fs.mkdirSync(path.join(gitDir, rename(rel)), { recursive: true });
  for (const [rel, text] of gitFiles) {
    const file = path.join(gitDir, rename(rel));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, rename(text).replaceAll(/ \d{10} ([+-]\d{4})\t/g, ` ${when} $1\t`));
    fs.utimesSync(file, when, when);
  }
  fs.writeFileSync(path.join(gitDir, 'index'), restat(index, entries, dir));
  // The index written a minute after the files (as git does): its entries are not "racily clean".
  fs.utimesSync(path.join(gitDir, 'index'), when + 60, when + 60);
  for (const rel of gitDirs) fs.utimesSync(path.join(gitDir, rename(rel)), when, when);
  fs.utimesSync(gitDir, when, when);
  if (extra) addExtra(dir, extra, when);
  for (const folder of made) fs.utimesSync(folder, when, when);
  fs.utimesSync(dir, when, when);
  fs.utimesSync(home, when, when);
}

/** Entry offsets of a version 2 index (SHA-1). */
export function indexEntries(buf) {
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
export function restat(template, entries, dir) {
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
