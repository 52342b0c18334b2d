/** Writes one line; `drained`, when given, says when the sink can take more (a full pipe: wait). */
export type LineWriter = ((line: string) => void) & {
  drained?: () => Promise<void> | undefined;
  /**
   * A file descriptor the producer may write to directly instead (the step's stdout, inside the fence):
   * then nothing of the output passes through this process. Call `flush()` first, `end()` after.
   */
  fd?: number;
  /** With `fd`: everything written so far has reached the descriptor. */
  flush?: () => Promise<void>;
  /** With `fd`: output that still comes through this process (an engine's stderr), as it came. */
  raw?: (chunk: Buffer) => void;
};

// How the core talks to a person: the action maps this onto @actions/core (log groups, annotations);
// the CLI onto a terminal.
export interface Ui {
  info(message: string): void;
  /** A decision and its reasons, shown only when asked for (ACTIONS_STEP_DEBUG, --debug). */
  debug(message: string): void;
  /** Whether debug lines are shown: a caller that makes thousands of them may skip the work when not. */
  readonly debugging: boolean;
  warning(message: string): void;
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Streams untrusted text (the sandboxed command's output): `fn` gets a writer for its lines, and no
   * line it writes can act as a workflow command.
   */
  untrusted<T>(fn: (write: LineWriter) => Promise<T>): Promise<T>;
  /** Shows text that came from a sandbox (file names, a diff stat) so that no line of it can act as a command. */
  fenced(text: string): void;
  /** Register a secret so that it is masked wherever it would be printed. */
  mask(secret: string): void;
}

/**
 * Lines to a stream that may be a pipe (the runner's, a pager): the lines of one chunk of output are
 * written in one call when the producer asks whether it may go on (`drained`), and a pipe that cannot
 * take them yet makes it wait. Memory stays bounded however much is printed, and a gigabyte of short lines
 * costs one write per chunk, not one per line. `drained()` also flushes: call it once at the end.
 */
export function streamLineWriter(
  stream: NodeJS.WritableStream,
  format: (line: string) => string,
  options: { raw?: boolean } = {},
): StreamWriter {
  let batch: string[] = [];
  let full = false;
  let endsLine = true;
  const put = (data: string | Buffer) => {
    if (data.length === 0) return;
    if (!stream.write(data)) full = true;
    endsLine = typeof data === 'string' ? data.endsWith('\n') : data[data.length - 1] === 10;
  };
  const write = ((line: string) => {
    batch.push(format(line));
  }) as StreamWriter;
  if (options.raw) {
    write.fd = 1;
    write.raw = put;
  }
  write.drained = () => {
    if (batch.length) put(batch.join(''));
    batch = [];
    if (!full) return undefined;
    return new Promise<void>((resolve) =>
      stream.once('drain', () => {
        full = false;
        resolve();
      }),
    );
  };
  write.flush = async () => {
    await write.drained();
    // Whatever the stream still queues reaches the descriptor before anyone else writes to it.
    if ((stream as NodeJS.WriteStream).writableLength)
      await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  };
  write.end = () => {
    void write.drained();
    // After direct output nobody knows how it ended: a line of its own for what follows.
    if (!endsLine || options.raw) put('\n');
  };
  return write;
}

/** A LineWriter onto a stream; `end()` ends output that stopped mid-line, so that what follows starts a line. */
export type StreamWriter = LineWriter & {
  drained: () => Promise<void> | undefined;
  flush(): Promise<void>;
  end(): void;
};

export const silentUi: Ui = {
  info: () => undefined,
  debug: () => undefined,
  debugging: false,
  warning: () => undefined,
  group: (_title, fn) => fn(),
  untrusted: (fn) => fn(() => undefined),
  fenced: () => undefined,
  mask: () => undefined,
};
