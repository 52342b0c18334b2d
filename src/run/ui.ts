// How the core talks to a person: the action maps this onto @actions/core (log groups, annotations);
// the CLI onto a terminal.
export interface Ui {
  info(message: string): void;
  /** A decision and its reasons, shown only when asked for (ACTIONS_STEP_DEBUG, --debug). */
  debug(message: string): void;
  warning(message: string): void;
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Streams untrusted text (the sandboxed command's output): `fn` gets a writer for its lines, and no
   * line it writes can act as a workflow command.
   */
  untrusted<T>(fn: (write: (line: string) => void) => Promise<T>): Promise<T>;
  /** Shows text that came from a sandbox (file names, a diff stat) so that no line of it can act as a command. */
  fenced(text: string): void;
  /** Register a secret so that it is masked wherever it would be printed. */
  mask(secret: string): void;
}

export const silentUi: Ui = {
  info: () => undefined,
  debug: () => undefined,
  warning: () => undefined,
  group: (_title, fn) => fn(),
  untrusted: (fn) => fn(() => undefined),
  fenced: () => undefined,
  mask: () => undefined,
};
