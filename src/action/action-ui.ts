// How the core talks to a person in a workflow run: log groups, annotations, masked secrets, and text from
// a sandbox fenced so that no line of it can act as a workflow command.
import * as core from '@actions/core';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import type { PrRunIo } from '../github/pr-run.js';
import type { Redaction } from '../run/redaction.js';
import { streamLineWriter, type Ui } from '../ui/ui.js';
import { logLines } from '../ui/sandbox-text.js';
import { saveRunState } from './step-state.js';
import { botText } from '../present/bot-summary.js';
import { writeSummary } from '../present/step-summary.js';

/** Values registered with the runner for masking, in this process (the runner masks them for the job). */
const masked = new Set<string>();

export function actionUi(): Ui {
  return {
    // core.info writes the message as it is: a lone carriage return or a line starting with `::` in it
    // would be read as a workflow command. Sandbox text in a message is escaped where the message is made
    // (sandboxText); logLines is the last guard for every message, whatever it carries.
    info: (m) => core.info(logLines(m)),
    // Only when asked for (ACTIONS_STEP_DEBUG): a reap of thousands of sandboxes logs a line each.
    // core.debug escapes line breaks: a debug message cannot become a workflow command.
    debug: (m) => {
      if (core.isDebug()) core.debug(logLines(m));
    },
    debugging: core.isDebug(),
    warning: (m) => core.warning(logLines(m)),
    group: (title, fn) => core.group(title, fn),
    // Once per value: the run, the secret scan and the proxy's credentials may each register the same one.
    mask: (s) => {
      if (masked.has(s)) return;
      masked.add(s);
      core.setSecret(s);
    },
    // The command's output must not issue workflow commands (::set-output, ::add-mask, ::error ...):
    // command processing is stopped around it with a token it cannot guess.
    fenced: (text) => {
      const token = randomUUID();
      process.stdout.write(`::stop-commands::${token}${os.EOL}${text}${os.EOL}::${token}::${os.EOL}`);
    },
    untrusted: async (fn) => {
      const token = randomUUID();
      process.stdout.write(`::stop-commands::${token}${os.EOL}`);
      // The command's output goes through as it came (the fence needs no lines), its last line ended.
      const write = streamLineWriter(process.stdout, (line) => `${line}${os.EOL}`, { raw: true });
      try {
        return await fn(write);
      } finally {
        write.end();
        process.stdout.write(`::${token}::${os.EOL}`);
      }
    },
  };
}

/**
 * Where a run meets the runner: outputs and the job summary, each through the run's one redaction (GitHub
 * masks neither), state for the post step.
 */
export function actionIo(ui: Ui, redaction: Redaction): PrRunIo {
  return {
    ui,
    debug: (message) => core.debug(message),
    env: process.env,
    setOutput: (name, value) => core.setOutput(name, redaction.redact(value)),
    summary: (markdown) => writeSummary(redaction, markdown),
    save: saveRunState,
    redaction,
    text: botText,
  };
}
