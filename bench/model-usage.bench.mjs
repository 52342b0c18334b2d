// The cost of metering a model API's answer (docs/network.md, "Model usage and budget"): the proxy of this
// source, in child processes of its own (one for the plain variants, one for TLS), each on a Unix socket; a server in this process streams a 10 MB
// answer of server-sent events in Anthropic's shape (usage at the start and the end) to a plain-HTTP
// POST /v1/messages, which the proxy meters, and from an HTTPS server to the same POST on a host in
// `credentials`, whose TLS the proxy ends (the path of every hosted model API: TLS from the command, the
// key set, TLS to the API). Variants, interleaved round by round:
//   metered        plain HTTP, text/event-stream: the answer passes the usage scanner;
//   unscanned      the same bytes as text/plain: the same path (send-on.ts), the scanner not used;
//   forward        the same bytes to POST /v1/other: not a model API, proxy-chain's `forward` as before;
//   tls-metered    the credential host, through one kept-alive CONNECT tunnel per sample;
//   tls-unscanned  the same, as text/plain.
// Per sample (BENCH_BATCH requests of one variant): the proxy process's CPU time per request
// (process.cpuUsage, user + system, read before and after the batch) and the median time to the first
// byte of the answer's body (the server writes the first event at once, the rest after 50 ms). Medians
// over the rounds, and the median of each round's own difference between metered and unscanned. Then the
// usage scanner alone on the same bytes, in this process: its own share of the metered path's CPU, and its
// floor.
// Usage: node bench/model-usage.bench.mjs [rounds=15]      BENCH_BATCH=5 (requests per sample)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { setTimeout } from 'node:timers';
import { build } from 'esbuild';
import { CACHE, loadAverage, machineNote, median, ROOT } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 15);
/** Requests per sample, each variant in turn (BENCH_BATCH). */
const BATCH = Number(process.env.BENCH_BATCH ?? 5);
const SIZE = 10 * 1024 * 1024;
const loadStart = loadAverage();

fs.mkdirSync(CACHE, { recursive: true });
const work = fs.mkdtempSync(path.join(CACHE, 'model-usage-')); // beside node_modules, which it imports
await build({
  stdin: {
    contents: `export { startProxy } from './src/network/proxy.ts'; export { parseNetwork, parseCredentials } from './src/network/policy.ts'; export { createRunCa } from './src/network/ca.ts'; export { UsageScanner } from './src/network/usage-scanner.ts';`,
    resolveDir: ROOT,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  nodePaths: [path.join(ROOT, 'node_modules')],
  outfile: path.join(work, 'network.mjs'),
  logLevel: 'warning',
});
fs.writeFileSync(
  path.join(work, 'proxy.mjs'),
  `import * as readline from 'node:readline';
import * as fs from 'node:fs';
import { startProxy, parseNetwork, parseCredentials, createRunCa } from './network.mjs';
const [socketPath, allow, credential, serverCaFile] = process.argv.slice(2);
await startProxy(
  credential
    ? {
        policy: parseCredentials(credential, parseNetwork(allow)),
        socketPath,
        ca: await createRunCa(),
        trustedCas: fs.readFileSync(serverCaFile, 'utf8'),
      }
    : { policy: parseNetwork(allow), socketPath },
);
console.log('ready');
// Each line in: this process's CPU time so far (microseconds), one line out.
for await (const _ of readline.createInterface({ input: process.stdin })) {
  const { user, system } = process.cpuUsage();
  console.log(user + system);
}`,
);

// The answer: message_start with usage, ~100-byte text deltas to 10 MB, message_delta with usage.
const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const first = event('message_start', {
  type: 'message_start',
  message: { model: 'bench', content: [], usage: { input_tokens: 1000, output_tokens: 1 } },
});
const delta = event('content_block_delta', {
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text: 'The quick brown fox jumps over the lazy dog, again and again, ' },
});
const last = event('message_delta', { type: 'message_delta', usage: { output_tokens: 250000 } });
const rest = Buffer.from(delta.repeat(Math.ceil((SIZE - first.length - last.length) / delta.length)) + last);

