import { describe, expect, it } from '@jest/globals';
import { ModelMeter } from '../network/model-meter.js';
import { Redaction } from '../run/redaction.js';
import { expectOwnStructure, renderGfm, tagCount } from '../../test/support/cmark.js';
import { HOSTILE_REPLY } from '../../test/support/hostile-reply.js';
import { PROGRESS_MARKER, type FinishedRun, type ProgressContext } from '../run/progress-data.js';
import {
  fitComment,
  formatDuration,
  MAX_COMMENT,
  failed as renderFailed,
  finished as renderFinished,
  running as renderRunning,
  stopped as renderStopped,
} from './progress-comment.js';

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
    expect(body).toContain('<code>feature</code> at <code>abcdef012345</code>');
  });

  it('reports exit code, duration, files, commits with links and the log tail when finished', () => {
    const body = renderFinished(ctx, run, none);
    expect(body.startsWith(PROGRESS_MARKER)).toBe(true);
    expect(body).toContain('### ✅ `/fix` finished');
    expect(body).toContain('| Exit code | 0 |');
    expect(body).toContain('| Duration | 12.3 s |');
    expect(body).toContain('| Files changed | 2 |');
    expect(body).toContain('| Commits | 1 pushed to <code>origin/feature</code> |');
    expect(body).toContain(
      '- [`1111111`](https://github.com/o/r/commit/1111111aaaaaaa) <code>fix: the typo</code>',
    );
    expect(body).toContain('<pre>\n README.md  | 1 +\n src/app.js | 2 +-\n</pre>');
    expect(body).toContain('<pre>\nbuilding\ndone\n</pre>');
  });

  it('shows the model usage totals the proxy metered, and none when there were none', () => {
    const meter = new ModelMeter({ maxRequests: 3, maxTokens: 0 });
    for (let i = 0; i < 3; i++) {
      meter.admit();
      meter.record('a.test', 443, 'anthropic', {
        status: 200,
        scanned: {
          usage: { input: 400, output: 100, cacheRead: 0, cacheWrite: 0 },
          model: 'm',
          overBound: false,
        },
      });
    }
    meter.admit();
    meter.admit();
    const usage =
      '3 request(s), 1,200 input and 300 output tokens, stopped by `max-model-requests` (2 refused)';
    expect(renderFinished(ctx, { ...run, modelUsage: meter.report() }, none)).toContain(
      `| Model usage | ${usage} |`,
    );
    expect(renderFinished(ctx, run, none)).not.toContain('Model usage');
    expect(renderFinished(ctx, { ...run, modelUsage: new ModelMeter().report() }, none)).not.toContain(
      'Model usage',
    );
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
    expect(body).toContain('- <code>2222222</code> <code>wip</code>');
    expect(body).toContain('| Patch | saved as <code>/tmp/x/pr-7.patch</code> (output `patch-path`) |');
    expect(body).toContain('<pre lang="diff">\nFrom 2222 Mon Sep 17\nSubject: [PATCH] wip\n\n</pre>');
    expect(renderFinished(ctx, { ...run, exitCode: 124, timedOut: true }, none)).toContain(
      '⏱ `/fix` timed out',
    );
  });

  it('keeps what the command wrote inert: <pre> blocks, no mentions, nothing closed early, secrets redacted', () => {
    const hostile: FinishedRun = {
      ...run,
      commits: [{ sha: '3333333', subject: '@everyone `pwn` | x' }],
      tail: ['```', '</details><img src=x onerror=alert(1)>', 'token=s3cr3t-value'],
    };
    const body = renderFinished(ctx, hostile, redactionOf('s3cr3t-value'));
    expect(body).not.toContain('s3cr3t-value');
    expect(body).toContain('token=***');
    expect(body).toContain(
      '<pre>\n```\n&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;\ntoken=***\n</pre>',
    );
    expect(body).toContain(
      '- <code>3333333</code> <code>&#8203;&#64;&#8203;everyone &#96;pwn&#96; &#124; x</code>',
    );
  });

  it('holds what escaped GitHub’s renderer before: 255 backticks in the log and the patch, 81 in a subject', () => {
    const b255 = '`'.repeat(255);
    const markup = ['![x](https://evil.example/x.png)', '<!--', '</details>', '@someone @org/team'];
    const hostile: FinishedRun = {
      ...run,
      pushed: false,
      pushedTo: undefined,
      pushReason: `${'`'.repeat(81)} <!-- @someone`,
      commits: [{ sha: '4444444', subject: `${'`'.repeat(81)} ${markup.join(' ')} ${'`'.repeat(81)}` }],
      filesChanged: [`${b255}.txt`, `</details><!--@x.txt`],
      filesChangedCount: 2,
      diffStat: '',
      tail: [b255, ...markup],
      reply: { reply: { text: [b255, ...markup].join('\n'), bytes: 400, cut: false } },
      patch: { path: '/p', text: ['Subject: [PATCH] x', '', b255, ...markup, '---'].join('\n') },
    };
    const branch = `${'`'.repeat(81)}@someone`;
    const html = renderGfm(renderFinished({ ...ctx, branch }, hostile, none));
    // The action's own: the heading, the table, the reply block, Files changed, the log, the patch.
    expectOwnStructure(html, {
      details: 3,
      pre: 4,
      headings: 1,
      links: 2,
      mentions: ['@alice'],
      comments: 1,
    });
    expect(html).toContain('<summary>Files changed</summary>');
    expect(html).toContain('<summary>Last lines of the log</summary>');
    expect(html).toContain('<summary>Patch (apply with <code>git am</code>)</summary>');
    expect(tagCount(html, 'table')).toBe(1);
    // The reply's image, a link in the action's own line; the run link; nothing else.
    expect(html).toContain('not shown here: <a href="https://evil.example/x.png">x</a>.');
  });

  it('cuts only between whole sections, and says so', () => {
    const sections = ['# head', 'a'.repeat(50), '<pre>\nb\n</pre>', 'c'.repeat(500)];
    expect(fitComment(sections, 1_000)).toBe(sections.join('\n\n'));
    const cut = fitComment(sections, 200);
    expect(cut).toMatch(/^# head\n\na{50}\n\n<pre>\nb\n<\/pre>\n\n… \(cut: too long/);
    expect(cut.length).toBeLessThanOrEqual(200);
  });

  it('keeps its structure under 70,000 backticks of reply, within the size limit', () => {
    const text = '`'.repeat(70_000);
    const body = renderFinished(ctx, { ...run, reply: { reply: { text, bytes: 70_000, cut: false } } }, none);
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT);
    const html = renderGfm(body);
    expectOwnStructure(html, { details: 2, pre: 3, headings: 1, mentions: ['@alice'], comments: 1 });
    expect(html).toContain('<summary>Files changed</summary>');
    expect(html).toContain('<summary>Last lines of the log</summary>');
    expect(html).toMatch(/50,000 more characters are left out here/);
  });

  it('keeps a hostile reply inside its block', () => {
    const body = renderFinished(
      ctx,
      { ...run, reply: { reply: { text: HOSTILE_REPLY, bytes: 1, cut: false } } },
      none,
    );
    expectOwnStructure(renderGfm(body), {
      details: 2,
      pre: 3,
      headings: 1,
      mentions: ['@alice'],
      comments: 1,
    });
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
      '<pre>\nimage missing; token ***\n</pre>',
    );
    const stopped = renderStopped(ctx);
    expect(stopped.startsWith(PROGRESS_MARKER)).toBe(true);
    expect(stopped).toContain('🛑 `/fix` stopped before it finished');
    expect(renderStopped(undefined)).toContain('🛑 The run stopped before it finished');
  });
});

describe('helpers', () => {
  it('formats durations for people', () => {
    expect(formatDuration(950)).toBe('0.9 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});
