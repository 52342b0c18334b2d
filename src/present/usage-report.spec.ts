// The model-usage section, output and comment line: the figures as metered, the budget's verdict, and
// model names from a server that cannot break out of their table cell.
import { describe, expect, it } from '@jest/globals';
import { ModelMeter } from '../network/model-meter.js';
import {
  modelUsageMarkdown,
  modelUsageOutput,
  modelUsageTotals,
  modelUsageWarnings,
} from './usage-report.js';

const answer = (model: string, input: number, output: number, cacheRead = 0) => ({
  status: 200,
  scanned: { usage: { input, output, cacheRead, cacheWrite: 0 }, model, overBound: false },
});

describe('model usage report', () => {
  it('tables each host and model, the totals and the cache columns when an API gave them', () => {
    const meter = new ModelMeter();
    meter.admit();
    meter.record('api.anthropic.com', 443, 'anthropic', answer('claude-x', 1200, 300, 1000));
    meter.admit();
    meter.record('llm.internal', 8080, 'openai', answer('gpt-x', 10, 5));
    const md = modelUsageMarkdown(meter.report());
    expect(md).toContain('### Model usage');
    expect(md).toContain(
      '| Host | Model | Requests | Input tokens | Output tokens | Cache read | Cache write |',
    );
    expect(md).toContain('| "api.anthropic.com":443 | "claude-x" | 1 | 1,200 | 300 | 1,000 | 0 |');
    expect(md).toContain('| **Total** | | 2 | 1,210 | 305 | | |');
    expect(JSON.parse(modelUsageOutput(meter.report())['model-usage'])).toMatchObject({
      totals: { requests: 2, inputTokens: 1210, outputTokens: 305 },
    });
    expect(modelUsageTotals(meter.report())).toBe('2 request(s), 1,210 input and 305 output tokens');
    expect(modelUsageWarnings(meter.report())).toEqual([]);
  });

  it('says that the budget stopped the agent, and at what count', () => {
    const meter = new ModelMeter({ maxRequests: 1, maxTokens: 0 });
    meter.admit();
    meter.record('a.test', 443, 'anthropic', answer('m', 3, 4));
    meter.admit();
    meter.admit();
    const report = meter.report();
    expect(modelUsageMarkdown(report)).toContain(
      'The model budget stopped the agent: `max-model-requests` 1 was reached at 1 request(s) and 7 token(s); the proxy answered 2 further request(s) itself (429).',
    );
    expect(modelUsageTotals(report)).toContain('stopped by `max-model-requests` (2 refused)');
    expect(modelUsageWarnings(report)[0]).toMatch(
      /^The model budget stopped the agent: max-model-requests 1/,
    );
  });

  it('prints a model name from the server escaped, and counts unreadable answers', () => {
    const meter = new ModelMeter();
    meter.admit();
    meter.record('a.test', 443, 'openai', answer('x | <img src=y> `\n::error::', 1, 1));
    meter.admit();
    meter.record('a.test', 443, 'openai', { status: 200, scanned: { overBound: true } });
    const md = modelUsageMarkdown(meter.report());
    expect(md).not.toMatch(/<img|\n::error|x \| </);
    expect(md).toContain('1 answer(s) gave no usage the proxy could read');
    expect(modelUsageWarnings(meter.report())).toHaveLength(1);
  });

  it('is empty when nothing was metered and no budget was set', () => {
    expect(modelUsageMarkdown(new ModelMeter().report())).toBe('');
    expect(modelUsageTotals(new ModelMeter().report())).toBe('');
  });
});
