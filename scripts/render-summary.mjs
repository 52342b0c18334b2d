// The reap summary as a person sees it on GitHub, for docs/reap-summary.png:
//  1. a sample tree of sandboxes made by run mode itself (the bundle, disk isolation, into
//     <root>/<project>/<sandbox>), aged, some holding work, one in use, one orphaned, one stray folder;
//  2. the action's bundle (dist/index.js) run on it in reap mode as the runner runs it, with
//     max-removals set so that one removal waits; its job summary file is the Markdown rendered here;
//  3. that Markdown turned into HTML (marked), the Mermaid block drawn by the `mermaid` package from
//     node_modules (no network), and the page shot by headless Chromium.
// Usage: node scripts/render-summary.mjs [out.png] (default docs/reap-summary.png); needs `chromium`
// (Debian's package), a built dist/ and node_modules. RUNNER_DEBUG=1 also prints the reaper's log (its
// debug lines too); KEEP_SAMPLE=1 keeps the sample tree, the Markdown and the HTML.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Marked } from 'marked';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(repoRoot, 'docs', 'reap-summary.png'));
const chromium = process.env.CHROMIUM ?? 'chromium';
const image = process.env.WORKTREE_SANDBOX_TEST_IMAGE ?? 'worktree-sandbox-test:bookworm';
const DAY = 86_400_000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reap-summary-'));
const root = path.join(work, 'worktrees');
const git = (cwd, ...args) =>
  execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

/** A parent repository with a bare origin that has its main branch. */
function parentRepo(name) {
  const origin = path.join(work, 'origins', `${name}.git`);
  const parent = path.join(work, 'workspace', name);
  fs.mkdirSync(path.dirname(origin), { recursive: true });
  git(work, 'init', '-q', '--bare', '--initial-branch=main', origin);
  git(work, 'clone', '-q', origin, parent);
  fs.writeFileSync(path.join(parent, 'README.md'), `# ${name}\n`);
  git(parent, 'add', '-A');
  git(parent, 'commit', '-qm', 'initial');
  git(parent, 'push', '-q', 'origin', 'main');
  return parent;
}

/** Moves a sandbox's activity signals `days` back: its folder and its own git folder's index and HEADs. */
function age(dir, days) {
  const when = new Date(Date.now() - days * DAY);
  for (const p of [dir, ...['index', 'HEAD', 'logs/HEAD'].map((f) => path.join(dir, '.git', f))])
    if (fs.existsSync(p)) fs.utimesSync(p, when, when);
}

/**
 * A disk sandbox made by run mode (the bundle, as the runner runs it; kept): a transient one when `name`
 * is `exploration` (run mode names it), else one for the branch `name`.
 */
function sandbox(parent, name, days, prepare = () => undefined) {
  const files = fs.mkdtempSync(path.join(work, 'run-'));
  const output = path.join(files, 'output');
  for (const f of ['output', 'state', 'summary']) fs.writeFileSync(path.join(files, f), '');
  execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'index.js')], {
    cwd: files,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      GITHUB_OUTPUT: output,
      GITHUB_STATE: path.join(files, 'state'),
      GITHUB_STEP_SUMMARY: path.join(files, 'summary'),
      RUNNER_TEMP: files,
      INPUT_MODE: 'run',
      INPUT_COMMAND: 'true',
      INPUT_IMAGE: image,
      INPUT_ISOLATION: 'disk',
      INPUT_BRANCH: name === 'exploration' ? '' : name,
      'INPUT_REPOSITORY-PATH': parent,
      'INPUT_WORKTREE-ROOT': root,
      INPUT_CLEANUP: 'never',
    },
  });
  const dir = /^worktree-path<<(.+)\n([^\n]*)\n/m.exec(fs.readFileSync(output, 'utf8'))?.[2];
  if (!dir) throw new Error(`run mode made no sandbox for ${name} in ${parent}`);
  prepare(dir);
  age(dir, days);
  return dir;
}

const webapp = parentRepo('webapp');
const api = parentRepo('api-service');
const legacy = parentRepo('legacy-tool');

