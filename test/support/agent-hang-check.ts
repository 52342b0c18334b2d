// The check of test/support/agent-recipe-tests.ts that a command stuck on a question nobody answers (what a
// CLI waiting on a login or a trust dialog does) ends at its `timeout-minutes`: exit 124, said in the log,
// its container gone, and what it committed before the question pushed. It runs through the recipe
// harness with the command swapped, so it does not depend on any one CLI.
import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import type { RecipeRun, runRecipe } from './agent-recipes.js';
import { refOf } from './pull-requests.js';
import { git } from './repo.js';

/** A short `timeout-minutes` (the input takes fractions), and what the run may take past it. */
const HANG_LIMIT_MS = 15_000;
const HANG_MARGIN_MS = 30_000;
const HANG_FILE = 'BEFORE_THE_QUESTION.md';
const HANG_TEXT = 'committed before the command asked';

/** `recipeRun`: the recipe run against a fresh fake, with these options. */
export async function hangCheck(
  recipeRun: (options: Partial<Parameters<typeof runRecipe>[0]>) => Promise<RecipeRun>,
): Promise<void> {
  // What a CLI stuck on a login or trust dialog does: it asks, then waits for an answer that never
  // comes (a pipe nobody writes to; the container has no terminal, so /dev/tty would fail at once).
  const asks = [
    'echo "agent container $(hostname)"',
    `printf '%s\\n' '${HANG_TEXT}' > ${HANG_FILE}`,
    `git add ${HANG_FILE} && git commit -q -m 'work before the question'`,
    'mkfifo "$HOME/answer"',
    'printf "Trust this folder? [y/N] "',
    'read -r answer < "$HOME/answer"',
  ].join('\n');
  const began = Date.now();
  const run = await recipeRun({
    edit: () => asks,
    inputs: { 'timeout-minutes': String(HANG_LIMIT_MS / 60_000) },
  });
  const hostEnded = Date.now();
  const { main, github, repos } = run;
  await github.close();
  const log = `${main.stdout}\n${main.stderr}`;
  const said = /The command was stopped by timeout-minutes after (\d+\.\d)s \(exit code 124\)/.exec(log);
  const container = /^agent container ([0-9a-f]{12})$/m.exec(main.stdout)?.[1] ?? '';
  console.log(
    `hung command: stopped after ${said?.[1]} s (limit ${HANG_LIMIT_MS / 1000} s); both steps ended ` +
      `${hostEnded - run.startedAt} ms after the command started, ${hostEnded - began} ms after the run began`,
  );
  expect({
    exitCode: main.outputs['exit-code'],
    saidInLog: said !== null,
    // The question was asked, and the command never got past it.
    asked: main.stdout.includes('Trust this folder?'),
    endedOnItsOwn: Number.isFinite(run.endedAt),
  }).toEqual({ exitCode: '124', saidInLog: true, asked: true, endedOnItsOwn: false });
  const seconds = Number(said?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(HANG_LIMIT_MS / 1000);
  expect(seconds).toBeLessThan(HANG_LIMIT_MS / 1000 + 5);
  // Judged on the host: the run (main and post steps) ended within the limit plus a margin.
  expect(hostEnded - run.startedAt).toBeLessThan(HANG_LIMIT_MS + HANG_MARGIN_MS);
  // The container this run made is gone (by its id, not by the engine's whole list).
  expect(container).not.toBe('');
  expect(
    execFileSync('docker', ['ps', '-aq', '--no-trunc', '--filter', `id=${container}`], {
      encoding: 'utf8',
      timeout: 30_000,
    }).trim(),
  ).toBe('');
  // What was committed before the question came back and was pushed.
  const pushed = refOf(repos.origin, `refs/heads/${repos.branch}`);
  expect(pushed).toBe(main.outputs['head-sha']);
  expect(git(repos.origin, '-c', 'safe.directory=*', 'show', `${pushed}:${HANG_FILE}`)).toBe(HANG_TEXT);
}
