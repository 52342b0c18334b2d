import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { credentialPolicy } from '../../test/support/credentials.js';
import { allForms, knownSecrets, type SecretSettings } from '../run/secret-values.js';
import { terminalUi } from './terminal-ui.js';

// Values with characters that each encoding writes its own way (`+`, `/`, `"`, a space, non-ASCII).
const network = credentialPolicy('Bearer sk+li/ve "01"');
const settings: SecretSettings = {
  token: 'ghs_token0123456789',
  network,
  env: [{ name: 'OPENAI_API_KEY', value: 'kéy/vàlue+12 "x"' }],
};

function capture(): { text: () => string; stream: NodeJS.WriteStream } {
  let out = '';
  const write = (chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  };
  // The command's output goes to stdout, the CLI's own lines to the stream it is given.
  jest.spyOn(process.stdout, 'write').mockImplementation(write as typeof process.stdout.write);
  return { text: () => out, stream: { write, isTTY: false } as unknown as NodeJS.WriteStream };
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('terminalUi', () => {
  it('masks every form the redaction knows of the token, credentials and secret env values, in every line', async () => {
    const { text, stream } = capture();
    const ui = terminalUi({ stream });
    // As the run registers them (run/run.ts): the token, each credential's whole value, the known secrets.
    ui.mask(settings.token);
    ui.mask(network.credentials[0].value);
    for (const { value } of knownSecrets(settings)) ui.mask(value);
    const forms = allForms(knownSecrets(settings));
    // The test covers each encoding the redaction knows, for each kind of secret.
    const kinds = new Set(forms.map((f) => /\(([^)]+)\)$/.exec(f.rule)?.[1] ?? 'as written'));
    expect(kinds).toEqual(new Set(['as written', 'URL-encoded', 'JSON-escaped', 'hex', 'base64']));
    expect(new Set(forms.map((f) => f.rule.replace(/ \(.*\)$/, '')))).toEqual(
      new Set(['token', 'credentials for api.example.com', 'env OPENAI_API_KEY']),
    );
    const lines = forms.map((f) => `leaked ${f.rule}: <${f.text}>`);
    // Inside longer base64, at each of the three alignments.
    for (const value of ['sk+li/ve "01"', 'kéy/vàlue+12 "x"'])
      for (const pad of ['', 'a', 'ab']) lines.push(Buffer.from(`${pad}${value}::tail`).toString('base64'));
    await ui.untrusted(async (write) => {
      for (const line of lines) write(line);
    });
    for (const line of lines) {
      ui.info(line);
      ui.warning(line);
    }
    const shown = text();
    for (const { text: form } of forms) expect(shown).not.toContain(form);
    expect(shown.match(/\*\*\*/g)?.length).toBeGreaterThanOrEqual(3 * forms.length);
    expect(shown).toContain('leaked env OPENAI_API_KEY (base64): <***>');
  });

  it('masks a value shorter than the redaction reads as written, as the Actions log does', () => {
    const { text, stream } = capture();
    const ui = terminalUi({ stream });
    ui.mask('');
    ui.mask('s3cr');
    ui.info('the key s3cr, again s3cr');
    expect(text()).toBe('the key ***, again ***\n');
  });

  it('masks values registered after output began (the secret scan registers its forms late)', () => {
    const { text, stream } = capture();
    const ui = terminalUi({ stream });
    ui.info('before 0123456789abcdef');
    ui.mask('0123456789abcdef');
    ui.info('after 0123456789abcdef, as hex 30313233343536373839616263646566');
    expect(text()).toBe('before 0123456789abcdef\nafter ***, as hex ***\n');
  });
});
