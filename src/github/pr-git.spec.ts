import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Git } from '../engine/git.js';
import { listCommits, MAX_LISTED_COMMITS } from './pr-git.js';

describe("the pull request bot's list of commits", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-listed-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists the newest commits only, oldest first, subjects cut, and says when older ones were left out', async () => {
    execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir]);
    // MAX_LISTED_COMMITS + 2 commits in one fast-import; the last subject 5,000 characters long.
    const total = MAX_LISTED_COMMITS + 2;
    let stream = '';
    for (let n = 1; n <= total; n++) {
      const subject = n === total ? 'x'.repeat(5_000) : `commit ${n}`;
      stream += `commit refs/heads/main\ncommitter t <t@e> ${1_700_000_000 + n} +0000\ndata ${subject.length + 1}\n${subject}\n\n`;
    }
    execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream });
    const cli = await Git.create();
    const rev = (r: string) => execFileSync('git', ['rev-parse', r], { cwd: dir, encoding: 'utf8' }).trim();
    const listed = await listCommits(cli, dir, rev(`main~${total - 1}`), rev('main'));
    expect(listed.more).toBe(true);
    expect(listed.commits).toHaveLength(MAX_LISTED_COMMITS);
    expect(listed.commits[0].subject).toBe(`commit ${total - MAX_LISTED_COMMITS + 1}`);
    expect(listed.commits.at(-1)!.sha).toBe(rev('main'));
    expect(listed.commits.at(-1)!.subject.length).toBeLessThanOrEqual(200);
    const few = await listCommits(cli, dir, rev('main~3'), rev('main'));
    expect(few.more).toBe(false);
    expect(few.commits.map((c) => c.subject.slice(0, 10))).toEqual([
      `commit ${total - 2}`,
      `commit ${total - 1}`,
      'x'.repeat(10),
    ]);
  });
});
