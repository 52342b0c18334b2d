// The values the step knows to be secret, and the forms they are searched for in what leaves a run: the
// token, the values of `credentials`, and the values of `env` entries whose names say they are secret.
// A value is searched for as written, URL-encoded, JSON-escaped, as hex, and as base64 (standard and URL
// alphabets, at each of the three alignments it can have inside a longer encoded text). Pure.
// Not covered: other encodings (upper-case hex, base32, gzip, a value split or reversed).
import type { RunSettings } from '../settings/settings.js';

/** `env` names that say their value is secret: `*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` (any case). */
export const SECRET_ENV_NAME = /(^|_)(KEY|TOKEN|SECRET|PASSWORD)$/i;

/**
 * Values shorter than this are not searched for: a four-letter "secret" is found in every diff, and so
 * blocks every push. The step says so (`shortSecrets`).
 */
export const MIN_SECRET_LENGTH = 8;

export interface KnownSecret {
  /** How a finding names it (never the value): `token`, `credentials for api.example.com`, `env API_KEY`. */
  name: string;
  value: string;
}

export interface Needle {
  /** The secret's name, and the form found: `env API_KEY`, `env API_KEY (base64)`. */
  rule: string;
  text: string;
}

export type SecretSettings = Pick<RunSettings, 'token' | 'network' | 'env'>;

export function knownSecrets(settings: SecretSettings): KnownSecret[] {
  const found: KnownSecret[] = [];
  if (settings.token) found.push({ name: 'token', value: settings.token });
  if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
    for (const credential of settings.network.credentials) {
      // `Bearer <token>`, `token <token>`: the part after the scheme is the secret, and every form of the
      // whole value holds a form of that part (base64 at one of its alignments): it alone is searched.
      const scheme = /^[A-Za-z][A-Za-z0-9-]*\s+(\S.*)$/.exec(credential.value);
      found.push({
        name: `credentials for ${credential.host}`,
        value: scheme ? scheme[1] : credential.value,
      });
    }
  for (const entry of settings.env)
    if (SECRET_ENV_NAME.test(entry.name)) found.push({ name: `env ${entry.name}`, value: entry.value });
  return found;
}

/** The secrets too short to be searched for (their names only). */
export function shortSecrets(secrets: readonly KnownSecret[]): string[] {
  const names = secrets.filter((s) => s.value.length > 0 && s.value.length < MIN_SECRET_LENGTH);
  return [...new Set(names.map((s) => s.name))];
}

/**
 * Every form of every secret long enough, each once (the first name that has it), and none that holds
 * another: text that holds the longer one holds the shorter one too, and each costs a pass over the text.
 */
export function needlesOf(secrets: readonly KnownSecret[]): Needle[] {
  const all = allForms(secrets);
  return all.filter(
    (n) => !all.some((m) => m !== n && m.text.length < n.text.length && n.text.includes(m.text)),
  );
}

/** Every form of every secret long enough, each once: what the redaction (redaction.ts) masks. */
export function allForms(secrets: readonly KnownSecret[]): Needle[] {
  const seen = new Set<string>();
  const needles: Needle[] = [];
  const add = (rule: string, text: string) => {
    if (text.length < MIN_SECRET_LENGTH || seen.has(text)) return;
    seen.add(text);
    needles.push({ rule, text });
  };
  for (const { name, value } of secrets) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    add(name, value);
    add(`${name} (URL-encoded)`, encodeURIComponent(value));
    add(`${name} (JSON-escaped)`, JSON.stringify(value).slice(1, -1));
    const bytes = Buffer.from(value, 'utf8');
    add(`${name} (hex)`, bytes.toString('hex'));
    for (const text of base64Forms(bytes)) {
      add(`${name} (base64)`, text);
      add(`${name} (base64)`, text.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return needles;
}

/**
 * The base64 text that `bytes` always produce inside a longer encoded text, at each alignment: encoded
 * after 0, 1 or 2 other bytes, the characters that mix in a neighbour's bits are left out at both ends.
 */
export function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const pad of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = Math.ceil((pad * 8) / 6);
    const end = Math.floor(((pad + bytes.length) * 8) / 6);
    if (end > start) forms.push(encoded.slice(start, end));
  }
  return forms;
}
