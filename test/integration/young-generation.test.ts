// src/engine/memory.ts in a process of its own (a fresh heap; Jest's own has grown long before): its
// source transpiled as it is, imported first as the entry points import it, then a churn of short-lived
// objects between turns of the event loop, as a command's output makes them. On both runtimes the action
// runs on.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { tempDir } from '../support/repo.js';
import { nodeRuntimes } from '../support/runtimes.js';

/** What V8 would let the young generation grow past under such a churn, were it not held. */
const BOUND = 8 * 1024 * 1024;

const DRIVER = `
import { setImmediate as turn } from 'node:timers/promises';
import { youngGenerationBytes } from './memory.mjs';

async function churn(chunks, until = () => false) {
  let kept = [];
  for (let c = 0; c < chunks && !until(); c++) {
    for (let i = 0; i < 20000; i++) {
      kept.push({ n: i, s: 'entry-' + i });
      if (kept.length > 50000) kept = [];
    }
    await turn();
  }
}

await churn(30);
const start = youngGenerationBytes();
await churn(60);
const held = youngGenerationBytes();
console.log(JSON.stringify({ start, held }));
`;

describe.each(nodeRuntimes())('the young generation on $name', ({ execPath }) => {
  it('stays small as the entry points set it', () => {
    const dir = tempDir('wts-young-');
    try {
      const source = fs.readFileSync(path.resolve('src/engine/memory.ts'), 'utf8');
      const js = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      fs.writeFileSync(path.join(dir, 'memory.mjs'), js);
      fs.writeFileSync(path.join(dir, 'driver.mjs'), DRIVER);
      const seen = JSON.parse(
        execFileSync(execPath, [path.join(dir, 'driver.mjs')], { encoding: 'utf8', timeout: 60_000 }),
      ) as { start: number; held: number };
      // Kept small (a command's gigabytes of output: V8 adjusts it by a few pages, never doubles it).
      expect(seen.start).toBeLessThan(BOUND);
      expect(seen.held).toBeLessThan(BOUND);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