for (const days of [64, 52, 41, 2, 11]) sandbox(webapp, 'exploration', days);
sandbox(webapp, 'fix-login-redirect', 121, (dir) =>
  fs.appendFileSync(path.join(dir, 'README.md'), 'Work in progress.\n'),
);
sandbox(webapp, 'docs-typos', 97);
for (const days of [73, 35, 6]) sandbox(api, 'exploration', days);
// A commit made in the sandbox after its run: the parent has never seen it.
sandbox(api, 'feat-rate-limits', 140, (dir) => {
  fs.writeFileSync(path.join(dir, 'limits.txt'), '100/min\n');
  git(dir, 'add', 'limits.txt');
  git(dir, 'commit', '-qm', 'rate limits');
});
sandbox(api, 'deps-bump', 20);
const busy = sandbox(api, 'exploration', 58);
const apiProject = path.dirname(busy);
fs.mkdirSync(path.join(apiProject, 'scratch-notes'));
fs.writeFileSync(path.join(apiProject, 'scratch-notes', 'todo.txt'), 'later\n');
sandbox(legacy, 'exploration', 130);
fs.rmSync(legacy, { recursive: true, force: true });

// A process working inside one stale sandbox: the reaper must keep it.
const sleeper = spawn('sleep', ['600'], { cwd: busy, stdio: 'ignore' });

function reapStep() {
  const files = path.join(work, 'step');
  fs.mkdirSync(files, { recursive: true });
  for (const f of ['output', 'state', 'summary']) fs.writeFileSync(path.join(files, f), '');
  const inputs = {
    mode: 'reap',
    image,
    'worktree-root': root,
    'volume-prefix': `wts-render-${process.pid}`,
    'max-removals': '6',
  };
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? os.homedir(),
    GITHUB_OUTPUT: path.join(files, 'output'),
    GITHUB_STATE: path.join(files, 'state'),
    GITHUB_STEP_SUMMARY: path.join(files, 'summary'),
    RUNNER_TEMP: files,
    RUNNER_DEBUG: process.env.RUNNER_DEBUG ?? '0',
    XDG_CACHE_HOME: path.join(work, 'cache'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  };
  const log = execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'index.js')], {
    cwd: work,
    env,
    encoding: 'utf8',
  });
  if (process.env.RUNNER_DEBUG === '1') process.stdout.write(log);
  return fs.readFileSync(path.join(files, 'summary'), 'utf8');
}

/** The Markdown as GitHub shows it: the Mermaid block drawn, the rest plain GitHub-flavoured Markdown. */
function pageOf(markdown) {
  const escape = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const marked = new Marked({
    gfm: true,
    renderer: {
      code({ text, lang }) {
        return lang === 'mermaid' ? `<pre class="mermaid">${escape(text)}</pre>\n` : false;
      },
    },
  });
  const mermaidJs = pathToFileURL(path.join(repoRoot, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js'));
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>pending</title>
<style>
  body { margin: 0; background: #fff; color: #1f2328;
    font: 14px/1.5 -apple-system, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif; }
  main { max-width: 1012px; margin: 0 auto; padding: 24px 32px; }
  h2 { font-size: 1.5em; font-weight: 600; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0; }
  pre.mermaid { background: none; text-align: center; margin: 16px 0; }
  table { border-collapse: collapse; display: block; overflow: auto; margin: 16px 0; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
  th { font-weight: 600; }
  tr:nth-child(2n) { background: #f6f8fa; }
  td:nth-child(5), td:nth-child(8) { text-align: right; white-space: nowrap; }
  blockquote { margin: 0; padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; }
</style></head>
<body><main>
${marked.parse(markdown)}
</main>
<script src="${mermaidJs}"></script>
<script>
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
  mermaid.run().then(
    () => { document.title = 'height=' + document.documentElement.scrollHeight; },
    (error) => { document.title = 'error=' + error; },
  );
</script>
</body></html>
`;
}

function chrome(...args) {
  return execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--virtual-time-budget=15000',
      ...args,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

try {
  const markdown = reapStep();
  const html = path.join(work, 'summary.html');
  fs.writeFileSync(path.join(work, 'summary.md'), markdown);
  fs.writeFileSync(html, pageOf(markdown));
  const width = 1100;
  // First pass: let Mermaid draw, then read the page's height from its title; second pass: the shot.
  const title = /<title>([^<]*)<\/title>/.exec(chrome(`--window-size=${width},800`, '--dump-dom', html))[1];
  if (!title.startsWith('height=')) throw new Error(`Mermaid did not draw the chart: ${title}`);
  const height = Number(title.slice('height='.length));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  chrome(`--window-size=${width},${height}`, `--screenshot=${out}`, html);
  console.log(`${out}: ${width}×${height}`);
} finally {
  sleeper.kill();
  if (process.env.KEEP_SAMPLE === '1') console.log(`Sample, summary.md and summary.html kept in ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}
