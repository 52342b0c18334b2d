// The core's Ui on a terminal: a spinner on long steps when attached to a TTY (ora), plain lines otherwise.
import ora from 'ora';
import type { Ui } from '../ui.js';

export function terminalUi(options: { quiet?: boolean; stream?: NodeJS.WriteStream } = {}): Ui {
  const stream = options.stream ?? process.stderr;
  const tty = Boolean(stream.isTTY) && !process.env.CI;
  const secrets: string[] = [];
  let spinner: ReturnType<typeof ora> | undefined;
  const scrub = (text: string) => secrets.reduce((t, s) => t.split(s).join('***'), text);
  const line = (text: string) => {
    if (!options.quiet) stream.write(`${scrub(text)}\n`);
  };
  return {
    info: line,
    warning: (m) => stream.write(`warning: ${scrub(m)}\n`),
    mask: (s) => {
      if (s) secrets.push(s);
    },
    async group(title, fn) {
      if (!tty || options.quiet) {
        line(`== ${title}`);
        return fn();
      }
      const own = ora({ text: title, stream }).start();
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
    // On a terminal the command's output needs no fencing: it is shown as it comes, secrets scrubbed
    // (a spinner stops first, so that lines are not drawn over).
    untrusted: (fn) =>
      fn((text) => {
        if (spinner?.isSpinning) spinner.stopAndPersist({ symbol: '▶' });
        process.stdout.write(`${scrub(text)}\n`);
      }),
  };
}
