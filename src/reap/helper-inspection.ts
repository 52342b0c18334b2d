// What the host does not read itself, a helper container reads: the activity signals of volume
// sandboxes, the size of a volume, and the check for work where git must look (every volume, and disk
// sandboxes the filesystem could not prove clean). One helper looks at up to SANDBOXES_PER_HELPER
// sandboxes of one parent, all mounted read-only with the parent's object stores.
//
// git in the helper never reads a sandbox's own configuration, hooks or attributes drivers: each
// sandbox is looked at through a clean git folder made inside the helper (a copy of its HEAD, refs and
// excludes; its own object store and index named by GIT_OBJECT_DIRECTORY and GIT_INDEX_FILE). So a
// hostile sandbox cannot run code in the helper, where it could lie about another sandbox of the batch.
//
// The helper's output is framed: each record is a header `<token> <index> <key> <length>\n` followed by
// exactly <length> bytes and a newline, the token random per run. The host reads records one after the
// other by their lengths and never searches the data for a header, so no file name or file content can
// forge a record.
import { SNAPSHOT_REF } from '../run/capture.js';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Mount, userArg } from '../engine/container-args.js';
import type { ContainerEngine } from '../engine/engine.js';
import type { HelperImage } from '../engine/helper-image.js';
import { OID } from '../engine/git.js';
import { gitConfigEnv, helperGitEnv } from '../engine/git-hardening.js';
import { HELPER_LABELS } from '../engine/labels.js';
import { TimeLimitError } from '../engine/time-limits.js';
import { objectStoreMounts } from '../sandbox/layout.js';
import type { ParentRepository } from '../sandbox/repository.js';
import {
  describeOperation,
  type HeadReading,
  MAX_REFS,
  OPERATION_MARKS,
  PACKED_REFS_MAX,
  parseHead,
} from './sandbox-files.js';
import type { CheckResult } from './decide.js';
import { sandboxText } from '../ui/sandbox-text.js';

export const SANDBOXES_PER_HELPER = 48;
/**
 * What one sandbox may write: its refs (at most MAX_REFS object names, which the script checks itself)
 * and a few short records. The helper's budget is this times its sandboxes, so one sandbox never spends
 * another's share; a sandbox that writes more than its own share gets no verdict.
 */
export const OUTPUT_PER_SANDBOX = MAX_REFS * 41 + 256 * 1024;

/**
 * A volume, a disk sandbox (its `.git` folder inside), or a linked worktree: its work tree, its git
 * folder (the registration in the parent, mounted read-only too) and the commit its HEAD names (the host
 * resolved the parent's branch; the helper's clean folder is detached there).
 */
export type InspectionTarget =
  | { volume: string; name: string }
  | { hostPath: string }
  | { hostPath: string; gitDir: string; headOid: string };

export interface InspectionRequest {
  /** Unique in one call. */
  key: string;
  target: InspectionTarget;
  /** Activity signals and HEAD (volumes: the scan). */
  signals?: boolean;
  /** The check for work: HEAD and refs as git resolves them, operation marks, `git status`. */
  work?: boolean;
  /** The volume's size (`du`). */
  size?: boolean;
}

/** One signal as lstat saw it: a regular file or folder with its mtime, or what else was there. */
export type Signal = { type: 'file' | 'dir'; mtimeMs: number } | { type: 'link' | 'other' | 'none' };

export interface SignalReport {
  worktree: Signal;
  gitDir: Signal;
  files: Record<'index' | 'HEAD' | 'logs/HEAD', Signal>;
  head?: HeadReading;
}

/**
 * What a helper read of a sandbox's history, as data: not yet judged against the parent (work.ts turns it
 * into the sandbox's WorkReport).
 */
export type HelperWorkReading =
  | { error: string }
  | {
      /** The commit HEAD names, as git resolves it in the clean folder. */
      headOid: string;
      /** Every object the sandbox's refs name. */
      named: string[];
      operation?: string;
      uncommitted: CheckResult<number>;
    };

export interface Inspection {
  signals?: SignalReport;
  work?: HelperWorkReading;
  sizeBytes?: number;
  /** The helper died before it reached this sandbox. */
  error?: string;
}

const SIGNAL_KEYS: Record<string, keyof SignalReport['files'] | 'worktree' | 'gitDir'> = {
  'sig-wt': 'worktree',
  'sig-gitdir': 'gitDir',
  'sig-index': 'index',
  'sig-HEAD': 'HEAD',
  'sig-logs-HEAD': 'logs/HEAD',
};

