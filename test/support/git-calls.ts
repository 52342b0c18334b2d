// The action's own git wrapper, with every git process it starts recorded: for specs that check which
// commands a step runs (how many processes, and never the ones it should not need).
import { Git } from '../../src/engine/git.js';

let checked: Promise<Git> | undefined;

/** A Git whose processes are recorded in `ran` (the arguments of each; `cat-file --batch` for a batch read). */
export async function recordingGit(): Promise<{ git: Git; ran: string[][] }> {
  // Git.create checks git's version (a process of its own): once per spec file, each recorder a view of
  // that one Git with its own record.
  const git = Object.create(await (checked ??= Git.create())) as Git;
  const ran: string[][] = [];
  const exec = git.exec.bind(git);
  git.exec = (cwd, args, options) => {
    ran.push([...args]);
    return exec(cwd, args, options);
  };
  const readSmallObjects = git.readSmallObjects.bind(git);
  git.readSmallObjects = (cwd, names, maxBytes) => {
    ran.push(['cat-file', '--batch']);
    return readSmallObjects(cwd, names, maxBytes);
  };
  return { git, ran };
}
