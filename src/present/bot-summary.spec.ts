// The job summary of a bot run, byte for byte: its head (a pull request or a branch, who asked and how),
// what left or why nothing did, and an issue's pull request line.
import { describe, expect, it } from '@jest/globals';
import type { FinishedRun, ProgressContext } from '../run/progress-data.js';
import { blockedSummary, botText, noRunSummary, summary } from './bot-summary.js';
import { finished } from './progress-comment.js';

const ctx: ProgressContext = {
  what: '/fix',
  requester: 'alice',
  runUrl: 'https://x.test/run',
  branch: 'feature',
};
const run: FinishedRun = {
  exitCode: 0,
  timedOut: false,
  oomKilled: false,
  durationMs: 1000,
  filesChanged: [],
  filesChangedCount: 0,
  diffStat: '',
  commits: [{ sha: 'a'.repeat(40), subject: 'fix' }],
  pushed: true,
  pushedTo: 'origin/feature',
  tail: [],
};
const fromComment = { prNumber: 7, trigger: '/fix', event: 'issue_comment' };

describe('summary', () => {
  it('names the pull request, who asked and how, and where the commits went', () => {
    expect(summary(ctx, fromComment, run)).toBe(
      '## worktree-sandbox: pull request #7\n\nStarted by @alice (comment /fix).\nPushed 1 commit(s) to <code>origin/feature</code>.\n\n',
    );
  });

  it('names the branch and the event without a pull request or a comment; says why nothing was pushed, the patch and the masked tail', () => {
    const kept = {
      ...run,
      pushed: false,
      pushReason: 'rejected <b>',
      patch: { path: '/tmp/p.patch', text: '' },
    };
    expect(summary(ctx, { event: 'push' }, { ...kept, tailFound: ['token `x`'] })).toBe(
      [
        '## worktree-sandbox: branch <code>feature</code>',
        '',
        'Started by @alice (push).',
        'Not pushed: rejected &#60;b&#62;.',
        'Patch saved as <code>/tmp/p.patch</code> (output `patch-path`).',
        "The log tail held a secret (`token 'x'`): masked in the comment.",
        '',
        '',
      ].join('\n'),
    );
  });

  it("ends an issue's run with the pull request it opened, or a blank line; the comment ends with it too", () => {
    const issue = { issueNumber: 3, event: 'issues' };
    const head = '## worktree-sandbox: branch <code>feature</code>\n\nStarted by @alice (issues).\n';
    const pushed = 'Pushed 1 commit(s) to <code>origin/feature</code>.\n\n';
    expect(summary(ctx, issue, run)).toBe(`${head}${pushed}\n\n`);
    const opened = { ...run, pullRequest: { number: 9, htmlUrl: 'https://x.test/pull/9' } };
    expect(summary(ctx, issue, opened)).toBe(
      `${head}${pushed}Pull request: [#9](https://x.test/pull/9).\n\n`,
    );
    expect(finished(ctx, opened, (t) => t)).toBe(
      `${finished(ctx, run, (t) => t)}\n\nPull request: [#9](https://x.test/pull/9).`,
    );
  });
});

describe('blockedSummary and noRunSummary', () => {
  it('give counts and the reason, inert', () => {
    const head = '## worktree-sandbox: pull request #7\n\nStarted by @alice (comment /fix).\n';
    const tail =
      " what would have left (secret-scan: block). The step's error names each place (never a value); the sandbox keeps the work for a person to look at.\n\n";
    expect(blockedSummary(ctx, fromComment, 2)).toBe(
      `${head}Nothing pushed and no patch saved: the secret scan found 2 finding(s) in${tail}`,
    );
    expect(blockedSummary(ctx, fromComment, 0)).toBe(
      `${head}Nothing pushed and no patch saved: the secret scan could not scan the whole of${tail}`,
    );
    expect(noRunSummary('closed <b>')).toBe('## worktree-sandbox: no run\n\nclosed &#60;b&#62;.\n');
    expect(botText.summary).toBe(summary);
  });
});
