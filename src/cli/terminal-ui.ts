// The core's Ui on a terminal: a spinner on long steps when attached to a TTY (ora), plain lines otherwise.
// Each line goes through the one redaction (run/redaction.ts): every form it knows of each `mask`ed value.
import ora from 'ora';
import { MASK, Redaction } from '../run/redaction.js';
import { MIN_SECRET_LENGTH } from '../run/secret-values.js';
import { streamLineWriter, type Ui } from '../ui/ui.js';

/**
 * `quiet`: no progress lines (warnings still show); `spinner` with `quiet`: a spinner on long steps all the
 * same when on a TTY (for commands whose result is a table or JSON on stdout).
 */
export function terminalUi(
  options: { quiet?: boolean; spinner?: boolean; stream?: NodeJS.WriteStream; debug?: boolean } = {},
): Ui {
  const stream = options.stream ?? process.stderr;
  // A terminal of zero columns (a pseudo-terminal nobody sized, e.g. `script` under cron) would make the
  // spinner's line arithmetic divide by zero and redraw forever: plain lines there.
  const tty = Boolean(stream.isTTY) && !process.env.CI && (stream.columns ?? 0) > 0;
  const secrets: Array<{ name: string; value: string }> = [];
  let redaction: Redaction | undefined;
  let spinner: ReturnType<typeof ora> | undefined;
  // A value too short for the redaction's forms is still masked as written, as GitHub masks it in the log.
  const scrub = (text: string) =>
    secrets
      .filter((s) => s.value.length < MIN_SECRET_LENGTH)
      .reduce((t, s) => t.split(s.value).join(MASK), (redaction ??= Redaction.of(secrets)).redact(text));
  const line = (text: string) => {
    if (!options.quiet) stream.write(`${scrub(text)}\n`);
  };
  return {
    info: line,
    debug: (m) => {
      if (options.debug) line(`debug: ${m}`);
    },
    debugging: !!options.debug && !options.quiet,
    warning: (m) => {
      // Above the spinner, not through it.
      spinner?.clear();
      stream.write(`warning: ${scrub(m)}\n`);
      if (spinner?.isSpinning) spinner.render();
    },
    mask: (value) => {
      if (!value) return;
      secrets.push({ name: 'masked', value });
      redaction = undefined;
    },
    async group(title, fn) {
      if (!tty || (options.quiet && !options.spinner)) {
        line(`== ${title}`);
        return fn();
      }
      // isEnabled: the TTY decision is made above (ora would also give up whenever CI is set, even empty).
      const own = ora({ text: title, stream, isEnabled: true }).start();
      spinner = own;
      try {
        const result = await fn();
        if (own.isSpinning) own.succeed();
        return result;
      } catch (error) {
        if (own.isSpinning) own.fail();
        throw error;
      } finally {
        spinner = undefined;
      }
    },
    // Report text goes with the other progress lines (stderr); the command's output alone is on stdout.
    fenced: (text) => {
      for (const l of text.split('\n')) line(l);
    },
    // On a terminal the command's output needs no fencing: it is shown as it comes, secrets scrubbed
    // (a spinner stops first, so that lines are not drawn over).
    untrusted: async (fn) => {
      const write = streamLineWriter(process.stdout, (text) => {
        if (spinner?.isSpinning) spinner.stopAndPersist({ symbol: '▶' });
        return `${scrub(text)}\n`;
      });
      try {
        return await fn(write);
      } finally {
        await write.drained?.();
      }
    },
  };
}
