import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Every use of undici in the toolkit packages the bundle holds, with the names it takes: ESM imports
 * (`import { … } from 'undici'`) and CommonJS ones (`const u = require("undici")`, then `u.Name`).
 */
function undiciUses(): { file: string; names: string[] }[] {
  const found: { file: string; names: string[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.js')) {
        const text = fs.readFileSync(p, 'utf8');
        if (!/['"]undici['"]/.test(text)) continue;
        const names = new Set<string>();
        for (const m of text.matchAll(/^import\s+(.*?)\s+from\s+['"]undici['"]/gm)) {
          const braces = /^\{([^}]*)\}$/.exec(m[1].trim());
          // A default or namespace import could take any name: reported as such, so the test fails.
          if (!braces) names.add(`(whole module: ${m[1]})`);
          else for (const n of braces[1].split(',')) if (n.trim()) names.add(n.trim().split(/\s+as\s+/)[0]);
        }
        for (const m of text.matchAll(/(\w+)\s*=\s*require\(\s*['"]undici['"]\s*\)/g))
          for (const use of text.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, 'g'))) names.add(use[1]);
        found.push({ file: path.relative(ROOT, p), names: [...names] });
      }
    }
  };
  for (const scope of ['@actions', '@octokit']) walk(path.join(ROOT, 'node_modules', scope));
  return found;
}

describe('undici on demand (the bundle\'s "undici")', () => {
  it('is what tsconfig.json maps "undici" to, for ncc', () => {
    const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
    expect(config.compilerOptions.paths).toEqual({ undici: ['./src/github/undici-on-demand.ts'] });
  });

  it('exports every name the bundled toolkit imports from undici (an upgrade that needs more fails here)', async () => {
    const uses = undiciUses();
    // @actions/core's and @actions/github's http-client (ProxyAgent), and @actions/github (fetch).
    expect(uses.map((u) => u.file).sort()).toEqual([
      'node_modules/@actions/github/lib/internal/utils.js',
      'node_modules/@actions/github/node_modules/@actions/http-client/lib/index.js',
      'node_modules/@actions/http-client/lib/index.js',
    ]);
    const onDemand = await import('./undici-on-demand.js');
    const missing = uses.flatMap((u) =>
      u.names.filter((n) => !(n in onDemand)).map((n) => `${u.file}: ${n}`),
    );
    expect(missing).toEqual([]);
    expect(uses.flatMap((u) => u.names).sort()).toEqual(['ProxyAgent', 'ProxyAgent', 'fetch']);
  });

  it('refuses a proxy agent before undici is loaded, and builds the real one after', async () => {
    // A fresh module instance: nothing loaded yet.
    const fresh = (await import(
      `./undici-on-demand.js?fresh=${Date.now()}`
    )) as typeof import('./undici-on-demand.js');
    expect(() => new fresh.ProxyAgent('http://127.0.0.1:9')).toThrow(/before loadUndici\(\) was awaited/);
    const real = await fresh.loadUndici();
    const agent = new fresh.ProxyAgent('http://127.0.0.1:9');
    expect(agent).toBeInstanceOf(real.ProxyAgent);
    await agent.close();
  });

  it("fetch loads undici and is undici's fetch", async () => {
    const server = http.createServer((_req, res) => res.end('hello from the server'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const { fetch } = await import('./undici-on-demand.js');
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(await response.text()).toBe('hello from the server');
    } finally {
      server.close();
    }
  });
});
