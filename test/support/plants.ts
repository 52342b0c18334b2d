// A hostile command: plants, in the parent's .git and in its own worktree, everything that could make a
// later git command on the host run a program (each program touches a marker file named after its plant)
// or redirect anything; moves `main`, the sandbox branch's remote-tracking ref, and adds a tag.
// It also does real work (a commit and an uncommitted change), which must survive.
//
// Run in the container with M = the host's marker folder (absent there), or on a host copy of a
// repository as the control that proves every plant is live (see `plantsAreLive`).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from './repo.js';

/** Markers a live plant writes; the tests expect none of them on the host. */
export const PLANT_MARKERS = [
  'hook-pre-commit',
  'hook-post-commit',
  'hook-reference-transaction',
  'hookspath-pre-commit',
  'fsmonitor',
  'worktree-fsmonitor',
  'ssh',
  'filter-clean',
  'textconv',
  'credential-helper',
  'include-credential-helper',
  'submodule-fsmonitor',
  'gitfile-filter',
];

// $1: marker folder; $2 = keep-gitfile leaves the worktree's .git file alone (for the control). Environment: P (parent), W (worktree, the current folder).
const HEADER = `set -u
M="$1"; G="$P/.git"; W="$(pwd)"
prog() { printf '#!/bin/sh\\ntouch "%s/%s"\\n' "$M" "$2" > "$1"; chmod +x "$1"; }
`;
const BODY = `# Real work first: one commit and one uncommitted change.
echo "work of the command" >> README.md
git add README.md && git commit -q -m "work committed by the command"
echo "uncommitted work" >> src/app.js
# Hooks in the shared hooks folder.
for h in pre-commit post-commit reference-transaction; do prog "$G/hooks/$h" "hook-$h"; done
# core.hooksPath to a folder of its own.
mkdir -p "$G/info/evil-hooks"; prog "$G/info/evil-hooks/pre-commit" hookspath-pre-commit
# Programs referenced by config.
prog "$G/hooks/x-fsmonitor" fsmonitor
prog "$G/hooks/x-worktree-fsmonitor" worktree-fsmonitor
prog "$G/hooks/x-ssh" ssh
prog "$G/hooks/x-clean" filter-clean
prog "$G/hooks/x-textconv" textconv
prog "$G/hooks/x-cred" credential-helper
prog "$G/hooks/x-include-cred" include-credential-helper
C="git config --file $G/config"
$C core.hooksPath "$G/info/evil-hooks"
$C core.fsmonitor "$G/hooks/x-fsmonitor"
$C core.sshCommand "$G/hooks/x-ssh"
$C filter.evil.clean "$G/hooks/x-clean"
$C filter.evil.smudge "$G/hooks/x-clean"
$C diff.evil.textconv "$G/hooks/x-textconv"
$C credential.helper "$G/hooks/x-cred"
printf '[credential]\\n\\thelper = %s\\n' "$G/hooks/x-include-cred" > "$G/info/evil.config"
$C includeIf.gitdir:/.path "$G/info/evil.config"
$C extensions.worktreeConfig true
printf '* filter=evil diff=evil\\n' >> "$G/info/attributes"
printf '* filter=evil diff=evil\\n' > .gitattributes
printf 'README.md\\n' >> "$G/info/exclude"
# The worktree's own config (config.worktree in its admin folder).
if [ -f .git ]; then
  admin="$(sed -n 's/^gitdir: //p' .git)"
  printf '[core]\\n\\tfsmonitor = %s\\n' "$G/hooks/x-worktree-fsmonitor" > "$admin/config.worktree"
fi
# Refs: move main, move the remote-tracking ref of its own branch, add a tag.
evil="$(git commit-tree -m evil "HEAD^{tree}")"
git update-ref refs/heads/main "$evil"
branch="$(git symbolic-ref --quiet --short HEAD || true)"
[ -n "$branch" ] && git update-ref "refs/remotes/origin/$branch" HEAD
git update-ref refs/tags/planted "$evil"
# A submodule with a repository (and config) of its own, registered in the index.
mkdir -p sub && git -C sub init -q && git -C sub config core.fsmonitor "$G/hooks/x-submodule-fsmonitor"
prog "$G/hooks/x-submodule-fsmonitor" submodule-fsmonitor
git -C sub commit -q --allow-empty -m sub
git update-index --add --cacheinfo "160000,$(git -C sub rev-parse HEAD),sub"
echo change > sub/file
`;
const GITFILE = `# Last: the worktree's .git file pointed at a repository of its own, with its own config.
if [ -f .git ] && [ "\${2:-}" != keep-gitfile ]; then
  git init -q --bare "$W/.evil-git"
  git --git-dir="$W/.evil-git" config core.bare false
  git --git-dir="$W/.evil-git" config filter.evil.clean "$G/hooks/x-gitfile-filter"
  prog "$G/hooks/x-gitfile-filter" gitfile-filter
  printf 'gitdir: %s\\n' "$W/.evil-git" > .git
fi
`;
export const PLANT_SCRIPT = `${HEADER}${BODY}${GITFILE}echo planted\n`;

const plainEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Control',
  GIT_AUTHOR_EMAIL: 'control@example.com',
  GIT_COMMITTER_NAME: 'Control',
  GIT_COMMITTER_EMAIL: 'control@example.com',
  GIT_TERMINAL_PROMPT: '0',
};

/** What a later job on the runner does in a repository: plain git, no hardening. */
export function everydayGit(repo: string, ...config: string[]): void {
  const run = (args: string[], input = '') => {
    try {
      execFileSync('git', ['-c', 'safe.directory=*', ...config, ...args], {
        cwd: repo,
        env: plainEnv,
        stdio: 'pipe',
        input,
        timeout: 20_000,
      });
    } catch {
      /* failures are expected (no ssh host, no credentials): only what runs matters */
    }
  };
  run(['status']);
  run(['diff']);
  run(['add', '-A']);
  run(['commit', '-q', '--allow-empty', '-m', 'later job']);
  run(['ls-remote', 'ssh://example.invalid/repo.git']);
  run(['credential', 'fill'], 'protocol=https\nhost=example.invalid\n\n');
}

/**
 * The control: plants on a plain clone and a linked worktree of it on the host, runs everyday git, and
 * returns the markers that appeared: they prove each plant would run if it were left in place.
 */
export function plantsAreLive(source: string, scratch: string, markers: string): string[] {
  const clone = path.join(scratch, 'control');
  const worktree = path.join(scratch, 'control-wt');
  git(scratch, 'clone', '-q', source, clone);
  git(clone, 'worktree', 'add', '-q', '-b', 'control', worktree);
  execFileSync('sh', ['-c', PLANT_SCRIPT, 'plant', markers, 'keep-gitfile'], {
    cwd: worktree,
    env: { ...plainEnv, P: clone },
    stdio: 'ignore',
  });
  everydayGit(worktree);
  // The main work tree reads .git/config alone (config.worktree applies to the linked worktree only).
  everydayGit(clone);
  // core.hooksPath wins over .git/hooks: show that the hooks there are live too.
  everydayGit(worktree, '-c', `core.hooksPath=${path.join(clone, '.git', 'hooks')}`);
  // Then the worktree's .git file pointed at a repository of the command's making.
  execFileSync('sh', ['-c', HEADER + GITFILE, 'plant', markers], {
    cwd: worktree,
    env: { ...plainEnv, P: clone },
    stdio: 'ignore',
  });
  everydayGit(worktree);
  return fs.readdirSync(markers).sort();
}
