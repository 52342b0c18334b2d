// explainStartFailure against the stderr of real containers that did not start, captured on a Debian 12
// host (Podman 4.3.1, Docker 20.10).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainStartFailure, startFailureHint } from './start-failure.js';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/engine-mode',
);
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('explainStartFailure', () => {
  it.each([
    ['notun.stderr.txt', 'no-tun', /No such file or directory/, /network: none/],
    ['tun-eacces.stderr.txt', 'no-tun', /Permission denied/, /network: none/],
    ['noslirp.stderr.txt', 'network-helper-missing', /slirp4netns, which is not installed/, /network: none/],
    [
      'nopasta.stderr.txt',
      'network-helper-missing',
      /pasta, which this Podman does not know/,
      /network: none/,
    ],
    ['nosubuid.stderr.txt', 'no-subids', /runner has no subordinate uids/, /usermod --add-subuids/],
    ['nonewuidmap.stderr.txt', 'newuidmap-missing', /newuidmap/, /uidmap package/],
    ['keepid-rootful.stderr.txt', 'keep-id-rootful', /rootful/, /rootful: none/],
    ['nosh.stderr.txt', 'command-not-found', /no `sh`/, /image/],
    ['exit127.stderr.txt', 'command-not-found', /`nonexistent-cmd` is not in the image/, /image/],
    ['docker127.stderr.txt', 'command-not-found', /`nonexistent-cmd` is not in the image/, /image/],
    ['docker-init-nosh.stderr.txt', 'command-not-found', /no `sh`/, /image/],
    ['exit126.stderr.txt', 'command-not-executable', /`\/etc\/passwd` is not executable/, /image/],
    ['xdg-missing.stderr.txt', 'runtime-dir', /missing or not writable/, /XDG_RUNTIME_DIR/],
    ['xdg-not-owned.stderr.txt', 'runtime-dir', /\/run \(XDG_RUNTIME_DIR\) is not owned/, /mode 700/],
  ])('%s: %s', (file, kind, message, hint) => {
    const explained = explainStartFailure(fixture(file));
    expect(explained?.kind).toBe(kind);
    expect(explained?.message).toMatch(message);
    expect(explained?.hint).toMatch(hint);
  });

  it('leaves other failures alone', () => {
    expect(explainStartFailure('Error: no such volume: x')).toBeUndefined();
    expect(explainStartFailure('')).toBeUndefined();
  });

  it.each([
    ['Error: error setting up network for the container', 'network-setup', /network: none/],
    ['Error: netns: operation not permitted', 'network-setup', /network: none/],
    ['Error: "sh": something the engine said', 'no-shell', /`sh` and `git`/],
  ])('says less precise words too: %s', (stderr, kind, hint) => {
    expect(explainStartFailure(stderr)).toMatchObject({ kind });
    expect(explainStartFailure(stderr)?.hint).toMatch(hint);
  });
});

describe('startFailureHint', () => {
  it('follows the engine’s words with what went wrong and what to do, or adds nothing', () => {
    expect(startFailureHint(fixture('nosh.stderr.txt'))).toMatch(/^ \(The image has no `sh`.* Use an image/);
    expect(startFailureHint('Error: no such volume: x')).toBe('');
  });
});
