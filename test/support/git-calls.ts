// The action's own git wrapper, with every git process it starts recorded: for specs that check which
// commands a step runs (how many processes, and never the ones it should not need).
import { Git } from '../../src/engine/git.js';

/** A Git whose processes are recorded in `ran` (the arguments of each; `cat-file --batch` for a batch read). */
export async function recordingGit(): Promise<{ git: Git; ran: string[][] }> {
  const git = await Git.create();
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
