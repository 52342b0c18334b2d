// Where removal walks run. Deleting is the kernel's work, and on a busy or journalled disk (ext4 mounted
// with `discard` on a virtual disk, as on the machines measured in docs/benchmarks.md) each unlink waits
// for the device more than it uses a core: the more unlinks in flight, the more of them one journal
// commit carries. Several worker threads, each walking one folder with synchronous calls, keep that many
// in flight without a thread pool in between, and leave the main thread free for the locks it holds
// (a lock's holder must keep refreshing it) and the next removals' checks. Reap mode only: the module
// `node:worker_threads` is loaded when the first pool starts, never in run mode (test/e2e/startup.test.ts).
// A single removal, or a pool of one, walks in the calling thread.
//
// How many: each worker is a JavaScript environment of its own, about 11 MB of memory. Measured on the
// reap benchmark (docs/benchmarks.md, issue 9): 2,000 sandboxes (400 removed) take 2.2 s to remove in the
// calling thread, 1.6 s with 2 workers, 1.4 s with 3, 1.3 s with 4, 1.1 s with 8; with 10,000 sandboxes the
// step's peak memory is 106 MB in the calling thread, 139 MB with 3 workers, 151 MB with 4 (issue 3 bounds
// it at 150 MB). Three it is.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { removeTreeSync, type WalkResult } from './remove-walk.js';

/** Removal workers of a pool that removes many sandboxes. */
export const REMOVAL_WORKERS = 3;

/** Removes folders, several at once when it has workers. */
export interface Remover {
  /** Empties and removes `top`, a real folder on `device` (checked by the caller). */
  remove(top: string, device: number): Promise<WalkResult>;
  /** Ends the workers (waits for nothing: call it when no removal is pending). */
  close(): Promise<void>;
}

/** Walks in the calling thread, one after the other. */
export const inlineRemover: Remover = {
  remove: async (top, device) => removeTreeSync(fs, path, process.getuid?.(), top, device),
  close: async () => undefined,
};

interface Job {
  top: string;
  device: number;
  done: (result: WalkResult) => void;
}

/**
 * The workers' program: the walk's own source text, and a loop that answers each folder sent with what
 * its removal found (an error thrown by the walk itself comes back as a problem of the folder). Written
 * to run as a script or as a module alike (a worker started from code given as text runs it as the main
 * program does, and flags such as `--input-type=module` make that a module).
 */
const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const removeTreeSync = ${removeTreeSync.toString()};
parentPort.on('message', ({ uid, top, device }) => {
  let result;
  try {
    result = removeTreeSync(fs, path, uid, top, device);
  } catch (error) {
    result = { freedBytes: 0, problems: [{ path: top, error: String((error && error.message) || error) }] };
  }
  parentPort.postMessage(result);
});
`;

/**
 * A pool of `count` removal workers (at most one folder each at a time), starting in the background; 1 or
 * less: the inline remover.
 */
export function startRemovers(count: number): Remover {
  if (count <= 1) return inlineRemover;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const uid = process.getuid?.();
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const failed = new Set<Worker>();

  const next = (worker: Worker) => {
    const job = queue.shift();
    if (!job) {
      idle.push(worker);
      return;
    }
    busy.set(worker, job);
    worker.postMessage({ uid, top: job.top, device: job.device });
  };
  const finish = (worker: Worker, result: WalkResult) => {
    const job = busy.get(worker);
    busy.delete(worker);
    job?.done(result);
  };
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (result: WalkResult) => {
      finish(worker, result);
      next(worker);
    });
    // A worker that dies takes its folder's removal with it (reported), and no more work.
    const lost = (why: string) => {
      if (failed.has(worker)) return;
      failed.add(worker);
      const job = busy.get(worker);
      if (job) finish(worker, { freedBytes: 0, problems: [{ path: job.top, error: why }] });
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      // The last worker gone: what is still queued is reported the same way.
      if (failed.size === count)
        for (const waiting of queue.splice(0))
          waiting.done({ freedBytes: 0, problems: [{ path: waiting.top, error: why }] });
    };
    worker.on('error', (error) => lost(`removal worker failed: ${error.message}`));
    worker.on('exit', (exitCode) => lost(`removal worker exited (${exitCode})`));
    idle.push(worker);
    return worker;
  });

  return {
    remove: (top, device) =>
      new Promise<WalkResult>((done) => {
        if (failed.size === count) {
          done({ freedBytes: 0, problems: [{ path: top, error: 'no removal worker left' }] });
          return;
        }
        queue.push({ top, device, done });
        const worker = idle.shift();
        if (worker) next(worker);
      }),
    close: async () => {
      for (const worker of workers) failed.add(worker);
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
