// The `env` input: the variables the command's container gets from the step, and nothing else. Pure.
import { ENGINE_ENV } from '../engine/engine.js';
import { InputError, type InputReader } from './inputs.js';

export interface EnvEntry {
  name: string;
  value: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables the action sets itself in the container; a user entry may not override them. */
export const RESERVED_ENV = [
  'SANDBOX_NAME',
  'SANDBOX_KIND',
  'SANDBOX_BRANCH',
  'SANDBOX_WORKTREE',
  'SANDBOX_PARENT',
  'SANDBOX_PROMPT_FILE',
];

export function envEntries(read: InputReader, env: NodeJS.ProcessEnv): EnvEntry[] {
  const entries: EnvEntry[] = [];
  for (const line of read('env').split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const eq = line.indexOf('=');
    const name = (eq < 0 ? line : line.slice(0, eq)).trim();
    if (!ENV_NAME.test(name))
      throw new InputError('env', line, 'lines of NAME or NAME=value, NAME made of letters, digits and _');
    if (RESERVED_ENV.includes(name))
      throw new InputError('env', line, `a name other than ${RESERVED_ENV.join(', ')} (set by the action)`);
    if (entries.some((e) => e.name === name)) throw new InputError('env', line, 'each NAME at most once');
    const value = eq < 0 ? (env[name] ?? '') : line.slice(eq + 1);
    // A value of several lines reaches the container by name through the engine CLI's environment, where
    // it may never stand in for one of the CLI's own variables.
    if (/[\r\n]/.test(value) && ENGINE_ENV.includes(name))
      throw new InputError(
        'env',
        name,
        `a name other than ${ENGINE_ENV.join(', ')} for a value of several lines`,
      );
    entries.push({ name, value });
  }
  return entries;
}
