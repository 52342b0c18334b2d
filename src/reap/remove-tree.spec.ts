// The removal (remove.ts and its walk) on folders made here: links removed as links and never
// followed, another filesystem mounted inside never crossed, the bytes freed the bytes the tree held,
// folders without write permission emptied, many entries of many folders.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureTree, removeHomeFolder, removeSandboxTree, type TreeRemoval } from './remove-tree.js';

const isRoot = process.getuid?.() === 0;
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) {
    fs.chmodSync(dir, 0o700);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** `<root>/project/<name>` with a `.git` folder, files in folders, and its home. */
function sandbox(root: string, name = 'exploration-00000001'): { target: string; home: string } {
  const target = path.join(root, 'project', name);
  fs.mkdirSync(path.join(target, '.git', 'refs', 'heads'), { recursive: true });
  fs.writeFileSync(path.join(target, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(target, 'src', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(target, 'README.md'), 'readme\n');
  fs.writeFileSync(path.join(target, 'src', 'app.js'), 'x'.repeat(10_000));
  fs.writeFileSync(path.join(target, 'src', 'deep', 'data.bin'), Buffer.alloc(50_000, 1));
  const home = path.join(root, 'project', '.home', name);
  fs.mkdirSync(path.join(home, '.cache'), { recursive: true });
  fs.writeFileSync(path.join(home, '.cache', 'entry'), 'cached\n');
  return { target, home };
}

function outsideFolder(): { dir: string; file: string } {
  const dir = tempDir('wts-remove-outside-');
  const file = path.join(dir, 'precious.txt');
  fs.writeFileSync(file, 'must survive\n');
  fs.mkdirSync(path.join(dir, 'folder'));
  fs.writeFileSync(path.join(dir, 'folder', 'inner.txt'), 'must survive too\n');
  return { dir, file };
}

describe('removeSandboxTree', () => {
  it('removes links as links: to a folder outside, to a file outside, to the root, deep down too', async () => {
    const root = tempDir('wts-remove-root-');
    const outside = outsideFolder();
    const { target } = sandbox(root);
    fs.symlinkSync(outside.dir, path.join(target, 'outside'));
    fs.symlinkSync(outside.file, path.join(target, 'src', 'precious-link'));
    fs.symlinkSync(path.join(outside.dir, 'folder'), path.join(target, 'src', 'deep', 'folder-link'));
    fs.symlinkSync(root, path.join(target, 'src', 'deep', 'root-link'));
    fs.symlinkSync('/nonexistent/target', path.join(target, '.git', 'dangling'));

    const result = await removeSandboxTree(root, target);
    expect(result).toMatchObject({ gone: true, unlinked: true, problems: [] });
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readFileSync(outside.file, 'utf8')).toBe('must survive\n');
    expect(fs.readdirSync(path.join(outside.dir, 'folder'))).toEqual(['inner.txt']);
    expect(fs.readdirSync(path.join(root, 'project'))).toEqual(['.home']);
  });

  it('reports as freed the bytes the tree held (hard-linked files excepted)', async () => {
    const root = tempDir('wts-remove-root-');
    const { target } = sandbox(root);
    const expected = measureTree(target)!;
    const linked = path.join(root, 'project', 'elsewhere.bin');
    fs.writeFileSync(linked, Buffer.alloc(20_000, 2));
    fs.linkSync(linked, path.join(target, 'src', 'hard-link.bin'));

    const result = await removeSandboxTree(root, target);
    expect(result.problems).toEqual([]);
    expect(result.freedBytes).toBe(expected);
    expect(fs.readFileSync(linked).length).toBe(20_000);
  });

  it('unlinks every entry of a folder with many files, and of many folders', async () => {
    const root = tempDir('wts-remove-root-');
    const { target } = sandbox(root);
    for (let d = 0; d < 20; d++) {
      const dir = path.join(target, 'many', `d${d}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 25; f++) fs.writeFileSync(path.join(dir, `f${f}`), `${d}/${f}`);
    }
    for (let f = 0; f < 300; f++) fs.writeFileSync(path.join(target, 'many', `top${f}`), String(f));
    const expected = measureTree(target)!;

    const result = await removeSandboxTree(root, target);
    expect(result).toMatchObject({ gone: true, unlinked: true, problems: [] });
    expect(result.freedBytes).toBe(expected);
  });

  it('renames .git away first, and touches nothing when it cannot', async () => {
    const root = tempDir('wts-remove-root-');
    const { target } = sandbox(root);
    const gitDir = path.join(target, '.git');
    // A .git folder that cannot be renamed: nothing else goes.
    fs.renameSync(gitDir, path.join(target, 'git-folder'));
    fs.mkdirSync(gitDir);
    fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    const immovable = isRoot;
    if (immovable) execFileSync('chattr', ['+i', target]);
    try {
      const result = await removeSandboxTree(root, target);
      if (immovable) {
        expect(result).toMatchObject({ gone: false, unlinked: false });
        expect(result.problems).toEqual([{ path: gitDir, error: 'EPERM' }]);
        expect(fs.readdirSync(target).sort()).toEqual(['.git', 'README.md', 'git-folder', 'src']);
      } else expect(result).toMatchObject({ gone: true, unlinked: true });
    } finally {
      if (immovable) execFileSync('chattr', ['-i', target]);
    }
  });

  (isRoot ? it : it.skip)('never crosses into another filesystem mounted inside', async () => {
    const root = tempDir('wts-remove-root-');
    const { target } = sandbox(root);
    const mount = path.join(target, 'src', 'deep', 'mounted');
    fs.mkdirSync(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
    try {
      fs.writeFileSync(path.join(mount, 'other-fs.txt'), 'on another filesystem\n');
      fs.mkdirSync(path.join(mount, 'folder'));
      fs.writeFileSync(path.join(mount, 'folder', 'inner.txt'), 'there too\n');

      const result = await removeSandboxTree(root, target);
      expect(result.unlinked).toBe(true);
      expect(result.gone).toBe(false);
      expect(result.problems).toEqual([
        { path: mount, error: 'another filesystem is mounted here: not crossed' },
      ]);
      expect(fs.readFileSync(path.join(mount, 'other-fs.txt'), 'utf8')).toBe('on another filesystem\n');
      expect(fs.readdirSync(path.join(mount, 'folder'))).toEqual(['inner.txt']);
      // Everything else went: what is left is the path down to the mount point.
      expect(fs.readdirSync(target)).toEqual(['src']);
      expect(fs.readdirSync(path.join(target, 'src'))).toEqual(['deep']);
      expect(fs.readdirSync(path.join(target, 'src', 'deep'))).toEqual(['mounted']);
    } finally {
      execFileSync('umount', [mount]);
    }
  });

  // As root every folder is writable anyway: there the removal runs in a child process that has dropped
  // to an unprivileged user (`nobody`, on every Linux: the runner's situation, without the set-up's
  // runner user), on a tree that user owns. As anyone else
  // a folder of ours without write permission (Go's module cache) is made writable, once, whichever of
  // its many unlinks meets it first.
  it('empties folders of ours that have no write permission', async () => {
    const root = tempDir('wts-remove-root-');
    const { target } = sandbox(root);
    const readOnly = path.join(target, 'pkg', 'mod', 'example.com@v1');
    fs.mkdirSync(readOnly, { recursive: true });
    for (let f = 0; f < 40; f++) fs.writeFileSync(path.join(readOnly, `f${f}.go`), `package x // ${f}\n`);
    if (isRoot) {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
      execFileSync('chown', ['-R', `${id('-u')}:${id('-g')}`, root]);
    }
    fs.chmodSync(readOnly, 0o555);
    fs.chmodSync(path.dirname(readOnly), 0o555);

    const result = isRoot ? asRunner(root, target) : await removeSandboxTree(root, target);
    expect(result).toMatchObject({ gone: true, unlinked: true, problems: [] });
    expect(fs.existsSync(target)).toBe(false);
  });
});

/**
 * Node's module hooks for the child below: a source file's `./x.js` import is read as `./x.ts`, and each
 * `.ts` file is transpiled (TypeScript's transpileModule, no type check) as it is imported. Only the
 * modules removeSandboxTree imports are transpiled, not all of src/ (a clean checkout has no copy).
 */
const transpilingHooks = (repo: string) => `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const ts = createRequire(${JSON.stringify(path.join(repo, 'package.json'))})('typescript');
export function resolve(specifier, context, next) {
  const fromSource = specifier.startsWith('.') && context.parentURL?.endsWith('.ts');
  return next(fromSource ? specifier.replace(/\\.js$/, '.ts') : specifier, context);
}
export function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    fileName: file,
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
`;

/**
 * removeSandboxTree in a child process that imports the module (transpiled on import by the hooks
 * above, as root), then drops to `nobody` before it touches anything.
 */
function asRunner(root: string, target: string): TreeRemoval {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const script = `
const { register } = await import('node:module');
const { pathToFileURL } = await import('node:url');
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(transpilingHooks(repo))}));
const { removeSandboxTree } = await import(pathToFileURL(process.argv[3]).href);
const { execFileSync } = await import('node:child_process');
const id = (flag) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
process.setgroups([]);
process.setgid(id('-g'));
process.setuid(id('-u'));
if (process.getuid() === 0) throw new Error('still root');
process.stdout.write(JSON.stringify(await removeSandboxTree(process.argv[1], process.argv[2])));
`;
  const entry = path.join(repo, 'src', 'reap', 'remove-tree.ts');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, root, target, entry], {
    cwd: repo,
    encoding: 'utf8',
  });
  return JSON.parse(out) as TreeRemoval;
}

describe('removeHomeFolder', () => {
  it('removes the home, links in it as links', async () => {
    const root = tempDir('wts-remove-root-');
    const outside = outsideFolder();
    const { home } = sandbox(root);
    fs.symlinkSync(outside.dir, path.join(home, '.cache', 'outside'));
    const result: TreeRemoval = { gone: false, unlinked: true, freedBytes: 0, problems: [] };

    await removeHomeFolder(root, home, result);
    expect(result.problems).toEqual([]);
    expect(result.freedBytes).toBeGreaterThan(0);
    expect(fs.existsSync(home)).toBe(false);
    expect(fs.readdirSync(path.join(outside.dir, 'folder'))).toEqual(['inner.txt']);
  });

  it('refuses a home that is a link, and anything not at <root>/<project>/.home/<sandbox>', async () => {
    const root = tempDir('wts-remove-root-');
    const outside = outsideFolder();
    const { home } = sandbox(root);
    fs.rmSync(home, { recursive: true });
    fs.symlinkSync(outside.dir, home);
    const result: TreeRemoval = { gone: false, unlinked: true, freedBytes: 0, problems: [] };

    await expect(removeHomeFolder(root, home, result)).rejects.toThrow(/symbolic link/);
    await expect(removeHomeFolder(root, outside.dir, result)).rejects.toThrow(/is not a folder/);
    expect(fs.readFileSync(outside.file, 'utf8')).toBe('must survive\n');
  });
});
