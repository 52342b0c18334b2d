import { countOutcomes, reapChart, REASON_GROUPS, reasonGroup, summaryMarkdown } from './reap-summary.js';
import type { ReportedSandbox } from '../reap/reap-report.js';
import {
  decide,
  type Decision,
  type DecisionPolicy,
  type SandboxFacts,
  summarizeWork,
} from '../reap/decide.js';
import { facts, NOW, policy } from '../../test/support/reap-facts.js';
import { entry, result } from '../../test/support/reap-results.js';

/** Decisions made by the real decide(), so that the groups follow the reasons it really writes. */
const decided = (all: SandboxFacts[], p: Partial<DecisionPolicy> = {}) =>
  Object.fromEntries(decide(all, { ...policy, ...p }, NOW).map((d) => [d.sandbox, d]));

const carried = (d: Decision, extra: Partial<ReportedSandbox> = {}): ReportedSandbox => ({
  ...d,
  result: d.action === 'remove' ? 'removed' : 'kept',
  ...extra,
});

const work = (uncommitted: number, unpushed: boolean, operation?: string) =>
  summarizeWork({
    uncommitted: { value: uncommitted },
    // A branch whose name has the word "uncommitted" in it: the group comes from the data, not the words.
    unsaved: { value: unpushed ? { count: 2, branch: 'uncommitted-fix', hasRemote: true } : undefined },
    operation,
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

describe('reasonGroup', () => {
  it('groups every reason the decisions write under one of our own words', () => {
    const d = decided([
      facts('exploration-00000001', 40),
      facts('exploration-00000002', 3),
      facts('exploration-00000003', undefined),
      facts('feature-a', 100, { inUse: 'running container c1 mounts it' }),
      facts('feature-b', 100, { work: work(2, true) }),
      facts('feature-c', 100, { work: work(0, true) }),
      facts('feature-d', 100, { work: work(0, false, 'a rebase is in progress') }),
      facts('feature-e', 100, { work: { state: 'unknown', detail: 'git status failed' } }),
      facts('feature-f', 100, { orphan: 'its parent /x is gone' }),
      facts('junk', 100, { notSandbox: 'no .git file' }),
    ]);
    const groups = Object.fromEntries(Object.entries(d).map(([k, v]) => [k, reasonGroup(carried(v))]));
    expect(groups).toEqual({
      'exploration-00000001': 'stale, no work',
      'exploration-00000002': 'not stale yet',
      'exploration-00000003': 'age unknown',
      'feature-a': 'in use',
      'feature-b': 'uncommitted work',
      'feature-c': 'unpushed commits',
      'feature-d': 'operation in progress',
      'feature-e': 'work not checkable',
      'feature-f': 'orphan',
      junk: 'not a sandbox',
    });
  });

  it('groups forced removals and removals deferred by max-removals', () => {
    const forced = decided([facts('feature-b', 100, { work: work(1, false) })], { force: true });
    expect(reasonGroup(carried(forced['feature-b']))).toBe('forced');
    const capped = decided([facts('exploration-00000001', 40), facts('exploration-00000002', 50)], {
      maxRemovals: 1,
    });
    expect(reasonGroup(carried(capped['exploration-00000001']))).toBe('max-removals reached');
    expect(reasonGroup(carried(capped['exploration-00000002']))).toBe('stale, no work');
  });

  it('groups a removal that did not happen by what stopped it', () => {
    const d = decided([facts('exploration-00000001', 40)])['exploration-00000001'];
    const stopped = (detail: string) => reasonGroup(carried(d, { result: 'kept', detail }));
    expect(stopped('in use: a run holds its lock')).toBe('in use');
    expect(stopped('activity since the scan')).toBe('active since the scan');
    expect(stopped('archiving failed (disk full)')).toBe('error');
    expect(stopped('not attempted')).toBe('error');
  });

  it('calls a reason it does not know "other", never the text itself', () => {
    const d = decided([facts('exploration-00000001', 40)])['exploration-00000001'];
    expect(reasonGroup(carried(d, { reason: 'something new' }))).toBe('other');
  });
});

describe('countOutcomes', () => {
  it('counts each outcome and its reasons, which add up to it, with the bytes freed', () => {
    const d = decided([
      facts('exploration-00000001', 40, { sizeBytes: 1024 }),
      facts('exploration-00000002', 45, { sizeBytes: 1024 }),
      facts('exploration-00000003', 3),
      facts('feature-b', 100, { work: work(2, false) }),
    ]);
    const counts = countOutcomes([
      carried(d['exploration-00000001'], { freedBytes: 3072 }),
      carried(d['exploration-00000002'], { result: 'kept', detail: 'in use: a run holds its lock' }),
      carried(d['exploration-00000003']),
      carried(d['feature-b']),
    ]);
    expect(counts).toEqual([
      { outcome: 'removed', count: 1, bytes: 3072, reasons: [{ reason: 'stale, no work', count: 1 }] },
      {
        outcome: 'kept',
        count: 3,
        bytes: 0,
        reasons: [
          { reason: 'in use', count: 1 },
          { reason: 'uncommitted work', count: 1 },
          { reason: 'not stale yet', count: 1 },
        ],
      },
    ]);
  });

  it('sums what a dry run would free from the measured sizes', () => {
    const d = decided([facts('exploration-00000001', 40, { sizeBytes: 2048 })])['exploration-00000001'];
    expect(countOutcomes([carried(d, { result: 'would remove' })])).toEqual([
      { outcome: 'would remove', count: 1, bytes: 2048, reasons: [{ reason: 'stale, no work', count: 1 }] },
    ]);
  });
});

describe('reapChart', () => {
  const d = decided([
    facts('exploration-00000001', 40),
    facts('exploration-00000002', 41),
    facts('exploration-00000003', 3),
    facts('feature-b', 100, { work: work(2, false) }),
  ]);
  const sandboxes = Object.values(d).map((x) =>
    carried(x, x.action === 'remove' ? { freedBytes: 1536 } : {}),
  );

  it('is a Mermaid flowchart: found, then outcomes with counts, then reasons with counts', () => {
    expect(reapChart({ sandboxes })).toBe(
      [
        '```mermaid',
        '%%{init: {"flowchart": {"wrappingWidth": 400}}}%%',
        'flowchart LR',
        '  found["4 found"]',
        '  found --> o0["2 removed · 3.0 KiB freed"]',
        '  o0 --> o0r0["2 stale, no work"]',
        '  found --> o1["2 kept"]',
        '  o1 --> o1r0["1 uncommitted work"]',
        '  o1 --> o1r1["1 not stale yet"]',
        '  classDef total fill:#ddf4ff,stroke:#0969da,color:#1f2328',
        '  class found total',
        '  classDef removed fill:#ffebe9,stroke:#cf222e,color:#1f2328',
        '  class o0,o0r0 removed',
        '  classDef kept fill:#dafbe1,stroke:#1a7f37,color:#1f2328',
        '  class o1,o1r0,o1r1 kept',
        '```',
      ].join('\n'),
    );
  });

  it('has a node for nothing found too', () => {
    expect(reapChart({ sandboxes: [] })).toBe(
      [
        '```mermaid',
        '%%{init: {"flowchart": {"wrappingWidth": 400}}}%%',
        'flowchart LR',
        '  found["0 found"]',
        '  classDef total fill:#ddf4ff,stroke:#0969da,color:#1f2328',
        '  class found total',
        '```',
      ].join('\n'),
    );
  });

  it('never carries text from a sandbox: names, paths, projects and reasons stay out', () => {
    const hostile = 'x"]\nclick found "javascript:alert(1)"\n%%{init: {}}%%<script>`';
    const base = decided([facts('exploration-00000001', 40)])['exploration-00000001'];
    const odd: ReportedSandbox[] = [
      carried(base, { sandbox: hostile, project: hostile, where: hostile }),
      carried(base, { result: 'kept', detail: hostile }),
      carried(base, { reason: `not a sandbox: ${hostile}`, action: 'keep', result: 'kept' }),
      carried(base, { reason: hostile, action: 'keep', result: 'kept' }),
    ];
    const chart = reapChart({ sandboxes: odd });
    const labels = [...chart.matchAll(/\["([^"]*)"\]/g)].map((m) => m[1]);
    const words = new Set<string>([...REASON_GROUPS, 'found', 'removed', 'kept']);
    for (const label of labels) {
      const [, count, rest] = /^(\d+) (.*?)( · [\d.]+ [KMGT]?i?B (freed|to free))?$/.exec(label)!;
      expect(Number(count)).toBeGreaterThan(0);
      expect(words.has(rest)).toBe(true);
    }
    for (const fragment of ['click', 'javascript', '<script', 'alert']) expect(chart).not.toContain(fragment);
    expect(chart.match(/%%/g)).toHaveLength(2);
    expect(chart.slice(3, -3)).not.toContain('`');
    // Exactly the lines we write: the fence, the header, nodes and edges, classes.
    for (const line of chart.split('\n'))
      expect(line).toMatch(
        /^(```(mermaid)?|%%\{init: \{"flowchart": \{"wrappingWidth": 400\}\}\}%%|flowchart LR| {2}(found|o\d+)( --> o\d+(r\d+)?)?\["[^"]*"\]| {2}class(Def)? [^"]*)$/,
      );
  });
});