const answerWith = (req, res) => {
  req.resume();
  req.on('end', () => {
    const plain = req.url.includes('plain');
    res.writeHead(200, { 'content-type': plain ? 'text/plain' : 'text/event-stream' });
    res.write(first);
    setTimeout(() => {
      let at = 0;
      const more = () => {
        while (at < rest.length) {
          const piece = rest.subarray(at, at + 65536);
          at += piece.length;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    }, 50);
  });
};
const server = http.createServer(answerWith);
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
// The API over HTTPS, by a certificate of a CA of its own that the proxy is told to trust.
const { createRunCa } = await import(path.join(work, 'network.mjs'));
const serverCa = await createRunCa();
const serverCaFile = path.join(work, 'server-ca.pem');
fs.writeFileSync(serverCaFile, serverCa.certificate);
const secureServer = https.createServer(await serverCa.leaf('localhost'), answerWith);
await new Promise((r) => secureServer.listen(0, '127.0.0.1', r));
const securePort = secureServer.address().port;

/**
 * A proxy of this source in a child process of its own (`args` after its socket's path), and its CPU time
 * so far (ms), read on request. The plain and the TLS variants each have their own, so that neither's
 * connections, heap or collections weigh on the other's figures.
 */
async function proxyProcess(name, args) {
  const socketPath = path.join(work, `${name}.sock`);
  const child = spawn(process.execPath, [path.join(work, 'proxy.mjs'), socketPath, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = [];
  let waiting;
  let buffered = '';
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting?.();
    }
  });
  const nextLine = () =>
    new Promise((resolve) => {
      const take = () => {
        waiting = undefined;
        if (lines.length) resolve(lines.shift());
        else waiting = take;
      };
      take();
    });
  await nextLine(); // ready
  return {
    socketPath,
    cpu: async () => {
      child.stdin.write('\n');
      return Number(await nextLine()) / 1000;
    },
    kill: () => child.kill(),
  };
}
const plainProxy = await proxyProcess('plain', [`localhost:${port}`]);
const tlsProxy = await proxyProcess('tls', [
  `localhost:${securePort}`,
  `localhost:${securePort} x-api-key: bench-key`,
  serverCaFile,
]);

/**
 * An agent for the credential host: one CONNECT tunnel through the proxy, TLS inside it (the proxy's
 * certificate, made for the run, is not checked here), kept alive for the requests of a sample.
 */
function tunnelAgent() {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
  agent.createConnection = (_options, done) => {
    http
      .request({
        socketPath: tlsProxy.socketPath,
        method: 'CONNECT',
        path: `localhost:${securePort}`,
        agent: false,
      })
      .once('connect', (res, socket) => {
        if (res.statusCode !== 200) return done(new Error(`CONNECT: ${res.statusCode}`));
        const secure = tls.connect({ socket, servername: 'localhost', rejectUnauthorized: false });
        secure.once('secureConnect', () => done(null, secure)).once('error', done);
      })
      .once('error', done)
      .end();
  };
  return agent;
}

/** One POST through the proxy (by `agent`: to the credential host): the time to the first byte of its body (ms). */
async function post(target, agent) {
  const started = process.hrtime.bigint();
  let ttfb = 0;
  let bytes = 0;
  await new Promise((resolve, reject) => {
    const req = (agent ? https : http).request(
      {
        ...(agent
          ? { agent, host: 'localhost', port: securePort, path: target }
          : { agent: false, socketPath: plainProxy.socketPath, path: `http://localhost:${port}${target}` }),
        method: 'POST',
        headers: { host: `localhost:${agent ? securePort : port}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.on('data', (d) => {
          if (!ttfb) ttfb = Number(process.hrtime.bigint() - started) / 1e6;
          bytes += d.length;
        });
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end('{"model":"bench","stream":true}');
  });
  if (bytes !== first.length + rest.length) throw new Error(`${target}: ${bytes} bytes`);
  return ttfb;
}

/**
 * BATCH POSTs in a row: the proxy's CPU (ms) per request, read around the batch (one request's 17 ms or so
 * moves by a millisecond between two reads, a batch's share of it by less), and their median time to the
 * first byte (ms).
 */
async function once({ target, secure }) {
  const agent = secure ? tunnelAgent() : undefined;
  const proxy = secure ? tlsProxy : plainProxy;
  const before = await proxy.cpu();
  const ttfbs = [];
  for (let i = 0; i < BATCH; i++) ttfbs.push(await post(target, agent));
  agent?.destroy();
  // Let the proxy finish its side (the answer recorded, the tunnel closed) before its CPU is read.
  await new Promise((r) => setTimeout(r, 20));
  return { cpu: ((await proxy.cpu()) - before) / BATCH, ttfb: median(ttfbs) };
}

const variants = {
  metered: { target: '/v1/messages' },
  unscanned: { target: '/v1/messages?plain' },
  forward: { target: '/v1/other' },
  'tls-metered': { target: '/v1/messages', secure: true },
  'tls-unscanned': { target: '/v1/messages?plain', secure: true },
};
const results = Object.fromEntries(Object.keys(variants).map((k) => [k, { cpu: [], ttfb: [] }]));
for (const target of Object.values(variants)) await once(target); // warm-up
/** Per round: metering's CPU against the unscanned path's in the same round, in percent. */
const paired = [];
const pairedTls = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(variants);
  if (round % 2) order.reverse();
  const inRound = {};
  for (const name of order) {
    const r = await once(variants[name]);
    results[name].cpu.push(r.cpu);
    results[name].ttfb.push(r.ttfb);
    inRound[name] = r.cpu;
  }
  paired.push(((inRound.metered - inRound.unscanned) / inRound.unscanned) * 100);
  pairedTls.push(((inRound['tls-metered'] - inRound['tls-unscanned']) / inRound['tls-unscanned']) * 100);
}
plainProxy.kill();
tlsProxy.kill();
server.close();
secureServer.close();

// The scanner alone, in this process, on the same bytes in fresh 32 KiB chunks (the proxy's HTTP client
// hands on about that much per 'data' event here): the part of the metered path's CPU that is the
// scanner's own work. Beside it, on the same chunks, its floor: the search for the key's word alone
// (Buffer.indexOf('usage'), which stops at every 'u'), and a read of every byte that stops nowhere (the
// search for a byte the answer does not hold), the least any scanner that reads every byte could cost.
const { UsageScanner } = await import(path.join(work, 'network.mjs'));
const answer = Buffer.concat([Buffer.from(first), rest]);
const CHUNK = 32 * 1024;
const floor = { scanner: [], word: [], read: [] };
const cpuOf = (work) => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const WORD = Buffer.from('usage');
for (let round = 0; round < ROUNDS * BATCH; round++) {
  const chunks = [];
  for (let at = 0; at < answer.length; at += CHUNK) chunks.push(Buffer.from(answer.subarray(at, at + CHUNK)));
  floor.scanner.push(
    cpuOf(() => {
      const scanner = new UsageScanner('anthropic', 'sse');
      for (const chunk of chunks) scanner.write(chunk);
      if (scanner.end().usage?.output !== 250000) throw new Error('the scanner did not read the usage');
    }),
  );
  floor.word.push(
    cpuOf(() => {
      for (const chunk of chunks)
        for (let at = chunk.indexOf(WORD); at !== -1; at = chunk.indexOf(WORD, at + 1));
    }),
  );
  floor.read.push(cpuOf(() => chunks.forEach((chunk) => chunk.indexOf(0x01))));
}
const scannerOnly = floor.scanner;
fs.rmSync(work, { recursive: true, force: true });

const m = Object.fromEntries(
  Object.entries(results).map(([k, v]) => [k, { cpu: median(v.cpu), ttfb: median(v.ttfb) }]),
);
console.log(
  `A 10 MB streamed answer through the proxy, ${ROUNDS} rounds of ${BATCH} requests per variant, medians (${machineNote()}; load ${loadStart} → ${loadAverage()})`,
);
console.log('| Variant | Proxy CPU (ms) | Time to first byte (ms) |');
console.log('|---|---|---|');
for (const [k, v] of Object.entries(m)) console.log(`| ${k} | ${v.cpu.toFixed(1)} | ${v.ttfb.toFixed(1)} |`);
const pct = (a, b) => `${(((a - b) / b) * 100).toFixed(1)} %`;
console.log(
  `metering vs the same path unscanned: CPU ${pct(m.metered.cpu, m.unscanned.cpu)}, first byte ${(m.metered.ttfb - m.unscanned.ttfb).toFixed(1)} ms`,
);
console.log(
  `metering vs the same path unscanned, the median of the rounds' own differences: CPU ${median(paired).toFixed(1)} %`,
);
console.log(
  `on the credential host (TLS both sides), metering vs unscanned: CPU ${pct(m['tls-metered'].cpu, m['tls-unscanned'].cpu)}; the median of the rounds' own differences ${median(pairedTls).toFixed(1)} %; the scanner alone ${((median(scannerOnly) / m['tls-unscanned'].cpu) * 100).toFixed(1)} % of it`,
);
console.log(
  `the scanner alone: ${median(scannerOnly).toFixed(2)} ms per answer, ${((median(scannerOnly) / m.unscanned.cpu) * 100).toFixed(1)} % of the unscanned path's CPU`,
);
const share = (ms) => `${ms.toFixed(2)} ms, ${((ms / m.unscanned.cpu) * 100).toFixed(1)} %`;
console.log(
  `its floor: the key's word searched alone ${share(median(floor.word))}; every byte read, stopping nowhere ${share(median(floor.read))}`,
);
console.log(
  `metering vs proxy-chain's forward: CPU ${pct(m.metered.cpu, m.forward.cpu)}, first byte ${(m.metered.ttfb - m.forward.ttfb).toFixed(1)} ms`,
);
