// What a sandbox prints or names reaches the runner's log only as data (docs/security-model.md, "What comes
// back"): no file
// name, commit subject or output line can act as a workflow command, and a command that prints a
// gigabyte leaves the step alive in bounded memory, its container gone.
import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { runMainAndPost, runStep } from '../support/action.js';
import { containersWithLabel, removeVolumes, uniquePrefix } from '../support/docker.js';
import { TEST_IMAGE, runnerIds } from '../support/env.js';
import { makeRepo, type TestRepo } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';

const repos: TestRepo[] = [];
const prefixes: string[] = [];
afterAll(() => {
  for (const p of prefixes) removeVolumes(p);
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

function setup() {
  const ids = runnerIds();
  const repo = makeRepo({ owner: ids });
  repos.push(repo);
  const prefix = uniquePrefix('out');
  prefixes.push(prefix);
  return {
    repo,
    inputs: (more: Record<string, string>) => ({
      mode: 'run',
      image: TEST_IMAGE,
      'repository-path': repo.parent,
      'volume-prefix': prefix,
      ...more,
    }),
  };
}

/**
 * The lines the runner would read as commands: every line outside a `::stop-commands::<token>` …
 * `::<token>::` fence.
 */
function unfencedLines(stdout: string): string[] {
  const lines: string[] = [];
  let token: string | undefined;
  for (const line of stdout.split('\n')) {
    if (token) {
      if (line === `::${token}::`) token = undefined;
      continue;
    }
    const open = /^::stop-commands::(.+)$/.exec(line);
    if (open) token = open[1];
    else lines.push(line);
  }
  expect(token).toBeUndefined(); // every fence is closed
  return lines;
}

describe('workflow commands', () => {
  it('hostile file names, commit subjects and output never reach the log outside a fence', async () => {
    const { inputs } = setup();
    const command = [
      `printf x > "$(printf 'evil\\n::error title=pwned::by a file name')"`,
      `printf x > '::warning::pwned by a plain file name'`,
      `printf x > '%0A::error::pwned%0Aescaped'`,
      `git add -A && git commit -qm "$(printf '::error::pwned by a subject\\n\\n::set-env name=X::pwned')"`,
      `printf x > "$(printf 'uncommitted\\n::error::pwned by an untracked name')"`,
      `echo "::error::pwned by output"`,
    ].join('; ');
    for (const isolation of ['container', 'disk']) {
      const { main, post } = await runMainAndPost({
        inputs: inputs({ isolation, branch: `names-${isolation}`, cleanup: 'always', command }),
        asRunner: true,
      });
      expect(main.code).toBe(0);
      expect(post.code).toBe(0);
      // the names did come back (the report saw them) ...
      expect(Number(main.outputs['files-changed'])).toBe(4);
      expect(main.stdout).toContain('by a file name');
      // ... but only inside fences (the one other line is the log group's title: the workflow's own
      // command text, escaped by the toolkit as data of ::group::)
      for (const step of [main, post]) {
        const loose = unfencedLines(step.stdout).filter(
          (l) => /pwned/.test(l) && !l.startsWith('::group::Run: '),
        );
        expect(loose).toEqual([]);
      }
    }
  });
});

describe.each(nodeRuntimes())('a command that prints a gigabyte ($name)', ({ execPath }) => {
  it('is streamed: the step stays under 100 MB of memory and its container is gone', async () => {
    const { inputs } = setup();
    const line = '0123456789'.repeat(10);
    // 1 GB of 101-byte lines, then one line of 64 MB without a newline (cut, never held whole).
    const command = `yes ${line} | head -c 1000000000; head -c 67108864 /dev/zero | tr '\\0' a; echo; echo done-printing`;
    const started = Date.now();
    const main = await runStep({
      inputs: inputs({ isolation: 'container', command }),
      asRunner: true,
      discardStdout: true,
      node: execPath,
      timeoutMs: 900_000,
    });
    const seconds = (Date.now() - started) / 1000;
    const rss = main.peakRssKb;
    process.stdout.write(
      `1 GB of output: ${seconds.toFixed(1)} s, peak RSS ${(rss / 1024).toFixed(1)} MiB\n`,
    );
    expect(main.code).toBe(0);
    expect(main.stdout).toContain('done-printing');
    expect(main.stdoutBytes).toBeGreaterThan(1_000_000_000);
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(100 * 1024);
    expect(containersWithLabel(`worktree-sandbox.sandbox=${main.outputs.sandbox}`)).toEqual([]);
  }, 900_000);
});
