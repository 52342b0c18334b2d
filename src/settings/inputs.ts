// Reading one input: the runner's text (or action.yml's default) into a typed value, or an InputError that
// names the input and what it accepts. Pure.
import * as path from 'node:path';
import { ACTION_DEFAULTS } from '../action-defaults.js';

export type InputReader = (name: string) => string;

export class InputError extends Error {
  constructor(input: string, value: string, accepted: string) {
    super(`Invalid input '${input}': ${JSON.stringify(value)}. Accepted: ${accepted}.`);
    this.name = 'InputError';
  }
}

/**
 * An input as the runner hands it over: empty means action.yml's default (the runner fills defaults in
 * for the action; the CLI and tests get them here, from the one place they are written).
 */
export function withDefaults(read: InputReader): InputReader {
  return (name) => {
    const raw = read(name);
    return raw.trim() ? raw : (ACTION_DEFAULTS[name] ?? '');
  };
}

/** The inputs that take one of a few words, written once: the settings check them, the CLI offers them. */
export const CHOICES = {
  mode: ['run', 'reap'],
  engine: ['docker', 'podman'],
  isolation: ['container', 'disk'],
  cleanup: ['auto', 'always', 'never'],
  'secret-scan': ['block', 'warn', 'off'],
} as const;

export type Choice<K extends keyof typeof CHOICES> = (typeof CHOICES)[K][number];

export function oneOf<K extends keyof typeof CHOICES>(read: InputReader, name: K): Choice<K> {
  const raw = read(name).trim();
  const found = CHOICES[name].find((v) => v === raw.toLowerCase());
  if (!found) throw new InputError(name, raw, CHOICES[name].join(', '));
  return found;
}

export function boolean(read: InputReader, name: string): boolean {
  const raw = read(name).trim();
  if (!raw) return false;
  if (/^true$/i.test(raw)) return true;
  if (/^false$/i.test(raw)) return false;
  throw new InputError(name, raw, 'true or false');
}

export function number(read: InputReader, name: string, rule: { min: number; integer: boolean }): number {
  const raw = read(name).trim();
  if (!raw) return 0; // an input whose default is empty: none
  const pattern = rule.integer ? /^\d+$/ : /^(\d+(\.\d+)?|\.\d+)$/;
  const value = Number(raw);
  if (!pattern.test(raw) || !Number.isFinite(value) || value < rule.min || value > 1e9) {
    const kind = rule.integer ? 'a whole number' : 'a number';
    throw new InputError(name, raw, `${kind} ≥ ${rule.min}`);
  }
  return value;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

export function size(read: InputReader, name: string): number {
  const raw = read(name).trim();
  const match = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(raw);
  const value = match ? Math.floor(Number(match[1]) * UNITS[match[2].toLowerCase()]) : NaN;
  if (!match || !Number.isFinite(value) || value < 1024)
    throw new InputError(name, raw, 'a size of at least 1k, such as 512m or 2g');
  return value;
}

export function optionalPattern(
  read: InputReader,
  name: string,
  pattern: RegExp,
  accepted: string,
): string | undefined {
  const raw = read(name).trim();
  if (!raw) return undefined;
  if (!pattern.test(raw)) throw new InputError(name, raw, accepted);
  return raw;
}

export function list(read: InputReader, name: string): string[] {
  const raw = read(name).trim();
  if (!raw) return [];
  return raw
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
export const CONTROL = /[\u0000-\u001f\u007f]/;

export function pathInput(read: InputReader, name: string): string | undefined {
  const raw = read(name);
  if (!raw.trim()) return undefined;
  if (CONTROL.test(raw))
    throw new InputError(name, raw, 'a path without control characters (newlines, tabs, NUL)');
  return path.resolve(raw.trim());
}

/** Input `name`, trimmed, when it matches `pattern` (or is empty and `optional`). */
function matching(read: InputReader, name: string, pattern: RegExp, accepted: string, optional = false) {
  const raw = read(name).trim();
  if ((optional && !raw) || pattern.test(raw)) return raw;
  throw new InputError(name, raw, accepted);
}

export const image = (read: InputReader): string =>
  matching(
    read,
    'image',
    /^(?=.{1,512}$)[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/,
    'an image reference such as debian:bookworm or ghcr.io/owner/image:tag',
  );

export const volumePrefix = (read: InputReader): string =>
  matching(
    read,
    'volume-prefix',
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/,
    'letters, digits, _ . - (starting with a letter or digit, at most 63 characters)',
  );

/** A first, pure check of a branch name; git's own rules are applied by `validateBranchNames`. */
export function branchInput(read: InputReader, name: string): string {
  const raw = read(name);
  const value = raw.trim();
  if (!value) return '';
  if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255 || value.includes('\ufffd')) {
    throw new InputError(
      name,
      raw,
      "a branch name valid for 'git check-ref-format --branch' (at most 255 characters)",
    );
  }
  return value.replace(/^refs\/heads\//, '');
}

export function revisionInput(read: InputReader, name: string): string {
  const raw = read(name);
  const value = raw.trim();
  if (!value) return '';
  if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255) {
    throw new InputError(name, raw, 'a commit, branch or tag name');
  }
  return value;
}

export const triggerCommand = (read: InputReader): string =>
  matching(read, 'trigger', /^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'one word such as /fix', true);

/** `label-trigger`: a label's name as GitHub allows it (one line, at most 50 characters). */
export function labelTrigger(read: InputReader): string {
  const raw = read('label-trigger').trim();
  if (raw && (CONTROL.test(raw) || raw.length > 50))
    throw new InputError('label-trigger', raw, 'a label name of at most 50 characters, such as fix-me');
  return raw;
}

/** `assignee-trigger`: a GitHub login (a bot's with or without `[bot]`). */
export const assigneeTrigger = (read: InputReader): string =>
  matching(
    read,
    'assignee-trigger',
    /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/,
    'a GitHub login such as fix-bot',
    true,
  );

/** `issue-branch-prefix`: the start of a branch name (the issue's number completes it). */
export function issueBranchPrefix(read: InputReader): string {
  const raw = read('issue-branch-prefix').trim();
  if (
    !raw ||
    raw.length > 200 ||
    raw.startsWith('-') ||
    raw.startsWith('/') ||
    CONTROL.test(raw) ||
    /[\s~^:?*[\\]|\.\.|@\{|\/\/|\.lock\//.test(raw)
  )
    throw new InputError(
      'issue-branch-prefix',
      raw,
      'the start of a branch name (at most 200 characters, no spaces, no ~ ^ : ? * [ \\ or ..), such as worktree-sandbox/issue-',
    );
  return raw;
}
