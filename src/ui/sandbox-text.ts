// Text that came from a sandbox (file names, ref names, commit subjects, what a helper or git printed about
// its data) made safe to print on one log line. The Actions runner reads every line of a step's output
// for workflow commands (`::error::`, `::set-output …`, `##[…]`), and it breaks lines at `\n`, `\r\n` and
// a lone `\r`; @actions/core escapes line breaks in warnings and errors but not in `core.info`. So such
// text is printed only through this module (or inside a `::stop-commands::` fence): every control
// character is written as a visible escape, a line cannot start a command, and the length is bounded.
// In Markdown (the job summary, a pull-request comment) such text goes through untrusted-markdown.ts.

/** The most characters of one piece of sandbox text that a message carries. */
export const SANDBOX_TEXT_MAX = 2_000;

// C0 controls, DEL, C1 controls (U+0085 NEL breaks lines for some readers) and the Unicode line and
// paragraph separators: each becomes a visible escape.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** What opens a workflow command at the start of a line (the runner trims leading blanks first). */
const COMMAND_START = /^(\s*)(::|##\[)/;

function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A line that would open a workflow command gets a backslash before it: `\::error::x` is only text. */
function disarmStart(line: string): string {
  return line.replace(COMMAND_START, '$1\\$2');
}

/**
 * Sandbox text as one printable line: control characters (`\r`, `\n`, ESC, …) escaped, a leading `::` or
 * `##[` disarmed, and at most `max` characters of it (the rest counted, not shown).
 */
export function sandboxText(text: string, max = SANDBOX_TEXT_MAX): string {
  const raw = String(text);
  const cut = raw.length > max ? raw.slice(0, max) : raw;
  const more = raw.length - cut.length;
  return disarmStart(escapeControls(cut)) + (more > 0 ? `… (${more} more characters)` : '');
}

/**
 * A whole log message, whatever it holds, made safe line by line: it keeps its own `\n` line breaks, but
 * no line of it can start a workflow command, and every other control character (a lone `\r` above all)
 * is escaped. The last guard of the action's log functions; sandbox text inside a message still goes
 * through `sandboxText` where the message is made, so that it stays on one line and bounded.
 */
export function logLines(message: string): string {
  return String(message)
    .split(/\r?\n/)
    .map((line) => disarmStart(escapeControls(line)))
    .join('\n');
}
