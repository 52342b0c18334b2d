// The one place the action writes the job summary (run, reap and the pull-request bot alike), under a hard
// cap: GitHub drops a step summary over 1 MiB whole, so one section grown too long (a report of many
// sandboxes, a command that named thousands of hosts) would take everything else with it, the run's own
// report included. Sections come in order of importance; the last ones are cut first, and what was cut
// is said. GitHub masks nothing in a summary: every section passes the run's one redaction
// (run/redaction.ts) before it is cut and written.
import * as core from '@actions/core';
import * as fs from 'node:fs/promises';
import type { Redaction } from '../run/redaction.js';
import { cutToBytes } from '../ui/bounded-text.js';
import { byteLength, thousands } from '../ui/markdown.js';

/**
 * The most bytes a step's summary file holds. The runner drops a file over 1 MiB (1,048,576 bytes), as it
 * is on disk: counted here the same way (the file's size, then UTF-8 bytes), with a round margin below the
 * limit for anything else that appends to the step's file.
 */
export const SUMMARY_MAX_BYTES = 1_000_000;
/** Room kept for the sentence that says what was cut. */
const CUT_NOTE_BYTES = 300;

/** `text` cut to at most `maxBytes` of UTF-8, at the end of a line when there is one, never inside a character. */
export function cutAtLine(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  if (maxBytes <= 0) return '';
  // A newline byte never occurs inside a multi-byte character.
  const newline = buf.lastIndexOf(0x0a, maxBytes - 1);
  return newline >= 0 ? buf.subarray(0, newline + 1).toString('utf8') : cutToBytes(text, maxBytes).text;
}

const opened = (text: string, tag: string) =>
  (text.match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length -
  (text.match(new RegExp(`</${tag}>`, 'g')) ?? []).length;

/**
 * A cut section's `<pre>` block and `<details>` closed, so that the sentence after it is not swallowed by
 * them. Only the action writes these tags: untrusted text in the summary has its `<` as an entity
 * (ui/untrusted-markdown.ts), so counting them is exact.
 */
export function closeBlocks(text: string): string {
  const pre = opened(text, 'pre') > 0 ? '\n</pre>' : '';
  return `${text}${pre}${'\n</details>'.repeat(Math.max(0, opened(text, 'details')))}`;
}

/**
 * What to append to a summary that holds `used` bytes already: `sections` whole while they fit under
 * `max`, the first that does not cut at a line and the rest dropped, with a sentence that says how much
 * was left out. Nothing at all when not even that sentence fits.
 */
export function fitSummary(sections: readonly string[], used: number, max = SUMMARY_MAX_BYTES): string {
  const total = sections.reduce((n, s) => n + byteLength(s), 0);
  if (used + total <= max) return sections.join('');
  const room = max - used - CUT_NOTE_BYTES;
  if (room < 0) return '';
  let kept = '';
  for (const section of sections) {
    const fits = cutAtLine(section, room - byteLength(kept));
    kept += fits;
    if (fits !== section) break;
  }
  const left = total - byteLength(kept);
  return `${closeBlocks(kept)}\n\n**${thousands(left)} bytes of this summary are not shown**: GitHub drops a step summary over 1 MiB whole.\n`;
}

/** Appends `sections` (the most important first), redacted, within SUMMARY_MAX_BYTES in all. */
export async function writeSummary(redaction: Redaction, ...sections: string[]): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  const used = file
    ? await fs.stat(file).then(
        (s) => s.size,
        () => 0,
      )
    : 0;
  const text = fitSummary(sections.map(redaction.redact), used);
  if (text) await core.summary.addRaw(text).write();
}
