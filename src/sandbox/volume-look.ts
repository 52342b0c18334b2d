// A reused volume sandbox's command waits for the engine's word that its volume is there. That word is
// asked after the sandbox's lock, because a volume seen before it may be removed by the lock's holder.
// Asked before the lock instead, it overlaps the branch plan and the lock, and is trusted after the lock
// only when no removal can have come between: every removal of a sandbox's volume (remove.ts, and a
// failed creation's) notes itself beside the lock before the volume goes and drops the note once the
// records are gone. So a removal between the look and the lock leaves either its note (it did not finish:
// the volume is asked again) or no records (the sandbox is not reused, and the creation asks again).
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import type { EngineCommands } from '../engine/engine-commands.js';
import type { Sandbox, VolumeSandbox } from './layout.js';
import { lockDirectory, removalNotePath } from './lock.js';

/** What the engine said of a volume before the sandbox's lock: `present` is undefined when not to trust. */
export interface VolumeLook {
  volume: string;
  note: string;
  present: Promise<boolean | undefined>;
}

/**
 * Starts the look: the note first, then (only without one) the engine, through `ask` (by default its
 * volumeExists). Never rejects.
 */
export function lookBeforeLock(
  engine: EngineCommands,
  sandbox: VolumeSandbox,
  ask: () => Promise<boolean> = () => engine.volumeExists(sandbox.volume),
): VolumeLook {
  const note = removalNotePath(sandbox.parent.gitDir, sandbox.name);
  const present = noted(note) ? Promise.resolve(undefined) : ask().catch(() => undefined);
  return { volume: sandbox.volume, note, present };
}

/** `early` when it looked at this sandbox's volume (a look from a guess at the parent may not), else a new look. */
export function lookFor(engine: EngineCommands, sandbox: VolumeSandbox, early?: VolumeLook): VolumeLook {
  return early && looksAt(early, sandbox) ? early : lookBeforeLock(engine, sandbox);
}

/** Whether `look` was taken of this sandbox's volume, with this sandbox's note. */
function looksAt(look: VolumeLook, sandbox: VolumeSandbox): boolean {
  return look.volume === sandbox.volume && look.note === removalNotePath(sandbox.parent.gitDir, sandbox.name);
}

/**
 * Whether the sandbox's volume is there, asked with the sandbox's lock held: the look before the lock
 * answers when it saw the volume and no removal was noted before it or since; else the engine is asked.
 */
export async function volumePresent(
  engine: EngineCommands,
  sandbox: VolumeSandbox,
  look?: VolumeLook,
): Promise<boolean> {
  if (look && looksAt(look, sandbox) && (await look.present) === true && !noted(look.note)) return true;
  return engine.volumeExists(sandbox.volume);
}

/**
 * Whether the note is there; a note that cannot be looked at counts as there. One stat of a path of the
 * parent's `.git`, made synchronously: the look's engine call starts at once, not when the thread pool's
 * answer gets the main thread (which, at start-up, is busy starting processes).
 */
function noted(note: string): boolean {
  try {
    fsSync.lstatSync(note);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Removes the sandbox's volume, its note written first; the caller drops the records, then the note. */
export async function removeNotedVolume(engine: EngineCommands, sandbox: VolumeSandbox): Promise<boolean> {
  await fs.mkdir(lockDirectory(sandbox.parent.gitDir), { recursive: true });
  await fs.writeFile(removalNotePath(sandbox.parent.gitDir, sandbox.name), 'removing\n');
  return engine.removeVolume(sandbox.volume);
}

/** Once the records are gone (or the sandbox is made again): a later look may be trusted again. */
export async function dropRemovalNote(sandbox: Sandbox): Promise<void> {
  await fs.rm(removalNotePath(sandbox.parent.gitDir, sandbox.name), { force: true });
}
