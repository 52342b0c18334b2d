// A large repository in the shape of git's own (about 4,800 files, ~60 MB checked out, thousands of
// commits), generated with `git fast-import` from a seeded generator: the same bytes on every machine.
// Cached under .bench/; regenerated only when the recipe below changes.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Bump when the recipe changes, so cached copies are regenerated. */
const RECIPE_VERSION = 1;

/** Folders of git.git and roughly how many files each holds (sum 4,800), with a typical file size. */
const LAYOUT = [
  { dir: '', ext: '.c', count: 350, kb: 20 },
  { dir: '', ext: '.h', count: 190, kb: 6 },
  { dir: 'builtin', ext: '.c', count: 140, kb: 25 },
  { dir: 'Documentation', ext: '.adoc', count: 700, kb: 9 },
  { dir: 'Documentation/RelNotes', ext: '.adoc', count: 300, kb: 4 },
  { dir: 'Documentation/technical', ext: '.adoc', count: 70, kb: 12 },
  { dir: 't', ext: '.sh', count: 1350, kb: 10 },
  { dir: 't/helper', ext: '.c', count: 90, kb: 5 },
  { dir: 't/t4013', ext: '', count: 450, kb: 1 },
  { dir: 't/t3900', ext: '.txt', count: 300, kb: 1 },
  { dir: 'po', ext: '.po', count: 22, kb: 900 },
  { dir: 'compat', ext: '.c', count: 250, kb: 8 },
  { dir: 'contrib', ext: '.sh', count: 400, kb: 7 },
  { dir: 'xdiff', ext: '.c', count: 20, kb: 15 },
  { dir: 'refs', ext: '.c', count: 12, kb: 40 },
  { dir: 'reftable', ext: '.c', count: 60, kb: 12 },
  { dir: 'gitweb', ext: '.perl', count: 20, kb: 30 },
  { dir: 'perl', ext: '.pm', count: 30, kb: 10 },
  { dir: 'ci', ext: '.sh', count: 25, kb: 3 },
  { dir: 'templates', ext: '.sample', count: 21, kb: 2 },
];
// The first commit's size; the history's edits add about 3 MB, for ~60 MB checked out at the end.
const TARGET_BYTES = 57_000_000;
const WORDS = (
  'static int void char const struct return if else for while size_t unsigned strbuf repo commit tree ' +
  'blob object oid hash path index worktree branch ref remote config die error warning free alloc ' +
  'test_expect_success git diff apply merge rebase pack fetch push the a of to in is and that with'
).split(' ');

