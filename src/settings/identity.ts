// Who commits: a git identity written `Name <email>`, as git and create-pull-request write it. Pure.
// The default is the Actions bot. Its no-reply address lives on the server's own `users.noreply` domain,
// so it is derived from GITHUB_SERVER_URL; the numeric id prefix is the bot's account id on github.com
// only, and is left out elsewhere (an address without it is still the bot's).

export interface GitIdentity {
  name: string;
  email: string;
}

const BOT_LOGIN = 'github-actions[bot]';
const BOT_ID_ON_GITHUB_COM = 41898282;

export function defaultBotIdentity(serverUrl: string | undefined): GitIdentity {
  const host = hostOf(serverUrl);
  const local = host === 'github.com' ? `${BOT_ID_ON_GITHUB_COM}+${BOT_LOGIN}` : BOT_LOGIN;
  return { name: BOT_LOGIN, email: `${local}@users.noreply.${host}` };
}

function hostOf(serverUrl: string | undefined): string {
  try {
    const host = new URL(serverUrl || 'https://github.com').hostname.toLowerCase();
    return host || 'github.com';
  } catch {
    return 'github.com';
  }
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

/** `Name <email>`; undefined when the text is not one (no name, no address, stray brackets, newlines). */
export function parseIdentity(text: string): GitIdentity | undefined {
  const match = /^([^<>]+?)\s*<([^<>\s]+)>$/.exec(text.trim());
  if (!match || CONTROL.test(text)) return undefined;
  const [, name, email] = match;
  if (!/^[^@]+@[^@]+$/.test(email) || name.length > 200 || email.length > 254) return undefined;
  return { name: name.trim(), email };
}

export function formatIdentity(identity: GitIdentity): string {
  return `${identity.name} <${identity.email}>`;
}
