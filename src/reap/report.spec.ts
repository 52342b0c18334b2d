import type { ReapResult, ReportedSandbox } from './reap.js';
import {
  byInterest,
  formatBytes,
  isReaped,
  jsonWithin,
  reasonOf,
  summaryMarkdown,
  toRecord,
} from './report.js';

function entry(sandbox: string, extra: Partial<ReportedSandbox>): ReportedSandbox {
  return {
    key: `disk:/r/p/${sandbox}`,
    sandbox,
    project: 'p-abc123',
    isolation: 'disk',
    where: `/r/p/${sandbox}`,
    class: 'transient',
    ageDays: 40,
    expiryDays: 30,
    action: 'keep',
    reason: 'fresh: 1 of 30 days',
    result: 'kept',
    ...extra,
  };
}

const removed = entry('exploration-00000001', {
  action: 'remove',
  result: 'removed',
  reason: 'stale and holds no work',
  sizeBytes: 2048,
  freedBytes: 2048,
});
const dirty = entry('feature-x', {
  class: 'persistent',
  ageDays: 120,
  reason: 'holds work: 2 uncommitted file(s)',
});
const fresh = entry('exploration-00000002', { ageDays: 1 });
const foreign = entry('junk', {
  class: 'not-a-sandbox',
  ageDays: undefined,
  reason: 'not a sandbox: no .git file',
});
const partly = entry('exploration-00000003', {
  action: 'remove',
  result: 'partly removed',
  reason: 'stale and holds no work',
  detail: '1 entry could not be deleted',
  problems: [{ path: '/r/p/exploration-00000003/src', error: 'EPERM' }],
});
const skipped = entry('exploration-00000004', {
  action: 'remove',
  result: 'kept',
  reason: 'stale and holds no work',
  detail: 'in use: a run holds its lock',
});

const result: ReapResult = {
  dryRun: false,
  sandboxes: [fresh, foreign, dirty, removed, partly, skipped],
  freedBytes: 2048,
  warnings: ['Volume sandboxes were not scanned: docker is unreachable'],
  stats: { found: 6, stale: 5, provedByFilesystem: 1 },
};

describe('records for the outputs', () => {
  it('have exactly the documented fields', () => {
    expect(toRecord(dirty)).toEqual({
      sandbox: 'feature-x',
      project: 'p-abc123',
      isolation: 'disk',
      kind: 'persistent',
      ageDays: 120,
      reason: 'holds work: 2 uncommitted file(s)',
    });
    expect(toRecord(foreign)).toMatchObject({ kind: 'not-a-sandbox', ageDays: null });
  });

  it('say why a decided removal did not happen or went only part of the way', () => {
    expect(reasonOf(skipped)).toBe('stale and holds no work; not removed: in use: a run holds its lock');
    expect(reasonOf(partly)).toBe(
      'stale and holds no work; 1 entry could not be deleted: /r/p/exploration-00000003/src (EPERM)',
    );
    expect(
      reasonOf(entry('x', { action: 'remove', result: 'would remove', reason: 'stale and holds no work' })),
    ).toBe('dry run: would remove: stale and holds no work');
  });

  it('count a partial removal as reaped and a skipped one as kept', () => {
    expect([removed, partly, skipped, dirty].map(isReaped)).toEqual([true, true, false, false]);
  });

  it('list the most telling entries first: removals, stale ones kept, other entries, then fresh ones', () => {
    const order = [...result.sandboxes].sort(byInterest).map((s) => s.sandbox);
    expect(order).toEqual([
      'exploration-00000001',
      'exploration-00000003',
      'feature-x',
      'exploration-00000004',
      'junk',
      'exploration-00000002',
    ]);
  });

  it('fit the output size limit, dropping from the end and counting what was dropped', () => {
    const records = Array.from({ length: 100 }, (_, i) => toRecord(entry(`exploration-${i}`, {})));
    const all = jsonWithin(records, 1_000_000);
    expect(all.omitted).toBe(0);
    expect(JSON.parse(all.json)).toEqual(records);
    const some = jsonWithin(records, 2_000);
    expect(some.json.length).toBeLessThanOrEqual(2_000);
    expect(JSON.parse(some.json)).toEqual(records.slice(0, 100 - some.omitted));
    expect(some.omitted).toBeGreaterThan(0);
    expect(jsonWithin([], 10)).toEqual({ json: '[]', omitted: 0 });
  });
});

