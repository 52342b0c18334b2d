// What the host does not read itself, a helper container reads: the activity signals of volume
// sandboxes, the size of a volume, and the check for work where git must look (every volume, and disk
// sandboxes the filesystem could not prove clean). One helper looks at up to SANDBOXES_PER_HELPER
// sandboxes of one parent, all mounted read-only with the parent's object stores; what it runs and how
// its answer reads are inspection-script.ts's.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineCommands } from '../engine/engine-commands.js';
import { type Mount, userArg } from '../engine/container-args.js';
import type { HelperImage } from '../engine/helper-image.js';
import { OID } from '../engine/git.js';
import { gitConfigEnv, helperGitEnv } from '../engine/git-hardening.js';
import { parseFrames } from '../engine/helper-frames.js';
import { HELPER_LABELS } from '../engine/labels.js';
import { TimeLimitError } from '../engine/time-limits.js';
import { objectStoreMounts } from '../sandbox/layout.js';
import type { ParentRepository } from '../sandbox/repository.js';
import { sandboxText } from '../ui/sandbox-text.js';
import {
  INSPECT_SCRIPT,
  type Inspection,
  type InspectionRequest,
  OUTPUT_PER_SANDBOX,
  readInspections,
  SANDBOXES_PER_HELPER,
} from './inspection-script.js';

/**
 * Each request's inspection, in helpers of SANDBOXES_PER_HELPER sandboxes. The helper image is asked for
 * only here, when there is something to inspect; when it cannot be made, every request fails with the
 * reason (each sandbox is then kept as unknown by its caller), and nothing else is affected.
 */
export async function inspectInHelpers(
  engine: EngineCommands,
  helperImage: HelperImage,
  parent: ParentRepository | undefined,
  requests: readonly InspectionRequest[],
): Promise<Map<string, Inspection>> {
  const results = new Map<string, Inspection>();
  if (!requests.length) return results;
  let image: string;
  try {
    image = await helperImage();
  } catch (error) {
    const failed = { error: `the helper image could not be made: ${(error as Error).message}` };
    return new Map(requests.map((r) => [r.key, failed]));
  }
  for (let i = 0; i < requests.length; i += SANDBOXES_PER_HELPER) {
    const chunk = requests.slice(i, i + SANDBOXES_PER_HELPER);
    const run = (part: readonly InspectionRequest[]) => inspectChunkOnce(engine, image, parent, part);
    for (const [key, inspection] of await inspectIsolating(chunk, run)) results.set(key, inspection);
  }
  return results;
}

/** One helper's answer: each request's inspection, and which requests it began (in order). */
export interface ChunkAnswer {
  found: Map<string, Inspection>;
  began: Set<string>;
}

/**
 * A batch in one helper; when the helper fails part of the way, the sandbox it was at keeps its error
 * and the ones it never reached go to a new helper, so one sandbox (too much output, a hang, a crash)
 * never takes the others' verdicts with it. A helper that failed before it began any sandbox says
 * nothing about which one was to blame: the batch is halved until each part gets through or is one
 * sandbox alone.
 */
export async function inspectIsolating(
  chunk: readonly InspectionRequest[],
  run: (part: readonly InspectionRequest[]) => Promise<ChunkAnswer>,
): Promise<Map<string, Inspection>> {
  const results = new Map<string, Inspection>();
  let pending = [...chunk];
  while (pending.length) {
    const { found, began } = await run(pending);
    const failed = pending.filter((r) => found.get(r.key)?.error !== undefined);
    for (const r of pending) if (!failed.includes(r)) results.set(r.key, found.get(r.key)!);
    if (!failed.length) break;
    // The helper works in order: the first that failed is the one it was at, the rest it never reached
    // (or, done, wrote more than their share: they fail again alone).
    const [offender, ...rest] = failed;
    if (began.has(offender.key) || failed.length === 1) {
      results.set(offender.key, found.get(offender.key)!);
      pending = rest;
      continue;
    }
    const half = Math.ceil(failed.length / 2);
    for (const part of [failed.slice(0, half), failed.slice(half)])
      for (const [key, inspection] of await inspectIsolating(part, run)) results.set(key, inspection);
    break;
  }
  return results;
}

