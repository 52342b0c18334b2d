// What a helper container runs to look into sandboxes, and what its answer means: the requests, the
// shell script (its records framed by engine/helper-frames.ts), and the reading of each sandbox's records
// into data. helper-inspection.ts runs the helpers.
//
// git in the helper never reads a sandbox's own configuration, hooks or attributes drivers: each
// sandbox is looked at through a clean git folder made inside the helper (a copy of its HEAD, refs and
// excludes; its own object store and index named by GIT_OBJECT_DIRECTORY and GIT_INDEX_FILE). So a
// hostile sandbox cannot run code in the helper, where it could lie about another sandbox of the batch.
import { SNAPSHOT_REF } from '../sandbox/bookkeeping.js';
import { OID } from '../engine/git.js';
import type { Frame } from '../engine/helper-frames.js';
import {
  describeOperation,
  type HeadReading,
  MAX_REFS,
  OPERATION_MARKS,
  PACKED_REFS_MAX,
  parseHead,
} from '../sandbox/sandbox-files.js';
import type { CheckResult } from './decide.js';

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
