// The network report attacked through the bundle as the runner runs it (uid 1001, Docker): the command
// gives the proxy host names shaped as links and images, and hundreds of the longest names made of
// characters that escaping inflates, to fill the job summary past GitHub's 1 MiB (GitHub then drops the
// whole summary, the run's own report with it). Judged on the host: the summary file, the warnings, the
// outputs. Every request is refused before the proxy resolves or connects anything (its Host header names
// another host than its URL), so the attack reaches no address, on this machine or off it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { marked } from 'marked';
import { runStep } from '../support/action.js';
import { ALLOWED, ensureNetImage } from '../support/network.js';
import { chownTree, makeRepo, type TestRepo } from '../support/repo.js';
import { runnerIds } from '../support/env.js';
import { leftVolumes } from '../support/storage.js';

/** GitHub drops a step summary over this many bytes, whole. */
const GITHUB_SUMMARY_LIMIT = 1024 * 1024;
/** The action's own cap for the summary (src/present/step-summary.ts). */
const SUMMARY_CAP = 1_000_000;
/** The rows the proxy keeps (src/network/proxy.ts MAX_ROWS). */
const PROXY_ROWS = 500;
const LONG_HOSTS = 600;

/** Host headers shaped as Markdown and HTML that would be a link, an image or a mention. */
const SHAPES = [
  'https://login.example/x',
  '(http://127.0.0.1/t.png)',
  '![x](http://127.0.0.1/t.png)',
  'see [log in](https://login.example/)',
  '<img src=http://127.0.0.1/t.png>',
  'www.login.example',
  'user@login.example',
];

/**
 * The hostile command: a Node.js script that sends the proxy (HTTPS_PROXY's 127.0.0.1:3128) a request
 * for each Host header, eight at a time: the shapes first, then 600 names of 253 characters of `&` (each
 * escaped to five bytes), every one for a URL whose host is 253 more (the refusal's reason names it).
 */
function floodCommand(): string {
  const script = `
const net = require('node:net');
const shapes = ${JSON.stringify(SHAPES)};
const long = Array.from({ length: ${LONG_HOSTS} }, (_, i) => 'z' + String(i).padStart(3, '0') + '&'.repeat(249));
const hosts = [...shapes, ...long];
const urlHost = '&'.repeat(253);
let refused = 0;
const ask = (host) => new Promise((resolve) => {
  const s = net.connect(3128, '127.0.0.1');
  let head = '';
  const timer = setTimeout(() => s.destroy(), 10000);
  s.on('data', (d) => { head += d; });
  s.on('error', () => undefined);
  s.on('close', () => { clearTimeout(timer); if (/^HTTP\\/1\\.[01] 403/.test(head)) refused++; resolve(); });
  s.write('GET http://' + urlHost + '/ HTTP/1.1\\r\\nHost: ' + host + '\\r\\nConnection: close\\r\\n\\r\\n');
});
(async () => {
  const queue = [...hosts];
  await Promise.all(Array.from({ length: 8 }, async () => { while (queue.length) await ask(queue.shift()); }));
  console.log('refused ' + refused + ' of ' + hosts.length);
})();
`;
  return `node <<'EOF'\n${script}\nEOF`;
}

/** The characters numeric references in the HTML stand for: what a reader (and a linkifier) sees. */
const NAMED: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>' };
const decoded = (html: string) =>
  html
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&(amp|quot|lt|gt);/g, (_, name: string) => NAMED[name]);

const LINK = /https?:\/\/|www\./i;

let image = '';
const repos: TestRepo[] = [];
const volumes = leftVolumes('netreport');

beforeAll(() => {
  image = ensureNetImage();
}, 240_000);

afterAll(async () => {
  await volumes.removeAll();
  for (const r of repos) fs.rmSync(r.root, { recursive: true, force: true });
});

describe('the network report when the command floods the proxy with hostile host names (docker)', () => {
  it.each([
    ['an allow-list', ALLOWED],
    ['audit', 'audit'],
  ])(
    'with %s: the summary stays under the cap with the run’s own report, shows no link or image, and counts what it cut',
    async (_, network) => {
      const repo = makeRepo();
      repos.push(repo);
      chownTree(repo.root, runnerIds());
      const result = await runStep({
        inputs: {
          mode: 'run',
          image,
          engine: 'docker',
          'repository-path': repo.parent,
          'volume-prefix': volumes.prefix('docker'),
          network,
          command: floodCommand(),
        },
        env: { GITHUB_WORKSPACE: repo.parent },
        asRunner: true,
        timeoutMs: 480_000,
      });
      expect(result.code).toBe(0);
      // The attack happened: every request reached the proxy and was refused.
      expect(result.stdout).toContain(
        `refused ${SHAPES.length + LONG_HOSTS} of ${SHAPES.length + LONG_HOSTS}`,
      );
      const denied = JSON.parse(result.outputs['network-denied']) as Array<{ host: string }>;
      expect(denied).toHaveLength(PROXY_ROWS);
      expect(denied.map((d) => d.host)).toEqual(expect.arrayContaining(SHAPES));

      const summary = result.summary;
      const html = marked.parse(summary, { async: false, gfm: true });
      const shownRows = summary.split('\n').filter((l) => l.startsWith('| ⛔ ')).length;
      const cut = /(\d+) more host\(s\) not shown/.exec(summary);
      const warnings = result.stdout.split('\n').filter((l) => l.startsWith('::warning::Network'));
      expect({
        bytes: Buffer.byteLength(summary) <= SUMMARY_CAP && Buffer.byteLength(summary) < GITHUB_SUMMARY_LIMIT,
        report: summary.startsWith('## worktree-sandbox: run\n'),
        command: summary.includes('| Command | ✅ exit 0 |'),
        boundary: summary.includes('| Boundary | Nothing outside the sandbox could change'),
        network: summary.includes(`### Network (${network === 'audit' ? 'audit' : 'allow-list'}`),
        links: html.match(/<a[\s>][^>]*>/g) ?? [],
        images: html.match(/<img[^>]*>/g) ?? [],
        linkText: decoded(html).match(LINK)?.[0] ?? null,
        shapesShown: shownRows >= SHAPES.length,
        cutCounted: cut ? shownRows + Number(cut[1]) : null,
        uncounted: summary.includes(
          `${SHAPES.length + LONG_HOSTS - PROXY_ROWS} connection(s) to further hosts were not counted`,
        ),
        warningLinks: warnings.filter((l) => LINK.test(l)),
      }).toEqual({
        bytes: true,
        report: true,
        command: true,
        boundary: true,
        network: true,
        links: [],
        images: [],
        linkText: null,
        shapesShown: true,
        cutCounted: PROXY_ROWS,
        uncounted: true,
        warningLinks: [],
      });
      // The shapes are in the table, as text.
      expect(decoded(html).replace(/\u200b/g, '')).toContain('"(http://127.0.0.1/t.png)"');
      expect(warnings.length).toBeGreaterThan(0);
    },
    600_000,
  );
});