/** One helper for `chunk`; a helper that could not even be started fails every request in it. */
async function inspectChunkOnce(
  engine: EngineCommands,
  image: string,
  parent: ParentRepository | undefined,
  chunk: readonly InspectionRequest[],
): Promise<ChunkAnswer> {
  try {
    return await inspectChunk(engine, image, parent, chunk);
  } catch (error) {
    const failed = { error: `the helper container failed: ${(error as Error).message}` };
    return { found: new Map(chunk.map((r) => [r.key, failed])), began: new Set() };
  }
}

async function inspectChunk(
  engine: EngineCommands,
  image: string,
  parent: ParentRepository | undefined,
  chunk: readonly InspectionRequest[],
): Promise<ChunkAnswer> {
  const token = randomBytes(16).toString('hex');
  const mounts: Mount[] = parent ? objectStoreMounts(parent) : [];
  const args: string[] = [];
  chunk.forEach((request, n) => {
    const what = `${request.signals ? 's' : ''}${request.work ? 'w' : ''}${request.size ? 'd' : ''}`;
    if ('volume' in request.target) {
      const top = `/v/${n}`;
      mounts.push({ type: 'volume', source: request.target.volume, target: top, readonly: true });
      const wt = `${top}/${request.target.name}`;
      args.push(String(n), what, top, wt, `${wt}/.git`, '-');
    } else {
      const dir = request.target.hostPath;
      mounts.push({ type: 'bind', source: dir, target: dir, readonly: true });
      if ('gitDir' in request.target) {
        const { gitDir, headOid } = request.target;
        mounts.push({ type: 'bind', source: gitDir, target: gitDir, readonly: true });
        args.push(String(n), what, dir, dir, gitDir, OID.test(headOid) ? headOid : '-');
      } else args.push(String(n), what, dir, dir, `${dir}/.git`, '-');
    }
  });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'worktree-sandbox-inspect-'));
  const out = path.join(dir, 'out');
  try {
    let failure: string;
    try {
      const result = await engine.runHelper(
        {
          remove: true,
          image,
          user: userArg(),
          mounts,
          labels: HELPER_LABELS,
          // The files belong to whoever ran the sandbox: git's ownership check would refuse them.
          env: { ...helperGitEnv(), ...gitConfigEnv([['safe.directory', '*']]) },
          workdir: '/',
          entrypoint: 'sh',
          args: [
            '-c',
            INSPECT_SCRIPT,
            'worktree-sandbox-inspect',
            token,
            (parent?.objectStores ?? []).join(':'),
            ...args,
          ],
        },
        {
          work: 'inspect',
          where: `${chunk.length} sandbox(es)${parent ? ` of ${parent.path}` : ''}`,
          consequence: 'the sandboxes it had not finished with are kept',
          unmapped: true,
        },
        { stdoutFile: { path: out, maxBytes: OUTPUT_PER_SANDBOX * chunk.length } },
      );
      failure = result.overLimit
        ? `the helper container wrote more than ${OUTPUT_PER_SANDBOX} bytes for it`
        : `the helper container stopped (exit ${result.exitCode}): ${sandboxText(result.stderrTail.slice(-1)[0] ?? '', 500)}`.trim();
    } catch (error) {
      // Out of time: what it said about the sandboxes it finished with still counts.
      if (!(error instanceof TimeLimitError)) throw error;
      failure = error.message;
    }
    const stdout = await fs.readFile(out);
    const frames = parseFrames(stdout, token);
    const began = new Set(frames.filter((f) => f.key === 'begin').map((f) => chunk[Number(f.index)]?.key));
    return { found: readInspections(frames, chunk, failure), began };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