// Positional arguments: the token, the parent's object stores (`:`-joined), then sextuples: index,
// what to do (letters s: signals, w: work, d: du), the folder to measure, the work tree, its git folder,
// and the commit HEAD names or \`-\` (a linked worktree: its registration is its git folder, HEAD is given
// as a commit, its objects are the parent's).
export const INSPECT_SCRIPT = `set -u
token="$1"; alts="$2"; shift 2
tmp=$(mktemp -d)
rec() {
  n=$(wc -c < "$3" | tr -d ' ')
  printf '%s %s %s %s\\n' "$token" "$1" "$2" "$n"
  cat -- "$3"
  printf '\\n'
}
val() { printf '%s' "$3" > "$tmp/v"; rec "$1" "$2" "$tmp/v"; }
sig() {
  if [ -L "$3" ]; then v=l
  elif [ -f "$3" ]; then v="f $(stat -c %.9Y -- "$3" 2>/dev/null)"
  elif [ -d "$3" ]; then v="d $(stat -c %.9Y -- "$3" 2>/dev/null)"
  elif [ -e "$3" ]; then v=o
  else v=n; fi
  val "$1" "sig-$2" "$v"
}
signals() {
  i="$1"; wt="$2"; gd="$2/.git"
  sig "$i" wt "$wt"; sig "$i" gitdir "$gd"
  sig "$i" index "$gd/index"; sig "$i" HEAD "$gd/HEAD"; sig "$i" logs-HEAD "$gd/logs/HEAD"
  if [ -f "$gd/HEAD" ] && [ ! -L "$gd/HEAD" ] && [ ! -L "$gd" ]; then
    head -c 1024 -- "$gd/HEAD" > "$tmp/v" 2>/dev/null && rec "$i" head-file "$tmp/v"
  fi
}
work() {
  i="$1"; wt="$2"; gd="$3"; hd="$4"; g="$tmp/g$i"; od="$gd/objects"
  if [ -L "$wt" ] || [ ! -d "$wt" ] || [ -L "$gd" ] || [ ! -d "$gd" ]; then val "$i" work-error "its work tree or .git folder is missing"; return; fi
  if [ "$(find "$gd/refs" 2>/dev/null | head -n ${MAX_REFS + 2} | wc -l)" -gt ${MAX_REFS + 1} ]; then val "$i" work-error "it has more than ${MAX_REFS} refs"; return; fi
  if [ -f "$gd/packed-refs" ] && [ "$(head -c ${PACKED_REFS_MAX + 1} -- "$gd/packed-refs" | wc -c | tr -d ' ')" -gt ${PACKED_REFS_MAX} ]; then val "$i" work-error "its packed-refs is larger than ${PACKED_REFS_MAX} bytes"; return; fi
  mkdir -p "$g/refs" "$g/info" "$g/objects"
  for f in HEAD packed-refs info/exclude; do
    if [ -f "$gd/$f" ] && [ ! -L "$gd/$f" ]; then cp -- "$gd/$f" "$g/$f"; fi
  done
  if [ -d "$gd/refs" ] && [ ! -L "$gd/refs" ]; then cp -RP -- "$gd/refs/." "$g/refs/"; fi
  rm -f -- "$g/${SNAPSHOT_REF}"
  if [ "$hd" != - ]; then printf '%s\\n' "$hd" > "$g/HEAD"; od="\${alts%%:*}"; fi
  for m in ${OPERATION_MARKS.join(' ')}; do
    if [ -e "$gd/$m" ] || [ -L "$gd/$m" ]; then val "$i" operation "$m"; fi
  done
  (
    export GIT_DIR="$g" GIT_WORK_TREE="$wt" GIT_INDEX_FILE="$gd/index" GIT_OBJECT_DIRECTORY="$od" GIT_ALTERNATE_OBJECT_DIRECTORIES="$alts"
    git rev-parse --verify --quiet HEAD > "$tmp/head" 2>/dev/null || : > "$tmp/head"
    git for-each-ref --format='%(objectname)' > "$tmp/refs" 2>/dev/null; echo $? > "$tmp/refs-rc"
    if [ "$(wc -l < "$tmp/refs" | tr -d ' ')" -gt ${MAX_REFS} ]; then exit 3; fi
    git status --porcelain=v1 -z --untracked-files=all --no-renames --ignore-submodules=dirty > "$tmp/status" 2>/dev/null; echo $? > "$tmp/status-rc"
  )
  if [ $? -eq 3 ]; then val "$i" work-error "it has more than ${MAX_REFS} refs"; rm -rf -- "$g" "$tmp/refs"; return; fi
  rec "$i" head "$tmp/head"
  rec "$i" refs-rc "$tmp/refs-rc"
  rec "$i" refs "$tmp/refs"
  rec "$i" status-rc "$tmp/status-rc"
  val "$i" status-count "$(tr -cd '\\000' < "$tmp/status" | wc -c | tr -d ' ')"
  rm -rf -- "$g" "$tmp/status"
}
while [ $# -ge 6 ]; do
  i="$1"; what="$2"; top="$3"; wt="$4"; gd="$5"; hd="$6"; shift 6
  val "$i" begin ok
  case "$what" in *s*) signals "$i" "$wt" ;; esac
  case "$what" in *w*) work "$i" "$wt" "$gd" "$hd" ;; esac
  case "$what" in *d*) val "$i" size "$(du -sk -- "$top" 2>/dev/null | cut -f1)" ;; esac
  val "$i" done ok
done
val end end end
`;

/**
 * Each request's inspection, in helpers of SANDBOXES_PER_HELPER sandboxes. The helper image is asked for
 * only here, when there is something to inspect; when it cannot be made, every request fails with the
 * reason (each sandbox is then kept as unknown by its caller), and nothing else is affected.
 */
