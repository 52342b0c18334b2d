// Where removal walks run. Deleting is the kernel's work, and on a busy or journalled disk (ext4 mounted
// with `discard` on a virtual disk, as on the machines measured in docs/benchmarks.md) each unlink waits
// for the device more than it uses a core: the more unlinks in flight, the more of them one journal
// commit carries. A pool of worker threads keeps several in flight and leaves the main thread free for the
// locks it holds (a lock's holder must keep refreshing it) and the next removals' checks:
//  - one worker walks several folders at once, each deleting its files through libuv's thread pool (as
//    many in the kernel as that pool has threads, 4 unless UV_THREADPOOL_SIZE says otherwise);
//  - the others each walk one folder at a time with synchronous calls: one more in the kernel each.
// Reap mode only: `node:worker_threads` is loaded when a pool starts, never in run mode
// (test/e2e/startup.test.ts). A single removal walks in the calling thread.
//
// How many: each worker is a JavaScript environment of its own, about 11 MB of memory, and the reap step's
// peak memory is held under 150 MB (docs/benchmarks.md), while the scan's own memory grows with what it found. So: three workers (one
// concurrent) while the scan found up to 5,000 entries, one concurrent worker above. Measured
// (bench/removal.bench.mjs, docs/benchmarks.md "The removal walk"): 400 sandboxes removed alone
// take about as long with one concurrent worker as with four synchronous ones, and with three (one
// concurrent) about as long as with eight synchronous ones; the reap benchmark's 10,000 sandboxes peaked
// at 163-165 MB with three workers.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { removeTree, type WalkResult } from './remove-walk.js';

/** Removal workers of a pool that removes many sandboxes, while the scan found up to FULL_POOL_UP_TO. */
export const REMOVAL_WORKERS = 3;
export const FULL_POOL_UP_TO = 5_000;
/** A worker's young generation, in MB. */
const WORKER_YOUNG_MB = 2;
/** Folders the concurrent worker walks at once. */
const CONCURRENT_WALKS = 6;

/** The remover for `removals` disk sandboxes, when the scan found `found` entries in all. */
export function removerFor(removals: number, found: number): Remover {
  if (removals <= 1) return inlineRemover;
  return startRemovers(found <= FULL_POOL_UP_TO ? REMOVAL_WORKERS : 1);
}

/** Removes folders, several at once when it has workers. */
export interface Remover {
  /** Folders it walks at once. */
  walks: number;
  /** Empties and removes `top`, a real folder on `device` (checked by the caller). */
  remove(top: string, device: number): Promise<WalkResult>;
  /** Ends the workers (waits for nothing: call it when no removal is pending). */
  close(): Promise<void>;
}

/** Walks in the calling thread, with synchronous calls. */
export const inlineRemover: Remover = {
  walks: 1,
  remove: (top, device) => removeTree(fs, path, top, device, { uid: process.getuid?.(), concurrent: false }),
  close: async () => undefined,
};

/**
 * The workers' program: the walk's own source text, and a loop that answers each folder sent (by its
 * number) with what its removal found (an error thrown by the walk itself comes back as a problem of the
 * folder). Written to run as a script or as a module alike (a worker started from code given as text runs
 * it as the main program does, and flags such as `--input-type=module` make that a module).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const removeTree = ${removeTree.toString()};
parentPort.on('message', ({ id, top, device }) => {
  removeTree(fs, path, top, device, workerData).then(
    (result) => parentPort.postMessage({ id, result }),
    (error) => parentPort.postMessage({
      id,
      result: { freedBytes: 0, problems: [{ path: top, error: String((error && error.message) || error) }] },
    }),
  );
});
`;

interface Job {
  id: number;
  top: string;
  device: number;
  done: (result: WalkResult) => void;
}

interface Slot {
  worker: Worker;
  capacity: number;
  jobs: Map<number, Job>;
  lost: boolean;
}

/**
 * A pool of `count` removal workers (one concurrent, the rest synchronous; `synchronousOnly`: all, as
 * bench/removal.bench.mjs compares), starting in the background.
 */
export function startRemovers(count: number, { synchronousOnly = false } = {}): Remover {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const uid = process.getuid?.();
  const queue: Job[] = [];
  let nextId = 0;
  const problem = (job: Job, error: string): WalkResult => ({
    freedBytes: 0,
    problems: [{ path: job.top, error }],
  });

  const dispatch = () => {
    for (const slot of slots) {
      while (!slot.lost && slot.jobs.size < slot.capacity && queue.length) {
        const job = queue.shift()!;
        slot.jobs.set(job.id, job);
        slot.worker.postMessage({ id: job.id, top: job.top, device: job.device });
      }
    }
    // No worker left: what is still queued is reported as not removed.
    if (slots.every((slot) => slot.lost))
      for (const job of queue.splice(0)) job.done(problem(job, 'no removal worker left'));
  };
  const slots: Slot[] = Array.from({ length: count }, (_, n) => {
    const concurrent = n === 0 && !synchronousOnly;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { uid, concurrent },
      // A walk's garbage is a few `Stats` at a time: a small young generation, whatever the main thread's.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    const slot: Slot = { worker, capacity: concurrent ? CONCURRENT_WALKS : 1, jobs: new Map(), lost: false };
    worker.on('message', ({ id, result }: { id: number; result: WalkResult }) => {
      const job = slot.jobs.get(id);
      slot.jobs.delete(id);
      job?.done(result);
      dispatch();
    });
    // A worker that dies takes its folders' removals with it (reported), and no more work.
    const lost = (why: string) => {
      if (slot.lost) return;
      slot.lost = true;
      for (const job of slot.jobs.values()) job.done(problem(job, why));
      slot.jobs.clear();
      dispatch();
    };
    worker.on('error', (error) => lost(`removal worker failed: ${error.message}`));
    worker.on('exit', (exitCode) => lost(`removal worker exited (${exitCode})`));
    return slot;
  });

  return {
    walks: slots.reduce((sum, slot) => sum + slot.capacity, 0),
    remove: (top, device) =>
      new Promise<WalkResult>((done) => {
        queue.push({ id: nextId++, top, device, done });
        dispatch();
      }),
    close: async () => {
      for (const slot of slots) slot.lost = true;
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
