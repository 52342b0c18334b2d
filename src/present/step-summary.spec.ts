import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectOwnStructure, renderGfm } from '../../test/support/cmark.js';
import { Redaction } from '../run/redaction.js';
import { untrustedBlock } from '../ui/untrusted-markdown.js';
import { cutAtLine, fitSummary, SUMMARY_MAX_BYTES, writeSummary } from './step-summary.js';

const bytes = (text: string) => Buffer.byteLength(text);
const report = '## worktree-sandbox: run\n\n| | |\n|---|---|\n| Command | ✅ exit 0 |\n';
const table = (rows: number, width = 300) =>
  Array.from({ length: rows }, (_, i) => `| ⛔ ${String(i).padEnd(width, 'ü')} |`).join('\n') + '\n';

describe('cutAtLine', () => {
  it('cuts at the end of a line, never inside a character', () => {
    expect(cutAtLine('ab\ncd\nef', 7)).toBe('ab\ncd\n');
    expect(cutAtLine('abcdef', 4)).toBe('abcd');
    expect(cutAtLine('üüü', 5)).toBe('üü');
    expect(cutAtLine('short', 100)).toBe('short');
    expect(cutAtLine('x', 0)).toBe('');
  });
});

describe('fitSummary', () => {
  it('closes a block it cut, so that the sentence that says so renders outside it', () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `line ${i} </pre> <details> \`\`\``).join('\n');
    const section = `<details><summary>Reply</summary>\n\n${untrustedBlock(text, 1_000_000).markdown}\n</details>\n`;
    const out = fitSummary([report, section], 0, 100_000);
    expect(bytes(out)).toBeLessThanOrEqual(100_000);
    const html = renderGfm(out);
    expectOwnStructure(html, { details: 1, pre: 1, headings: 1 });
    expect(html).toMatch(
      /<\/pre>\n<\/details>\n<p><strong>[\d,]+ bytes of this summary are not shown<\/strong>/,
    );
  });

  it('keeps everything that fits, as it is', () => {
    expect(fitSummary([report, 'net\n'], 0)).toBe(`${report}net\n`);
  });

  it('keeps the run’s own report and cuts the later section, saying how much', () => {
    const network = table(5_000);
    const out = fitSummary([report, network], 0);
    expect(bytes(out)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(out.startsWith(report)).toBe(true);
    const left = /\*\*([\d,]+) bytes of this summary are not shown\*\*/.exec(out);
    expect(Number(left![1].replace(/,/g, ''))).toBe(bytes(report + network) - bytes(out.split('\n\n**')[0]));
    // Cut at a row's end: every row kept is whole.
    const rows = out.split('\n').filter((l) => l.startsWith('| ⛔'));
    expect(rows.every((r) => r.endsWith(' |'))).toBe(true);
  });

  it('counts what the step wrote before, and writes nothing when even the note would not fit', () => {
    const out = fitSummary([report, table(100)], SUMMARY_MAX_BYTES - 2_000);
    expect(bytes(out)).toBeLessThanOrEqual(2_000);
    expect(out).toContain('bytes of this summary are not shown');
    expect(fitSummary([report], SUMMARY_MAX_BYTES - 10)).toBe('');
  });
});

describe('writeSummary', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-summary-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the step’s summary file under the cap over several writes', async () => {
    const file = path.join(dir, 'summary.md');
    fs.writeFileSync(file, '');
    const before = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = file;
    try {
      await writeSummary(Redaction.none, '## worktree-sandbox: pull request #7\n\n');
      await writeSummary(Redaction.none, report, table(2_000));
      await writeSummary(Redaction.none, report, table(2_000));
    } finally {
      if (before === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = before;
    }
    const text = fs.readFileSync(file, 'utf8');
    expect(fs.statSync(file).size).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(text.startsWith('## worktree-sandbox: pull request #7\n\n## worktree-sandbox: run')).toBe(true);
    expect(text).toContain('bytes of this summary are not shown');
  });
});
