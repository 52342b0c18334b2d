// What the run's CA costs (credentials only): node-forge's loading, the CA (an RSA-2048 key made by Node's
// crypto on the thread pool, the certificate signed by node-forge), one host's leaf certificate; and, for
// comparison, Node's key generation alone, RSA-2048 and EC P-256 (node-forge puts only RSA keys in
// certificates). Usage: node bench/network-ca-time.mjs [rounds=5]
import { generateKeyPair } from 'node:crypto';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { CACHE, ROOT, loadAverage } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
const out = path.join(CACHE, 'network-ca', 'ca.mjs');
await build({
  entryPoints: [path.join(ROOT, 'src/network/ca.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: out,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
});
const t0 = performance.now();
const { createRunCa } = await import(out);
console.log(
  `Node ${process.version}; load ${loadAverage()}; node-forge loaded in ${(performance.now() - t0).toFixed(0)} ms`,
);
const keys = promisify(generateKeyPair);
const pem = {
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
};
for (let i = 0; i < ROUNDS; i++) {
  const a = performance.now();
  const ca = await createRunCa();
  const b = performance.now();
  await ca.leaf(`host${i}.example`);
  const c = performance.now();
  await keys('rsa', { modulusLength: 2048, ...pem });
  const d = performance.now();
  await keys('ec', { namedCurve: 'P-256', ...pem });
  const e = performance.now();
  console.log(
    `CA ${(b - a).toFixed(0)} ms, leaf ${(c - b).toFixed(0)} ms; RSA-2048 key alone ${(d - c).toFixed(0)} ms, EC P-256 key ${(e - d).toFixed(1)} ms`,
  );
}
