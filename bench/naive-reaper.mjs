// BASELINE for bench/reap.bench.mjs, not part of the action: the naive reaper that the issue compares
// against. It classifies each sandbox by asking git (one `git symbolic-ref` process per sandbox: branch
// or detached HEAD, the "git introspection" ADR 0029 rejected), removes what is older than the class's
// expiry by folder mtime, then runs `git worktree prune` in each parent (ADR 0026's stateless reaper).
// It checks for no work at all: it is only a yardstick for speed.
//
//   node bench/naive-reaper.mjs ROOT [HEADLESS_DAYS=30] [BRANCH_DAYS=90]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const [root, headless = '30', branch = '90'] = process.argv.slice(2);
const now = Date.now();
const parents = new Set();
let removed = 0;
for (const project of fs.readdirSync(root)) {
  for (const name of fs.readdirSync(path.join(root, project))) {
    const dir = path.join(root, project, name);
    const onBranch = spawnSync('git', ['-C', dir, 'symbolic-ref', '-q', 'HEAD']).status === 0;
    const gitdir = /^gitdir: (.+)$/m.exec(fs.readFileSync(path.join(dir, '.git'), 'utf8'))?.[1];
    if (gitdir) parents.add(path.resolve(dir, gitdir.trim(), '../../..'));
    const days = (now - fs.statSync(dir).mtimeMs) / 86_400_000;
    if (days > Number(onBranch ? branch : headless)) {
      fs.rmSync(dir, { recursive: true, force: true });
      removed++;
    }
  }
}
for (const parent of parents) spawnSync('git', ['-C', parent, 'worktree', 'prune']);
console.log(JSON.stringify({ removed }));
