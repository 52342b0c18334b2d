// The action's own TypeScript modules as plain ES modules, for benchmarks that time one function in-process
// (the bundle in dist/ exports nothing). Every file under src/ is transpiled with TypeScript's
// `transpileModule` (no type check, no bundler, no test framework) into .bench/src-js/, which sits under
// the repository so that imports of packages resolve to its node_modules. Redone when a source changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE, ROOT } from './lib.mjs';

const SRC = path.join(ROOT, 'src');
const OUT = path.join(CACHE, 'src-js');

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')
      ? [file]
      : [];
  });
}

async function transpile() {
  const ts = (await import('typescript')).default;
  for (const file of sources(SRC)) {
    const target = path.join(OUT, path.relative(SRC, file)).replace(/\.ts$/, '.js');
    if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= fs.statSync(file).mtimeMs) continue;
    const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        esModuleInterop: true,
      },
      fileName: file,
    });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, outputText);
  }
  // Marks the output as ES modules for Node, whatever the enclosing package.json says.
  fs.writeFileSync(path.join(OUT, 'package.json'), '{"type":"module"}\n');
}

let ready;

/** Imports `src/<relative>.ts` (e.g. 'run/import') as transpiled JavaScript. */
export async function importSource(relative) {
  ready ??= transpile();
  await ready;
  return import(pathToFileURL(path.join(OUT, `${relative}.js`)).href);
}
