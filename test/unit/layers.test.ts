// The layers of src/ (CONTRIBUTING.md, Code map): a module imports only from its own folder or from a
// layer below it, and no chain of imports comes back to where it started. Static and dynamic imports
// alike (`import('../github/pr-run.js')` is still a dependency). Specs are left out: they may reach anywhere.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve('src');

/** Higher imports lower. `ui` and `bundle` sit at the bottom with `engine`; `network` (the allow-list and its proxy) beside `sandbox`, both over the engine; `present` (what a run shows: the job summary, warnings, outputs, log lines) beside `reap` and `github`, over the run it shows, under `action` and `cli` (the reap's summary is `action/reap-summary.ts`: the reaper is shown by the action alone); `types` holds declarations. */
const RANK: Record<string, number> = {
  engine: 0,
  ui: 0,
  bundle: 0,
  types: 0,
  sandbox: 1,
  network: 1,
  settings: 2,
  run: 3,
  reap: 4,
  github: 4,
  present: 4,
  action: 5,
  cli: 5,
};

/** The layer of a module: its folder under src/, or for src/action-defaults.ts, settings. */
function layerOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  if (relative.length === 1) return relative[0] === 'action-defaults.ts' ? 'settings' : relative[0];
  return relative[0];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(p);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')
      ? [p]
      : [];
  });
}

/** The project modules a file imports (relative specifiers, `.js` mapped to the `.ts` source). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')))
    .filter((target) => target.startsWith(SRC + path.sep));
}

describe('the layers of src/', () => {
  const files = sourceFiles(SRC);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('every layer is known, and every import goes to the same folder or a layer below', () => {
    expect(files.length).toBeGreaterThan(50);
    // The reader sees static, bare and dynamic imports.
    const edges = (from: string) => (graph.get(path.join(SRC, from)) ?? []).map((t) => path.relative(SRC, t));
    expect(edges('action/index.ts')).toEqual(expect.arrayContaining(['engine/memory.ts', 'action/main.ts']));
    expect(edges('action/main.ts')).toEqual(expect.arrayContaining(['github/pr-run.ts', 'run/run.ts']));
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      expect({ file, known: from in RANK }).toEqual({ file, known: true });
      for (const target of targets) {
        const to = layerOf(target);
        if (from !== to && !(RANK[to] < RANK[from]))
          upward.push(`${path.relative(SRC, file)} (${from}) imports ${path.relative(SRC, target)} (${to})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push(
          [...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(SRC, f)).join(' -> '),
        );
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
