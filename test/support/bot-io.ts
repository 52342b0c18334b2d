// The pull-request bot's outside world, recorded: what it logged, warned, put in outputs and the summary,
// and saved for the post step. For in-process tests of runForPullRequest against a fake GitHub.
import * as path from 'node:path';
import type { PrRunIo } from '../../src/github/pr-run.js';
import type { PullRequestRunState } from '../../src/github/feedback.js';
import { botText } from '../../src/present/bot-summary.js';
import { Redaction } from '../../src/run/redaction.js';
import { writeEvent } from './webhooks.js';

export interface RecordedIo {
  outputs: Record<string, string>;
  summary: string;
  log: string[];
  debug: string[];
  warnings: string[];
  state: Partial<PullRequestRunState>;
  saves: number;
}

/** Everything the bot printed, said or wrote anywhere but the command's files, as one text. */
export function everythingShown(recorded: RecordedIo): string {
  return [...recorded.log, ...recorded.debug, ...recorded.warnings, recorded.summary].join('\n');
}

export function recordingIo(options: {
  eventName: string;
  /** The run's redaction (run/redaction.ts `redactionFor`); none by default. */
  redaction?: Redaction;
  payload: unknown;
  work: string;
  repository: string;
  apiUrl: string;
  serverUrl: string;
  /** Called with the state each time the run saves it. */
  onSave?: (state: Partial<PullRequestRunState>) => void;
}): { io: PrRunIo; recorded: RecordedIo } {
  const recorded: RecordedIo = {
    outputs: {},
    summary: '',
    log: [],
    debug: [],
    warnings: [],
    state: {},
    saves: 0,
  };
  const io: PrRunIo = {
    ui: {
      info: (m) => recorded.log.push(m),
      debug: () => undefined,
      debugging: false,
      warning: (m) => recorded.warnings.push(m),
      group: (_t, fn) => fn(),
      untrusted: (fn) => fn((line) => recorded.log.push(line)),
      fenced: (text) => recorded.log.push(text),
      mask: () => undefined,
    },
    debug: (m) => recorded.debug.push(m),
    // Retry and rate-limit pauses at 1/1000: a minute's wait takes 60 ms.
    api: { delayScale: 0.001 },
    env: {
      GITHUB_EVENT_NAME: options.eventName,
      GITHUB_EVENT_PATH: writeEvent(options.work, options.payload),
      GITHUB_REPOSITORY: options.repository,
      GITHUB_API_URL: options.apiUrl,
      GITHUB_SERVER_URL: options.serverUrl,
      GITHUB_RUN_ID: '4242',
      RUNNER_TEMP: path.join(options.work, 'runner-temp'),
    },
    setOutput: (name, value) => (recorded.outputs[name] = value),
    summary: async (markdown) => {
      recorded.summary += markdown;
    },
    save: (state) => {
      recorded.saves++;
      recorded.state = { ...recorded.state, ...state };
      options.onSave?.(recorded.state);
    },
    redaction: options.redaction ?? Redaction.none,
    text: botText,
  };
  return { io, recorded };
}
