// Generated .gitignore cases for the host's ignore decision (src/reap/ignored.ts): a repository with
// .gitignore files tracked at several folder levels and untracked paths anywhere, from a seed, so that
// a failing case can be made again. Shared by the spec beside ignored.ts and the integration test that
// holds the decision against git itself over many seeds.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A small deterministic generator, so that a failure can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

const DIRS = ['a', 'b', 'build', 'node_modules', 'src', 'out.d'];
const FILES = ['x.log', 'y.txt', 'z', 'build', 'keep.log', 'a.tmp', '.env', 'out.js'];
const PATTERN_PARTS = [
  'a',
  'b',
  'build',
  'node_modules',
  'src',
  '*.log',
  '*.tmp',
  'z',
  '*',
  '?.txt',
  'x.*',
  'out*',
  '.env',
  '**',
];

function pattern(rng: ReturnType<typeof random>): string {
  const depth = rng.next() < 0.7 ? 1 : 2;
  let p = Array.from({ length: depth }, () => rng.pick(PATTERN_PARTS)).join('/');
  if (rng.next() < 0.2) p = `/${p}`;
  if (rng.next() < 0.3) p = `${p}/`;
  if (rng.next() < 0.25) p = `!${p}`;
  if (rng.next() < 0.1) p = `# ${p}`;
  return p;
}

/**
 * A temporary repository from `seed`: its tracked .gitignore files (by folder), the index's tree (what
 * HEAD's would be) and untracked files.
 */
export function scenario(seed: number) {
  const rng = random(seed);
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-ignored-'));
  git(repo, 'init', '--quiet', '--template=', '--initial-branch=main');
  // Tracked folders, each with a file, some with a .gitignore; the top always has one.
  const levels = ['', 'a', 'a/b', 'src', 'build'].filter((d, i) => i === 0 || rng.next() < 0.5);
  const gitignores = new Map<string, string>();
  for (const dir of levels) {
    fs.mkdirSync(path.join(repo, dir), { recursive: true });
    fs.writeFileSync(path.join(repo, dir, 'tracked.md'), 'tracked\n');
    if (dir === '' || rng.next() < 0.25) {
      const text = `${Array.from({ length: 1 + Math.floor(rng.next() * 5) }, () => pattern(rng)).join('\n')}\n`;
      fs.writeFileSync(path.join(repo, dir, '.gitignore'), text);
      gitignores.set(dir, text);
    }
  }
  git(repo, 'add', '-f', '-A');
  // The index's tree, as a commit would record it (write-tree stores it in the index, as commit does):
  // one git process fewer per case than commit and rev-parse.
  const tree = git(repo, 'write-tree').trim();
  // Untracked files anywhere, in tracked folders and in new ones.
  for (let i = 0; i < 30; i++) {
    const depth = Math.floor(rng.next() * 3);
    const base = rng.next() < 0.5 ? rng.pick(levels) : '';
    const dir = path.join(base, ...Array.from({ length: depth }, () => rng.pick(DIRS)));
    const file = path.join(repo, dir, rng.pick(FILES));
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (!fs.existsSync(file)) fs.writeFileSync(file, 'untracked\n');
    } catch {
      /* a file where a folder was wanted: skip */
    }
  }
  return { repo, gitignores, tree };
}

/** git's own list of untracked files that are not ignored (what `git status` reports). */
export function gitUntracked(repo: string): string[] {
  return git(repo, 'ls-files', '--others', '--exclude-standard', '-z').split('\0').filter(Boolean).sort();
}