/** xorshift32: a small, fast, seeded generator. */
function prng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function textOfSize(bytes, rand) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const indent = '\t'.repeat(Math.floor(rand() * 3));
    const words = [];
    for (let n = 2 + Math.floor(rand() * 9); n > 0; n--) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
    const line = `${indent}${words.join(' ')};\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

function planFiles(rand) {
  const files = [];
  for (const { dir, ext, count, kb } of LAYOUT) {
    for (let i = 0; i < count; i++) {
      // Log-normal-ish spread around the folder's typical size.
      const size = kb * 1024 * Math.exp((rand() + rand() + rand() - 1.5) * 1.2);
      const name = `${dir ? `${dir}/` : ''}f${String(i).padStart(4, '0')}${ext}`;
      files.push({ name, size });
    }
  }
  const scale = TARGET_BYTES / files.reduce((sum, f) => sum + f.size, 0);
  for (const f of files) f.size = Math.max(64, Math.round(f.size * scale));
  return files;
}

/** Writes a fast-import stream: one commit with the whole tree, then `commits - 1` small edits. */
async function writeHistory(stdin, commits, seed) {
  const rand = prng(seed);
  const files = planFiles(rand);
  const content = new Map(files.map((f) => [f.name, textOfSize(f.size, rand)]));
  const small = files.filter((f) => f.size < 64 * 1024).map((f) => f.name);
  let when = 1_100_000_000;
  const write = (chunk) =>
    stdin.write(chunk) ? Promise.resolve() : new Promise((r) => stdin.once('drain', r));
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let c = 1; c <= commits; c++) {
    when += 600 + Math.floor(rand() * 20_000);
    const author = `Dev ${Math.floor(rand() * 400)} <dev@example.com> ${when} +0000`;
    const parts = [`commit refs/heads/main\nmark :${c}\nauthor ${author}\ncommitter ${author}\n`];
    parts.push(data(`change ${c}: ${WORDS[c % WORDS.length]} ${WORDS[(c * 7) % WORDS.length]}`));
    if (c > 1) parts.push(`from :${c - 1}\n`);
    let changed;
    if (c === 1) changed = [...content.keys()];
    else {
      changed = new Set();
      // Edits land on ordinary source files; the translations (po/) are rewritten now and then.
      for (let n = 1 + Math.floor(rand() * 3); n > 0; n--)
        changed.add(small[Math.floor(rand() * small.length)]);
      if (c % 500 === 0) changed.add(files.find((f) => f.name.startsWith('po/')).name);
      for (const name of changed) {
        const old = content.get(name);
        const at = Math.floor(rand() * old.length);
        const cut = old.indexOf('\n', at) + 1 || old.length;
        content.set(name, old.slice(0, cut) + textOfSize(80 + rand() * 400, rand) + old.slice(cut));
      }
    }
    await write(parts.join(''));
    for (const name of changed) await write(`M 100644 inline ${name}\n${data(content.get(name))}`);
  }
  stdin.end();
}

/**
 * The path of the generated repository (a normal clone: work tree + .git), generating it when the cache
 * does not hold this recipe yet. Progress goes to `log`.
 */
export async function gitShapedRepository(cacheDir, { commits = 5000, seed = 42, log = () => {} } = {}) {
  const recipe = JSON.stringify({ RECIPE_VERSION, commits, seed, TARGET_BYTES });
  const repo = path.join(cacheDir, `git-shaped-${commits}`);
  const stamp = `${repo}.recipe`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === recipe) return repo;
  fs.rmSync(repo, { recursive: true, force: true });
  fs.rmSync(stamp, { force: true });
  fs.mkdirSync(repo, { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  git('init', '--quiet', '--initial-branch=main');
  log(`generating ${repo}: ${commits} commits with git fast-import`);
  const started = Date.now();
  const importer = spawn('git', ['fast-import', '--quiet'], {
    cwd: repo,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve, reject) =>
    importer.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`)),
    ),
  );
  await writeHistory(importer.stdin, commits, seed);
  await exited;
  git('reset', '--quiet', '--hard', 'main');
  log(`generated in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  fs.writeFileSync(stamp, recipe);
  return repo;
}

/** A private clone of a repository given by path, so the benchmark never touches the original. */
export function cloneOf(source, cacheDir, log = () => {}) {
  const real = fs.realpathSync(source);
  const target = path.join(cacheDir, `clone-${real.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`);
  if (!fs.existsSync(path.join(target, '.git'))) {
    log(`cloning ${real} into ${target}`);
    fs.mkdirSync(cacheDir, { recursive: true });
    execFileSync('git', ['clone', '--quiet', '--', real, target], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return target;
}

/** Files, checked-out bytes and commits of a repository, for the report. */
export function repositoryShape(repo) {
  const out = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });
  const files = out('ls-tree', '-r', '-l', 'HEAD')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split(/\s+/)[3]) || 0);
  return {
    files: files.length,
    bytes: files.reduce((a, b) => a + b, 0),
    commits: Number(out('rev-list', '--count', 'HEAD').trim()),
  };
}

/**
 * Gives a benchmark repository an `origin` that has its commits (a bare repository beside it, made once),
 * as a CI checkout has: without one, every commit of the repository counts as "on no remote", and a
 * transient sandbox's post step keeps the sandbox as holding work.
 */
export function withOrigin(repo) {
  const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  // A clone's origin is the repository it came from, which has its commits: never pushed to.
  if (spawnSync('git', ['-C', repo, 'remote', 'get-url', 'origin'], { stdio: 'ignore' }).status === 0)
    return repo;
  const origin = `${repo}.origin.git`;
  fs.rmSync(origin, { recursive: true, force: true });
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  git('remote', 'add', 'origin', origin);
  git('push', '--quiet', 'origin', 'HEAD:refs/heads/main');
  git('fetch', '--quiet', 'origin');
  return repo;
}
