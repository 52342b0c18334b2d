import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The installed packages that only development needs (package-lock.json `dev: true`), such as the
 * toolkit copies @github/local-action brings: the bundle holds none of them.
 */
const DEV_ONLY = new Set(
  Object.entries(
    (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { dev?: boolean }>;
      }
    ).packages,
  )
    .filter(([, entry]) => entry.dev)
    .map(([where]) => where),
);

/**
 * Every use of `specifier` in the toolkit packages the bundle holds, with the names it takes: ESM imports
 * (`import { … } from 'x'`, `import * as x from 'x'` then `x.Name`) and CommonJS ones
 * (`const u = require("x")`, then `u.Name`). Subpaths (`x/lib/auth`) are other modules, not counted.
 */
function usesOf(specifier: string): { file: string; names: string[] }[] {
  const quoted = `['"]${specifier.replace(/[/.]/g, '\\$&')}['"]`;
  const found: { file: string; names: string[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!DEV_ONLY.has(path.relative(ROOT, p))) walk(p);
      } else if (entry.name.endsWith('.js')) {
        const text = fs.readFileSync(p, 'utf8');
        if (!new RegExp(quoted).test(text)) continue;
        const names = new Set<string>();
        const usesOfBinding = (binding: string) => {
          for (const use of text.matchAll(new RegExp(`\\b${binding}\\.(\\w+)`, 'g'))) names.add(use[1]);
        };
        for (const m of text.matchAll(new RegExp(`^import\\s+(.*?)\\s+from\\s+${quoted}`, 'gm'))) {
          const clause = m[1].trim();
          const braces = /^\{([^}]*)\}$/.exec(clause);
          const namespace = /^\*\s+as\s+(\w+)$/.exec(clause);
          if (braces) {
            for (const n of braces[1].split(',')) if (n.trim()) names.add(n.trim().split(/\s+as\s+/)[0]);
          } else if (namespace) usesOfBinding(namespace[1]);
          // A default import could take any name: reported as such, so the test fails.
          else names.add(`(whole module: ${clause})`);
        }
        for (const m of text.matchAll(new RegExp(`(\\w+)\\s*=\\s*require\\(\\s*${quoted}\\s*\\)`, 'g')))
          usesOfBinding(m[1]);
        found.push({ file: path.relative(ROOT, p), names: [...names] });
      }
    }
  };
  for (const scope of ['@actions', '@octokit']) walk(path.join(ROOT, 'node_modules', scope));
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

function missingNames(uses: { file: string; names: string[] }[], module: object): string[] {
  return uses.flatMap((u) => u.names.filter((n) => !(n in module)).map((n) => `${u.file}: ${n}`));
}

describe('the bundle\'s "undici", "@actions/http-client" and "@actions/exec" (loaded on demand)', () => {
  it('are what tsconfig.json maps them to, for ncc', () => {
    // Read as plain JSON, which tsconfig.json is: TypeScript's own reader would cost this file a load of the
    // compiler (a third of a second, more without Jest's cache) for one object.
    const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
    expect(config.compilerOptions.paths).toEqual({
      undici: ['./src/bundle/undici-on-demand.ts'],
      '@actions/http-client': ['./src/bundle/http-client-on-demand.ts'],
      '@actions/exec': ['./src/bundle/exec-on-demand.ts'],
    });
  });

  it('undici: every name the bundled toolkit imports is exported (an upgrade that needs more fails here)', async () => {
    const uses = usesOf('undici');
    // @actions/core's and @actions/github's http-client (ProxyAgent), and @actions/github (fetch).
    expect(uses.map((u) => u.file)).toEqual([
      'node_modules/@actions/github/lib/internal/utils.js',
      'node_modules/@actions/github/node_modules/@actions/http-client/lib/index.js',
      'node_modules/@actions/http-client/lib/index.js',
    ]);
    expect(missingNames(uses, await import('./undici-on-demand.js'))).toEqual([]);
    expect(uses.flatMap((u) => u.names).sort()).toEqual(['ProxyAgent', 'ProxyAgent', 'fetch']);
  });

  it('@actions/http-client: every name the bundled toolkit imports is exported', async () => {
    const uses = usesOf('@actions/http-client');
    // @actions/core's OIDC client (never called here) and @actions/github's proxy agents.
    expect(uses.map((u) => u.file)).toEqual([
      'node_modules/@actions/core/lib/oidc-utils.js',
      'node_modules/@actions/github/lib/internal/utils.js',
    ]);
    expect(missingNames(uses, await import('./http-client-on-demand.js'))).toEqual([]);
    expect(uses.flatMap((u) => u.names).sort()).toEqual(['HttpClient', 'HttpClient']);
  });

  it('@actions/exec: every name the bundled toolkit imports is exported, and runs the real one', async () => {
    const uses = usesOf('@actions/exec');
    // @actions/core's `platform` (never read here).
    expect(uses.map((u) => u.file)).toEqual(['node_modules/@actions/core/lib/platform.js']);
    const onDemandExec = await import('./exec-on-demand.js');
    expect(missingNames(uses, onDemandExec)).toEqual([]);
    expect([...new Set(uses.flatMap((u) => u.names))]).toEqual(['getExecOutput']);
    const { stdout, exitCode } = await onDemandExec.getExecOutput('sh', ['-c', 'echo loaded'], {
      silent: true,
    });
    expect({ stdout, exitCode }).toEqual({ stdout: 'loaded\n', exitCode: 0 });
  });

  it('the http-client loaded is the one @actions/github depends on', async () => {
    const github = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules/@actions/github/package.json'), 'utf8'),
    );
    const loadedFrom = path.join(ROOT, 'node_modules/@actions/github/node_modules/@actions/http-client');
    const version = JSON.parse(fs.readFileSync(path.join(loadedFrom, 'package.json'), 'utf8')).version;
    const wanted = github.dependencies['@actions/http-client'];
    // ^major.minor.patch: same major, not older.
    const [, major] = /^\^(\d+)\./.exec(wanted) ?? [];
    expect(version.split('.')[0]).toBe(major);
    const { loadHttpClient } = await import('./http-client-on-demand.js');
    const real = await import(path.join(loadedFrom, 'lib', 'index.js'));
    expect((await loadHttpClient()).HttpClient).toBe(real.HttpClient);
  });

  it('refuse a client or proxy agent before they are loaded, and build the real ones after', async () => {
    // Fresh module instances: nothing loaded yet.
    const undici = (await import(
      `./undici-on-demand.js?fresh=${Date.now()}`
    )) as typeof import('./undici-on-demand.js');
    expect(() => new undici.ProxyAgent('http://127.0.0.1:9')).toThrow(/before loadUndici\(\) was awaited/);
    const realUndici = await undici.loadUndici();
    const agent = new undici.ProxyAgent('http://127.0.0.1:9');
    expect(agent).toBeInstanceOf(realUndici.ProxyAgent);
    await agent.close();

    const client = (await import(
      `./http-client-on-demand.js?fresh=${Date.now()}`
    )) as typeof import('./http-client-on-demand.js');
    expect(() => new client.HttpClient('test')).toThrow(/before loadHttpClient\(\) was awaited/);
    const realClient = await client.loadHttpClient();
    const made = new client.HttpClient('test');
    expect(made).toBeInstanceOf(realClient.HttpClient);
    expect(made.userAgent).toBe('test');
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