describe('summaryMarkdown', () => {
  const markdown = summaryMarkdown(result);

  it('has a table of every sandbox with class, age, decision, reason and size', () => {
    expect(markdown).toContain(
      '| Sandbox | Project | Isolation | Class | Age (days) | Decision | Reason | Size |',
    );
    expect(markdown).toContain(
      '| exploration-00000001 | p-abc123 | disk | transient | 40 | removed | stale and holds no work | 2.0 KiB |',
    );
    expect(markdown).toContain(
      '| feature-x | p-abc123 | disk | persistent | 120 | kept | holds work: 2 uncommitted file(s) | – |',
    );
    expect(markdown).toContain(
      '| junk | p-abc123 | disk | not-a-sandbox | ? | kept | not a sandbox: no .git file | – |',
    );
    expect(markdown.match(/^\| (?!Sandbox|---)/gm)).toHaveLength(6);
  });

  it('totals the run and shows warnings', () => {
    expect(markdown).toContain('6 found, 5 stale, 2 removed, 4 kept; 2.0 KiB freed.');
    expect(markdown).toContain('> ⚠️ Volume sandboxes were not scanned: docker is unreachable');
  });

  it('says plainly when it was a dry run', () => {
    expect(summaryMarkdown({ ...result, dryRun: true })).toContain('(dry run: nothing removed)');
  });

  it('escapes what could break the table or inject markup', () => {
    const odd = entry('a|b', { reason: 'not a sandbox: <img src=x>' });
    const text = summaryMarkdown({ ...result, sandboxes: [odd] });
    expect(text).toContain('| a&#124;b |');
    expect(text).toContain('&#60;img src=x&#62;');
  });

  it('opens with the Mermaid chart, right under the title', () => {
    const [title, blank, fence] = markdown.split('\n');
    expect([title, blank, fence]).toEqual(['## worktree-sandbox: reap', '', '```mermaid']);
    const chart = markdown.slice(markdown.indexOf('```mermaid'), markdown.indexOf('```\n') + 3);
    expect(chart.split('\n')[2]).toBe('flowchart LR');
    expect(markdown.indexOf('| Sandbox |')).toBeGreaterThan(markdown.indexOf(chart) + chart.length);
  });

  /** The chart's count of each outcome and the table's rows of that decision. */
  function chartAndTableCounts(text: string) {
    const chart: Record<string, number> = {};
    for (const [, count, outcome] of text.matchAll(/found --> o\d+\["(\d+) ([a-z ]+?)(?: · [^"]*)?"\]/g))
      chart[outcome] = Number(count);
    const table: Record<string, number> = {};
    for (const row of text.split('\n').filter((l) => /^\| (?!Sandbox \||---)/.test(l))) {
      const decision = row.split(' | ')[5];
      table[decision] = (table[decision] ?? 0) + 1;
    }
    const found = Number(/found\["(\d+) found"\]/.exec(text)![1]);
    return { chart, table, found };
  }

  it('counts in its chart exactly the rows of its table, decision by decision', () => {
    const { chart, table, found } = chartAndTableCounts(markdown);
    expect(chart).toEqual({ removed: 1, 'partly removed': 1, kept: 4 });
    expect(chart).toEqual(table);
    expect(found).toBe(6);
    const dry = chartAndTableCounts(
      summaryMarkdown({
        ...result,
        dryRun: true,
        sandboxes: result.sandboxes.map((s) =>
          s.action === 'remove' ? { ...s, result: 'would remove', detail: undefined } : s,
        ),
      }),
    );
    expect(dry.chart).toEqual({ 'would remove': 3, kept: 3 });
    expect(dry.chart).toEqual(dry.table);
  });

  it('counts every entry in its chart, also those past the cap of the table', () => {
    const many = Array.from({ length: 30 }, (_, i) => entry(`exploration-${i}`, {}));
    const text = summaryMarkdown({ ...result, sandboxes: many }, 10);
    expect(chartAndTableCounts(text).chart).toEqual({ kept: 30 });
    expect(text).toContain('o0 --> o0r0["30 not stale yet"]');
  });

  it('caps the rows and counts the rest', () => {
    const many = Array.from({ length: 30 }, (_, i) => entry(`exploration-${i}`, {}));
    const text = summaryMarkdown({ ...result, sandboxes: many }, 10);
    expect(text.match(/^\| exploration-/gm)).toHaveLength(10);
    expect(text).toContain('…and 20 more (fresh) entries');
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(undefined)).toBe('–');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });
});
