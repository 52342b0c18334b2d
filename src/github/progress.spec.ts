import { describe, expect, it } from '@jest/globals';
import { Redaction } from '../run/redaction.js';
import { PROGRESS_MARKER } from './event.js';
import {
  fence,
  formatDuration,
  MAX_COMMENT,
  renderFailed,
  renderFinished,
  renderRunning,
  renderStopped,
  type FinishedRun,
  type ProgressContext,
} from './progress.js';

const none = Redaction.none.redact;
const redactionOf = (value: string) => Redaction.of([{ name: 'secret', value }]).redact;

const ctx: ProgressContext = {
  what: '/fix',
  requester: 'alice',
  runUrl: 'https://github.com/o/r/actions/runs/42',
  branch: 'feature',
  headSha: 'abcdef0123456789abcdef0123456789abcdef01',
};
const run: FinishedRun = {
  exitCode: 0,
  timedOut: false,
  oomKilled: false,
  durationMs: 12_345,
  filesChanged: ['README.md', 'src/app.js'],
  filesChangedCount: 2,
  diffStat: ' README.md  | 1 +\n src/app.js | 2 +-',
  commits: [
    { sha: '1111111aaaaaaa', subject: 'fix: the typo', url: 'https://github.com/o/r/commit/1111111aaaaaaa' },
  ],
  pushed: true,
  pushedTo: 'origin/feature',
  tail: ['building', 'done'],
};

describe('progress comment', () => {
  it('says who asked, where and how to follow while running', () => {
    const body = renderRunning(ctx);
    expect(body.startsWith(PROGRESS_MARKER)).toBe(true);
    expect(body).toContain('⏳ `/fix` is running');
    expect(body).toContain('@alice');
    expect(body).toContain('[workflow run](https://github.com/o/r/actions/runs/42)');
    expect(body).toContain('`feature` at `abcdef012345`');
  });

  it('reports exit code, duration, files, commits with links and the log tail when finished', () => {
    const body = renderFinished(ctx, run, none);
    expect(body.startsWith(PROGRESS_MARKER)).toBe(true);
    expect(body).toContain('### ✅ `/fix` finished');
    expect(body).toContain('| Exit code | 0 |');
    expect(body).toContain('| Duration | 12.3 s |');
    expect(body).toContain('| Files changed | 2 |');
    expect(body).toContain('| Commits | 1 pushed to `origin/feature` |');
    expect(body).toContain('- [`1111111`](https://github.com/o/r/commit/1111111aaaaaaa) `fix: the typo`');
    expect(body).toContain('```\n README.md  | 1 +\n src/app.js | 2 +-\n```');
    expect(body).toContain('```\nbuilding\ndone\n```');
  });

  it('shows the model usage totals the proxy metered, and none when there were none', () => {
    const usage =
      '3 request(s), 1,200 input and 300 output tokens, stopped by `max-model-requests` (2 refused)';
    expect(renderFinished(ctx, { ...run, modelUsage: usage }, none)).toContain(`| Model usage | ${usage} |`);
    expect(renderFinished(ctx, run, none)).not.toContain('Model usage');
  });

  it('shows failures, unpushed commits with the reason, and the patch inline', () => {
    const failed: FinishedRun = {
      ...run,
      exitCode: 2,
      pushed: false,
      pushedTo: undefined,
      pushReason: 'origin/feature has moved on',
      commits: [{ sha: '2222222bbbbbbb', subject: 'wip' }],
      patch: { path: '/tmp/x/pr-7.patch', text: 'From 2222 Mon Sep 17\nSubject: [PATCH] wip\n' },
    };
    const body = renderFinished(ctx, failed, none);
    expect(body).toContain('### ❌ `/fix` failed');
    expect(body).toContain('| Commits | 1, not pushed: origin/feature has moved on |');
    expect(body).toContain('**Commits (not pushed)**');
    expect(body).toContain('- `2222222` `wip`');
    expect(body).toContain('| Patch | saved as `/tmp/x/pr-7.patch` (output `patch-path`) |');
    expect(body).toContain('```diff\nFrom 2222 Mon Sep 17\nSubject: [PATCH] wip\n\n```');
    expect(renderFinished(ctx, { ...run, exitCode: 124, timedOut: true }, none)).toContain(
      '⏱ `/fix` timed out',
    );
  });

  it('keeps what the command wrote inert: code blocks, no mentions, no early fence end, secrets redacted', () => {
    const hostile: FinishedRun = {
      ...run,
      commits: [{ sha: '3333333', subject: '@everyone `pwn` | x' }],
      tail: ['```', '</details><img src=x onerror=alert(1)>', 'token=s3cr3t-value'],
    };
    const body = renderFinished(ctx, hostile, redactionOf('s3cr3t-value'));
    expect(body).not.toContain('s3cr3t-value');
    expect(body).toContain('token=***');
    expect(body).toContain('````\n```\n</details><img src=x onerror=alert(1)>\ntoken=***\n````');
    expect(body).toContain('- `3333333` ``@everyone `pwn` | x``');
  });

  it('stays under the comment size limit', () => {
    const huge: FinishedRun = {
      ...run,
      // the report keeps the first 1,000 names and counts the rest
      filesChanged: Array.from({ length: 1000 }, (_, i) => `file-${i}.txt`),
      filesChangedCount: 5000,
      diffStat: '',
      tail: Array.from({ length: 40 }, () => 'x'.repeat(10_000)),
      patch: { path: '/p', text: 'y'.repeat(29_000) },
    };
    const body = renderFinished(ctx, huge, none);
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT);
    expect(body).toContain('… and 4900 more');
  });

  it('says when the run could not start or was stopped', () => {
    expect(renderFailed(ctx, 'image missing; token abcd1234abcd', redactionOf('abcd1234abcd'))).toContain(
      '```\nimage missing; token ***\n```',
    );
    const stopped = renderStopped(ctx);
    expect(stopped.startsWith(PROGRESS_MARKER)).toBe(true);
    expect(stopped).toContain('🛑 `/fix` stopped before it finished');
    expect(renderStopped(undefined)).toContain('🛑 The run stopped before it finished');
  });
});

describe('helpers', () => {
  it('fences with more backticks than the text holds', () => {
    expect(fence('a ```` b')).toBe('`````\na ```` b\n`````');
    expect(fence('plain')).toBe('```\nplain\n```');
  });

  it('formats durations for people', () => {
    expect(formatDuration(950)).toBe('0.9 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});
