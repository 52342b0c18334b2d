// The log tail the pull-request comment shows ("Last lines of the log") is text the command wrote, posted
// where GitHub masks nothing. Before it goes, the secret scan's rules read it too (secretlint, as for what a
// push carries: secret-scan.ts). What they find is masked, the known secrets are redacted as everywhere
// (redaction.ts), and both are named for the job summary. A finding here does not fail the run: the tail
// leaves masked, nothing else is held back. A tail the rules could not read is not shown.
import type { SecretScanMode } from '../settings/settings.js';
import type { Ui } from '../ui/ui.js';
import { MASK, type Redaction } from './redaction.js';
import { loadLint } from './secret-scan.js';

export interface ScannedTail {
  lines: string[];
  /** What was found, by rule or by secret (`env API_KEY (base64)`), each once; never a value. */
  found: string[];
}

export const TAIL_UNREAD = '(the log tail is not shown: the secret scan could not read it)';

/** The tail with what the scan found masked; as it came with `secret-scan: off` (the redaction still runs). */
export async function scanLogTail(
  tail: readonly string[],
  mode: SecretScanMode,
  redaction: Redaction,
  ui: Ui,
): Promise<ScannedTail> {
  if (mode === 'off' || !tail.length) return { lines: [...tail], found: [] };
  // Bounded by the tail itself: at most 40 lines of at most 1,000 characters (command.ts).
  const text = tail.join('\n');
  let masked = text;
  const found = new Set(redaction.namesIn(text));
  try {
    const messages = await (await loadLint())(text);
    // Ranges masked from the last to the first, each at most once where two overlap.
    let end = text.length;
    for (const m of [...messages].sort((a, b) => b.range[0] - a.range[0])) {
      const [from, to] = [m.range[0], Math.min(m.range[1], end)];
      if (to > from) masked = masked.slice(0, from) + MASK + masked.slice(to);
      end = Math.min(end, from);
      found.add(`${m.ruleId} (${m.messageId})`);
    }
  } catch (error) {
    ui.warning(`Secret scan of the log tail: ${(error as Error).message}; the tail is not shown.`);
    return { lines: [TAIL_UNREAD], found: [...found] };
  }
  if (found.size)
    ui.warning(
      `Secret scan of the log tail: ${[...found].join(', ')}; masked in the pull request's comment (the run goes on).`,
    );
  return { lines: masked.split('\n'), found: [...found] };
}
