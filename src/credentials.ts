// Credentials persisted in the parent's .git/config are readable by the container, which mounts .git
// read-write: actions/checkout (v4, v5) writes `http.<server>/.extraheader = AUTHORIZATION: basic <token>`
// there, others put a token in a remote URL or a credential helper, and v6 includes a credentials file
// through `includeIf`. For the container's lifetime the config holds none of these; the git guard puts the
// original bytes back as soon as the container is gone.
import * as fs from 'node:fs/promises';
import type { Git } from './git.js';

export interface ConfigEntry {
  key: string;
  value: string;
}

export interface StrippedConfig {
  /** The config the container sees. */
  content: Buffer;
  /** Keys removed or rewritten, for the log (never their values). */
  stripped: string[];
  /** Secret values found, to be masked in every log. */
  secrets: string[];
}

/** Parses `git config --null --list` output: `key\nvalue\0` per entry (`key\0` for a key without value). */
export function parseConfigList(text: string): ConfigEntry[] {
  return text
    .split('\0')
    .filter(Boolean)
    .map((item) => {
      const nl = item.indexOf('\n');
      return nl < 0 ? { key: item, value: '' } : { key: item.slice(0, nl), value: item.slice(nl + 1) };
    });
}

const USERINFO_URL = /^([a-z][a-z0-9+.-]*:\/\/)([^/@\s]+)@/i;

/** The section part of a key (`url.https://x@h/` of `url.https://x@h/.insteadof`). */
function sectionOf(key: string): string {
  return key.slice(0, key.lastIndexOf('.'));
}

/** Keys whose value is, or points at, a credential. */
export function isCredentialKey(key: string): boolean {
  const lower = key.toLowerCase();
  const section = lower.split('.')[0];
  const name = lower.slice(lower.lastIndexOf('.') + 1);
  if (section === 'credential') return true;
  if (section === 'http' && (name === 'extraheader' || name === 'cookiefile')) return true;
  if ((section === 'include' || section === 'includeif') && name === 'path') return true;
  return false;
}

/** Secrets carried by one entry: an auth header's credentials (and the token inside), a URL's password. */
export function secretsOf(entry: ConfigEntry): string[] {
  const found: string[] = [];
  const header = /^\s*authorization:\s*(basic|bearer|token)\s+(\S+)/i.exec(entry.value);
  if (header) {
    found.push(header[2]);
    if (header[1].toLowerCase() === 'basic') {
      const decoded = Buffer.from(header[2], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0 && colon < decoded.length - 1) found.push(decoded.slice(colon + 1));
    }
  }
  for (const text of [entry.value, sectionOf(entry.key)]) {
    const url = USERINFO_URL.exec(text);
    if (url) {
      const colon = url[2].indexOf(':');
      found.push(colon >= 0 ? url[2].slice(colon + 1) : url[2]);
    }
  }
  return found.filter((s) => s.length >= 4);
}

/** A copy of `configPath` without credentials, made with git itself in `scratch` (a host-only file). */
export async function stripCredentials(
  git: Git,
  configPath: string,
  scratch: string,
): Promise<StrippedConfig> {
  await fs.copyFile(configPath, scratch);
  const list = async () =>
    parseConfigList(await git.run('/', ['config', '--file', scratch, '--no-includes', '--null', '--list']));
  const entries = await list();
  const secrets = [...new Set(entries.flatMap(secretsOf))];
  const stripped: string[] = [];
  const edit = (args: string[]) => git.run('/', ['config', '--file', scratch, ...args]);
  const sections = new Set(entries.map((e) => sectionOf(e.key)).filter((s) => USERINFO_URL.test(s)));
  for (const section of sections) {
    await edit(['--remove-section', '--', section]);
    stripped.push(section.replace(USERINFO_URL, '$1***@'));
  }
  for (const key of new Set(entries.map((e) => e.key))) {
    if (sections.has(sectionOf(key))) continue;
    const values = entries.filter((e) => e.key === key).map((e) => e.value);
    if (isCredentialKey(key)) {
      await edit(['--unset-all', '--', key]);
      stripped.push(key);
    } else if (values.some((v) => USERINFO_URL.test(v))) {
      await edit(['--unset-all', '--', key]);
      for (const value of values) await edit(['--add', '--', key, value.replace(USERINFO_URL, '$1')]);
      stripped.push(key);
    }
  }
  const content = await fs.readFile(scratch);
  const text = content.toString('utf8');
  const left = secrets.filter((s) => text.includes(s));
  if (left.length) {
    throw new Error(
      `The parent's .git/config holds a credential that could not be removed before the command runs (in a comment or an unusual entry): remove it (actions/checkout: persist-credentials: false) and run again.`,
    );
  }
  await fs.rm(scratch, { force: true });
  return { content, stripped, secrets };
}
