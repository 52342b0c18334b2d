import * as fs from 'node:fs';
import * as path from 'node:path';
import { createGit } from '../engine/git.js';
import { fakeEngine } from '../../test/support/fakes.js';
import { git as gitIn, tempDir } from '../../test/support/repo.js';
import { privateStorePath, sandboxRefs } from './bookkeeping.js';
import { guessReusedVolume } from './engine-view.js';
import { locateSandbox, type VolumeSandbox } from './layout.js';
import { removalNotePath } from './lock.js';
import { persistentSandboxName } from './naming.js';
import { removeSandbox } from './remove.js';
import { lookBeforeLock, lookFor, removeNotedVolume, volumePresent } from './volume-look.js';

/** An engine that knows one set of volumes, and counts how often it is asked. */
function volumeEngine(volumes: Set<string>, onRemove: (name: string) => void = () => undefined) {
  const asked: string[] = [];
  const engine = fakeEngine();
  engine.volumeExists.mockImplementation(async (name) => {
    asked.push(name);
    return volumes.has(name);
  });
  engine.removeVolume.mockImplementation(async (name) => {
    onRemove(name);
    return volumes.delete(name);
  });
  return { engine, asked };
}

describe('a look at a volume before the sandbox lock', () => {
  const dir = tempDir('wts-volume-look-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  /** A real parent with one volume sandbox recorded (its head record and private store), on branch `b<n>`. */
  function parentWithSandbox(): { sandbox: VolumeSandbox; top: string } {
    const top = path.join(dir, `parent-${++n}`);
    fs.mkdirSync(top);
    gitIn(top, 'init', '--quiet', '--initial-branch=main');
    gitIn(top, 'commit', '--quiet', '--allow-empty', '-m', 'one');
    const parent = {
      path: top,
      gitDir: path.join(top, '.git'),
      objectStores: [path.join(top, '.git', 'objects')],
    };
    const branch = `b${n}`;
    const sandbox = locateSandbox(
      { sandbox: persistentSandboxName(branch), kind: 'persistent', branch },
      parent,
      'container',
      '',
      'wts',
    ) as VolumeSandbox;
    gitIn(top, 'update-ref', sandboxRefs(sandbox).head, 'HEAD');
    fs.mkdirSync(privateStorePath(parent, sandbox), { recursive: true });
    return { sandbox, top };
  }

  it('is trusted after the lock when no removal was noted: the engine is asked once, before the lock', async () => {
    const { sandbox } = parentWithSandbox();
    const { engine, asked } = volumeEngine(new Set([sandbox.volume]));
    const look = lookBeforeLock(engine, sandbox);
    expect(await volumePresent(engine, sandbox, look)).toBe(true);
    expect(asked).toEqual([sandbox.volume]);
  });

  it('asks again after the lock when a removal began between the look and the lock and did not finish', async () => {
    const { sandbox } = parentWithSandbox();
    const { engine, asked } = volumeEngine(new Set([sandbox.volume]));
    const look = lookBeforeLock(engine, sandbox);
    await look.present; // the look saw the volume ...
    await removeNotedVolume(engine, sandbox); // ... then a removal took it, and died before the records went
    expect(fs.existsSync(removalNotePath(sandbox.parent.gitDir, sandbox.name))).toBe(true);
    expect(await volumePresent(engine, sandbox, look)).toBe(false);
    expect(asked).toEqual([sandbox.volume, sandbox.volume]);
  });

  it('asks the engine nothing before the lock while a removal is noted, and asks after it', async () => {
    const { sandbox } = parentWithSandbox();
    fs.mkdirSync(path.dirname(removalNotePath(sandbox.parent.gitDir, sandbox.name)), { recursive: true });
    fs.writeFileSync(removalNotePath(sandbox.parent.gitDir, sandbox.name), 'removing\n');
    const { engine, asked } = volumeEngine(new Set([sandbox.volume]));
    const look = lookBeforeLock(engine, sandbox);
    expect(await look.present).toBeUndefined();
    expect(asked).toEqual([]);
    expect(await volumePresent(engine, sandbox, look)).toBe(true);
    expect(asked).toEqual([sandbox.volume]);
  });

  it('does not trust a look that saw no volume', async () => {
    const { sandbox } = parentWithSandbox();
    const volumes = new Set<string>();
    const { engine, asked } = volumeEngine(volumes);
    const look = lookBeforeLock(engine, sandbox);
    await look.present;
    volumes.add(sandbox.volume); // made meanwhile (under the lock, by its holder)
    expect(await volumePresent(engine, sandbox, look)).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('removeSandbox notes the removal before the volume goes, and drops the note once the records are gone', async () => {
    const { sandbox, top } = parentWithSandbox();
    const note = removalNotePath(sandbox.parent.gitDir, sandbox.name);
    const notedAtRemoval: boolean[] = [];
    const { engine } = volumeEngine(new Set([sandbox.volume]), () =>
      notedAtRemoval.push(fs.existsSync(note)),
    );
    await removeSandbox(await createGit(), engine, sandbox);
    expect(notedAtRemoval).toEqual([true]);
    expect(fs.existsSync(note)).toBe(false);
    expect(gitIn(top, 'for-each-ref', '--format=%(refname)', 'refs/worktree-sandbox/')).toBe('');
    // A later run's look is trusted again (no volume: it says so, and the engine is asked once more).
    const after = volumeEngine(new Set());
    expect(await volumePresent(after.engine, sandbox, lookBeforeLock(after.engine, sandbox))).toBe(false);
  });

  it('guesses the sandbox from the given path at the top of a clone, and its look is the one used', async () => {
    const { sandbox, top } = parentWithSandbox();
    const guessed = guessReusedVolume(top, 'wts', sandbox.branch);
    expect(guessed?.volume).toBe(sandbox.volume);
    const { engine, asked } = volumeEngine(new Set([sandbox.volume]));
    const early = lookBeforeLock(engine, guessed!);
    expect(lookFor(engine, sandbox, early)).toBe(early);
    expect(await volumePresent(engine, sandbox, early)).toBe(true);
    expect(asked).toHaveLength(1);
  });

  it('guesses nothing from a subfolder, for a branch without a sandbox, or without a branch', () => {
    const { sandbox, top } = parentWithSandbox();
    fs.mkdirSync(path.join(top, 'sub'));
    expect(guessReusedVolume(path.join(top, 'sub'), 'wts', sandbox.branch)).toBeUndefined();
    expect(guessReusedVolume(top, 'wts', 'no-such-sandbox')).toBeUndefined();
    expect(guessReusedVolume(top, 'wts', '')).toBeUndefined();
    expect(guessReusedVolume(path.join(dir, 'missing'), 'wts', sandbox.branch)).toBeUndefined();
  });

  it('takes a new look when the guess named another volume (another prefix, another parent)', async () => {
    const { sandbox, top } = parentWithSandbox();
    const { engine, asked } = volumeEngine(new Set([sandbox.volume]));
    const wrong = lookBeforeLock(engine, { ...sandbox, volume: 'other-volume' });
    const look = lookFor(engine, sandbox, wrong);
    expect(look).not.toBe(wrong);
    expect(await volumePresent(engine, sandbox, look)).toBe(true);
    expect(asked).toEqual(['other-volume', sandbox.volume]);
    // The same volume name seen through another parent's note is not this sandbox's look either.
    const elsewhere = { ...sandbox, parent: { ...sandbox.parent, gitDir: path.join(top, 'elsewhere') } };
    const fromElsewhere = lookBeforeLock(engine, elsewhere);
    expect(lookFor(engine, sandbox, fromElsewhere)).not.toBe(fromElsewhere);
  });
});
