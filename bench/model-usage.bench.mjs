// The cost of metering a model API's answer (docs/network.md, "Model usage and budget"). A server in this
// process streams a 10 MB answer of server-sent events in Anthropic's shape (usage at the start and the
// end) to a plain-HTTP POST /v1/messages, which the proxy meters, and from an HTTPS server to the same
// POST on a host in `credentials`, whose TLS the proxy ends (the path of every hosted model API). Each
// variant goes through a proxy of this source in a child process of its own, on a Unix socket:
//   metered        plain HTTP, text/event-stream: the answer passes the usage scanner;
//   unscanned      the same bytes as text/plain: the same path (send-on.ts), the scanner not used;
//   again          the same as unscanned, on a second process: how far two processes doing the same
//                  work differ (the in-place comparison resolves no finer than that);
//   forward        the same bytes to POST /v1/other: not a model API, proxy-chain's `forward`;
//   tls-metered    the credential host, through one kept-alive CONNECT tunnel per sample;
//   tls-unscanned  the same, as text/plain.
// Per sample (BENCH_BATCH requests of one variant, interleaved round by round): the proxy's CPU time per
// request (process.cpuUsage, user + system, around the batch) and the median time to the first byte.
// Then metering's own CPU, steadily: each metered proxy records the reads of one more answer as its HTTP
// client handed them to the scanner, and scans them again, alone, 21 times (median): each read first
// copied into one buffer, so that it is in the cache as a read the socket has just delivered is (its share
// of that proxy's CPU for the answer is the figure); and straight from the 10 MB of recorded copies, which
// are not (an upper bound, which moves with where a process's memory lies). The in-place differences
// between processes are printed beside it with their spread. Last, the floor of any scanner that reads
// every byte, in this process.
// BENCH_NODE_FLAGS: flags for the proxies' Node (NAME becomes the variant), e.g. "--cpu-prof
// --cpu-prof-dir=/tmp/prof/NAME".
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
import { startProxy, parseNetwork, parseCredentials, createRunCa, UsageScanner } from './network.mjs';
// On 'record': the chunks of the next answers, as this proxy's HTTP client handed them to the scanner,
// kept (from the last message_start) to be scanned again on 'replay', with nothing else running.
let recording = false;
const recorded = [];
const write = UsageScanner.prototype.write;
UsageScanner.prototype.write = function (chunk) {
  if (recording) {
    if (chunk.includes('message_start')) recorded.length = 0;
    recorded.push(Buffer.from(chunk));
  }
  return write.call(this, chunk);
};
const cpuOf = (work) => {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
};
/** The recorded reads through a new scanner, each by \`scan\`: the answer must read as usage. */
const replayOnce = (scan) => {
  const scanner = new UsageScanner('anthropic', 'sse');
  for (const chunk of recorded) scan(scanner, chunk);
  if (!scanner.end().usage) throw new Error('the replay read no usage');
};
const median21 = (measure) => Array.from({ length: 21 }, measure).sort((a, b) => a - b)[10];
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
// Each line in, one line out: 'cpu', this process's CPU time so far (ms); 'record'; 'replay', the chunks
// recorded and the median CPU (ms) of scanning them again, 21 times, from the copies and in the cache.
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line === 'record') {
    recording = true;
    console.log('recording');
  }
  else if (line === 'replay') {
    const cold = median21(() => cpuOf(() => replayOnce((scanner, chunk) => write.call(scanner, chunk))));
    // Again, each read first copied into one buffer, as a socket's read lands in memory: scanned while it is
    // in the cache, as in the live proxy (the recorded copies, 10 MB, are not), the scan alone timed.
    const scratch = Buffer.allocUnsafe(Math.max(...recorded.map((chunk) => chunk.length)));
    const warm = median21(() => {
      let ns = 0n;
      replayOnce((scanner, chunk) => {
        chunk.copy(scratch);
        const read = scratch.subarray(0, chunk.length);
        const started = process.hrtime.bigint();
        write.call(scanner, read);
        ns += process.hrtime.bigint() - started;
      });
      return Number(ns) / 1e6;
    });
    console.log(\`\${recorded.length} \${cold} \${warm}\`);
  } else {
    const { user, system } = process.cpuUsage();
    console.log((user + system) / 1000);
  }
}
process.exit(0); // stdin closed: the bench is done (an exit that writes a --cpu-prof)`,
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
 * A proxy of this source in a child process of its own (`args` after its socket's path): `ask` sends it a
 * line and returns its answer; `cpu`, its CPU time so far (ms).
 */
async function proxyProcess(name, args) {
  const socketPath = path.join(work, `${name}.sock`);
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_FLAGS
        ? process.env.BENCH_NODE_FLAGS.split(' ').map((f) => f.replace('NAME', name))
        : []),
      path.join(work, 'proxy.mjs'),
      socketPath,
      ...args,
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
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
  const proxy = {
    socketPath,
    ask: async (what) => {
      child.stdin.write(`${what}\n`);
      return String(await nextLine());
    },
    cpu: async () => Number(await proxy.ask('cpu')),
    kill: () => child.stdin.end(),
  };
  return proxy;
}
const plainArgs = [`localhost:${port}`];
const tlsArgs = [`localhost:${securePort}`, `localhost:${securePort} x-api-key: bench-key`, serverCaFile];

/**
 * An agent for the credential host: one CONNECT tunnel through the proxy, TLS inside it (the proxy's
 * certificate, made for the run, is not checked here), kept alive for the requests of a sample.
 */
function tunnelAgent(proxy) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
  agent.createConnection = (_options, done) => {
    http
      .request({
        socketPath: proxy.socketPath,
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
async function post(proxy, target, agent) {
  const started = process.hrtime.bigint();
  let ttfb = 0;
  let bytes = 0;
  await new Promise((resolve, reject) => {
    const req = (agent ? https : http).request(
      {
        ...(agent
          ? { agent, host: 'localhost', port: securePort, path: target }
          : { agent: false, socketPath: proxy.socketPath, path: `http://localhost:${port}${target}` }),
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
async function once({ target, secure, proxy }) {
  const agent = secure ? tunnelAgent(proxy) : undefined;
  const before = await proxy.cpu();
  const ttfbs = [];
  for (let i = 0; i < BATCH; i++) ttfbs.push(await post(proxy, target, agent));
  agent?.destroy();
  // Let the proxy finish its side (the answer recorded, the tunnel closed) before its CPU is read.
  await new Promise((r) => setTimeout(r, 20));
  return { cpu: ((await proxy.cpu()) - before) / BATCH, ttfb: median(ttfbs) };
}

// Each variant on a proxy process of its own, so that none pays for another's collections; `again`, the
// unscanned path on a second process, measures how far two processes doing the same work differ.
const variants = {
  metered: { target: '/v1/messages', proxy: await proxyProcess('metered', plainArgs) },
  unscanned: { target: '/v1/messages?plain', proxy: await proxyProcess('unscanned', plainArgs) },
  again: { target: '/v1/messages?plain', proxy: await proxyProcess('again', plainArgs) },
  forward: { target: '/v1/other', proxy: await proxyProcess('forward', plainArgs) },
  'tls-metered': { target: '/v1/messages', secure: true, proxy: await proxyProcess('tls-metered', tlsArgs) },
  'tls-unscanned': {
    target: '/v1/messages?plain',
    secure: true,
    proxy: await proxyProcess('tls-unscanned', tlsArgs),
  },
};
const results = Object.fromEntries(Object.keys(variants).map((k) => [k, { cpu: [], ttfb: [] }]));
for (const target of Object.values(variants)) await once(target); // warm-up
/** Per round, in percent: each pair's own difference. */
const paired = { plain: [], tls: [], again: [] };
const differs = (a, b) => ((a - b) / b) * 100;
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
  paired.plain.push(differs(inRound.metered, inRound.unscanned));
  paired.tls.push(differs(inRound['tls-metered'], inRound['tls-unscanned']));
  paired.again.push(differs(inRound.again, inRound.unscanned));
}
// The scanner's own CPU in each metered proxy: one more answer recorded as it was read, then scanned again.
const replay = {};
for (const name of ['metered', 'tls-metered']) {
  const { proxy, target, secure } = variants[name];
  await proxy.ask('record');
  const agent = secure ? tunnelAgent(proxy) : undefined;
  await post(proxy, target, agent);
  agent?.destroy();
  const [chunks, ms, warm] = (await proxy.ask('replay')).split(' ').map(Number);
  replay[name] = { chunks, ms, warm };
}
for (const { proxy } of Object.values(variants)) proxy.kill();
server.close();
secureServer.close();

// Its floor, in this process, on the same bytes in 32 KiB chunks: the search for the key's word alone
// (Buffer.indexOf('usage'), which stops at every 'u'), and a read of every byte that stops nowhere (the
// search for a byte the answer does not hold), the least any scanner that reads every byte could cost.
const answer = Buffer.concat([Buffer.from(first), rest]);
const CHUNK = 32 * 1024;
const floor = { word: [], read: [] };
const cpuOf = (work) => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const WORD = Buffer.from('usage');
for (let round = 0; round < 21; round++) {
  const chunks = [];
  for (let at = 0; at < answer.length; at += CHUNK) chunks.push(Buffer.from(answer.subarray(at, at + CHUNK)));
  floor.word.push(
    cpuOf(() => {
      for (const chunk of chunks)
        for (let at = chunk.indexOf(WORD); at !== -1; at = chunk.indexOf(WORD, at + 1));
    }),
  );
  floor.read.push(cpuOf(() => chunks.forEach((chunk) => chunk.indexOf(0x01))));
}
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
const percent = (x) => `${x.toFixed(1)} %`;
for (const [name, label] of [
  ['metered', 'plain HTTP'],
  ['tls-metered', 'credential host (TLS)'],
]) {
  const { chunks, ms, warm } = replay[name];
  console.log(
    `metering's own CPU, ${label}: ${ms.toFixed(2)} ms an answer (its ${chunks} reads scanned again in that proxy), ${percent((ms / m[name].cpu) * 100)} of the proxy's CPU for it; each read in the cache: ${warm.toFixed(2)} ms, ${percent((warm / m[name].cpu) * 100)}`,
  );
}
/** The middle half of a list: its first and third quartiles. */
const middle = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q) => sorted[Math.round(q * (sorted.length - 1))];
  return `${percent(at(0.25))} to ${percent(at(0.75))}`;
};
console.log(
  `in place, the rounds' own differences (median; middle half): metered vs unscanned ${percent(median(paired.plain))} (${middle(paired.plain)}); TLS ${percent(median(paired.tls))} (${middle(paired.tls)}); the same unscanned path on two processes ${percent(median(paired.again))} (${middle(paired.again)})`,
);
const share = (ms) => `${ms.toFixed(2)} ms, ${percent((ms / m.metered.cpu) * 100)}`;
console.log(
  `the floor, plain: the key's word searched alone ${share(median(floor.word))}; every byte read, stopping nowhere ${share(median(floor.read))}`,
);
console.log(
  `first byte: metered vs unscanned ${(m.metered.ttfb - m.unscanned.ttfb).toFixed(1)} ms; vs proxy-chain's forward ${(m.metered.ttfb - m.forward.ttfb).toFixed(1)} ms`,
);