export async function inspectInHelpers(
  engine: ContainerEngine,
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
  engine: ContainerEngine,
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
  engine: ContainerEngine,
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

export interface Frame {
  index: string;
  key: string;
  value: Buffer;
}

/**
 * The records, read one after the other by their lengths. Reading stops at the first byte that is not
 * a well-formed header of this run: what follows is never taken for a record.
 */
export function parseFrames(stdout: Buffer, token: string): Frame[] {
  const frames: Frame[] = [];
  const header = new RegExp(`^${token} ([0-9]+|end) ([a-zA-Z-]+) ([0-9]{1,9})$`);
  let at = 0;
  while (at < stdout.length) {
    const nl = stdout.indexOf(0x0a, at);
    if (nl < 0 || nl - at > 200) break;
    const match = header.exec(stdout.toString('latin1', at, nl));
    if (!match) break;
    const length = Number(match[3]);
    const start = nl + 1;
    if (start + length + 1 > stdout.length || stdout[start + length] !== 0x0a) break;
    frames.push({ index: match[1], key: match[2], value: stdout.subarray(start, start + length) });
    at = start + length + 1;
  }
  return frames;
}

/** Each request's records, checked; a sandbox without its `done` record is a failed check. */
export function readInspections(
  frames: readonly Frame[],
  chunk: readonly InspectionRequest[],
  failure: string,
): Map<string, Inspection> {
  const byIndex = new Map<string, Frame[]>();
  for (const frame of frames) byIndex.set(frame.index, [...(byIndex.get(frame.index) ?? []), frame]);
  const results = new Map<string, Inspection>();
  chunk.forEach((request, n) => {
    const records = byIndex.get(String(n)) ?? [];
    const text = (key: string) => records.find((r) => r.key === key)?.value.toString('utf8');
    if (text('done') !== 'ok') {
      results.set(request.key, { error: failure });
      return;
    }
    if (records.reduce((sum, r) => sum + r.value.length, 0) > OUTPUT_PER_SANDBOX) {
      results.set(request.key, { error: `the helper wrote more than ${OUTPUT_PER_SANDBOX} bytes for it` });
      return;
    }
    const inspection: Inspection = {};
    if (request.signals) inspection.signals = readSignals(records, text);
    if (request.work) inspection.work = readWork(records, text);
    if (request.size) {
      const kb = text('size')?.trim() ?? '';
      if (/^[0-9]+$/.test(kb)) inspection.sizeBytes = Number(kb) * 1024;
    }
    results.set(request.key, inspection);
  });
  return results;
}

function readSignals(records: readonly Frame[], text: (key: string) => string | undefined): SignalReport {
  const report: SignalReport = {
    worktree: { type: 'none' },
    gitDir: { type: 'none' },
    files: { index: { type: 'none' }, HEAD: { type: 'none' }, 'logs/HEAD': { type: 'none' } },
  };
  for (const record of records) {
    const slot = SIGNAL_KEYS[record.key];
    if (!slot) continue;
    const signal = parseSignal(record.value.toString('latin1'));
    if (slot === 'worktree' || slot === 'gitDir') report[slot] = signal;
    else report.files[slot] = signal;
  }
  const headFile = text('head-file');
  if (headFile !== undefined) report.head = parseHead(headFile);
  return report;
}

export function parseSignal(value: string): Signal {
  const match = /^([fd]) ([0-9]{1,12})(?:\.([0-9]{1,9}))?$/.exec(value);
  if (match) {
    const ms = Number(match[2]) * 1000 + Math.floor(Number((match[3] ?? '0').padEnd(9, '0')) / 1e6);
    return { type: match[1] === 'f' ? 'file' : 'dir', mtimeMs: ms };
  }
  if (value === 'l') return { type: 'link' };
  if (value === 'n') return { type: 'none' };
  return { type: 'other' };
}

function readWork(records: readonly Frame[], text: (key: string) => string | undefined): HelperWorkReading {
  const error = text('work-error');
  if (error !== undefined) return { error: `the helper says: ${error}` };
  const head = text('head')?.trim() ?? '';
  const refsRc = text('refs-rc')?.trim();
  const refs = (text('refs') ?? '').split('\n').filter(Boolean);
  if (refsRc !== '0' || refs.some((r) => !OID.test(r))) return { error: 'its refs could not be read' };
  if (!OID.test(head)) return { error: 'its HEAD names no commit' };
  const operation = records
    .filter((r) => r.key === 'operation')
    .map((r) => describeOperation(r.value.toString('utf8')))
    .find((d) => d !== undefined);
  const statusRc = text('status-rc')?.trim();
  const count = text('status-count')?.trim() ?? '';
  const uncommitted: CheckResult<number> =
    statusRc === '0' && /^[0-9]+$/.test(count)
      ? { value: Number(count) }
      : { error: `git status failed in the helper (exit ${statusRc ?? '?'})` };
  return { headOid: head, named: [...new Set([head, ...refs])], operation, uncommitted };
}
