// Which files differ between two commits, in bounded memory and time whatever the commits hold.
//
// `git diff` queues every changed path before it prints the first one: a commit whose three small trees
// name 150,000 paths of 600 bytes (a pack of a few kilobytes) makes it hold hundreds of megabytes, more
// with `--stat`, before anything can be cut. So the trees are walked here instead, through
// `git cat-file` (which holds one object at a time):
//  - the first `maxPaths` changed paths are listed, in git's tree order;
//  - all of them are counted, each pair of trees once (a tree named 1,600 times is counted once and
//    multiplied), so that a tree bomb costs its distinct trees, not its paths;
//  - at most `maxTreeBytes` of tree objects are read, no tree larger than `maxTreeBytes / 4` is read at all,
//    and the walk stops after `timeoutMs`: past any of these the count is a lower bound (`exact: false`).
// Memory: the trees read (at most `maxTreeBytes`, ~3x that once parsed), the listed paths, and one number
// per pair of trees counted.
import type { GitCommands, ObjectReader } from '../engine/git-commands.js';
import { OID } from '../engine/git.js';

export interface PathBounds {
  /** The most paths listed by name. */
  maxPaths: number;
  /** The most bytes of tree objects read in all (listing and counting together). */
  maxTreeBytes: number;
  timeoutMs: number;
}

/** What the report keeps of a run's paths: 1,000 names, 64 MiB of trees, a minute. */
export const REPORT_PATH_BOUNDS: PathBounds = {
  maxPaths: 1_000,
  maxTreeBytes: 64 * 1024 * 1024,
  timeoutMs: 60_000,
};

export interface ChangedPaths {
  /** The first changed paths (at most `maxPaths`), in git's tree order. */
  paths: string[];
  /** How many paths changed in all; a lower bound when `exact` is false. */
  count: number;
  exact: boolean;
  /** Why the count stopped, when it did. */
  stopped?: string;
}

interface Entry {
  mode: string;
  name: string;
  oid: string;
  tree: boolean;
}

class Stop extends Error {}

/** Reads and parses trees within the byte budget and the time limit. */
class Trees {
  bytesRead = 0;

  constructor(
    private readonly reader: ObjectReader,
    private readonly bounds: PathBounds,
    private readonly deadline: number,
  ) {}

  async entries(oid: string | undefined): Promise<Entry[]> {
    if (!oid) return [];
    if (!OID.test(oid)) throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
    if (Date.now() > this.deadline) throw new Stop(`it took longer than ${this.bounds.timeoutMs / 1000} s`);
    const info = await this.reader.info(oid);
    if (!info || info.type !== 'tree') throw new Error(`${oid} is not a tree`);
    if (info.size > this.bounds.maxTreeBytes / 4)
      throw new Stop(`a tree of ${info.size} bytes is larger than ${this.bounds.maxTreeBytes / 4} bytes`);
    if (this.bytesRead + info.size > this.bounds.maxTreeBytes)
      throw new Stop(`the trees are larger than ${this.bounds.maxTreeBytes} bytes`);
    this.bytesRead += info.size;
    const object = await this.reader.read(oid);
    if (!object || object.type !== 'tree') throw new Error(`${oid} is not a tree`);
    return parseTree(object.body, oid.length / 2);
  }
}

/** A tree object's entries: `<mode> <name>\0<binary id>`, in git's order. */
export function parseTree(body: Buffer, idBytes: number): Entry[] {
  const entries: Entry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(32, at);
    const nul = body.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > body.length) throw new Error('a malformed tree');
    const mode = body.toString('latin1', at, space);
    entries.push({
      mode,
      name: body.toString('utf8', space + 1, nul),
      oid: body.toString('hex', nul + 1, nul + 1 + idBytes),
      tree: mode === '40000',
    });
    at = nul + 1 + idBytes;
  }
  return entries;
}

interface Side {
  a?: Entry;
  b?: Entry;
}

/** git's order of a tree's entries: by name's bytes, a tree's name as if it ended in `/`. */
const orderKey = (e: Entry) => Buffer.from(e.tree ? `${e.name}/` : e.name);

/** The entries that differ between two trees, paired by name, in git's order. */
function pair(a: Entry[], b: Entry[]): Side[] {
  const byName = new Map<string, Side>();
  for (const e of a) byName.set(e.name, { a: e });
  for (const e of b) {
    const side = byName.get(e.name);
    if (side) side.b = e;
    else byName.set(e.name, { b: e });
  }
  return [...byName.values()]
    .filter((s) => !s.a || !s.b || s.a.oid !== s.b.oid || s.a.mode !== s.b.mode)
    .sort((x, y) => Buffer.compare(orderKey((x.a ?? x.b)!), orderKey((y.a ?? y.b)!)));
}

/** The changed paths between two trees (undefined: the empty tree), listed and counted within `bounds`. */
export async function changedPaths(
  git: GitCommands,
  cwd: string,
  from: string | undefined,
  to: string | undefined,
  bounds: PathBounds = REPORT_PATH_BOUNDS,
): Promise<ChangedPaths> {
  const reader = await git.objectReader(cwd, bounds.timeoutMs + 10_000);
  try {
    const trees = new Trees(reader, bounds, Date.now() + bounds.timeoutMs);
    // One question at a time: the reader's answers come back in order on one pipe.
    const fromTree = await treeOf(reader, from);
    const toTree = await treeOf(reader, to);
    const paths: string[] = [];
    let listedAll = true;
    try {
      listedAll = await list(trees, fromTree, toTree, '', paths, bounds.maxPaths);
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
      return { paths, count: paths.length, exact: false, stopped: error.message };
    }
    if (listedAll) return { paths, count: paths.length, exact: true };
    const counter = new Counter(trees);
    try {
      return { paths, count: await counter.count(fromTree, toTree), exact: true };
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
      return { paths, count: Math.max(paths.length, counter.partial), exact: false, stopped: error.message };
    }
  } finally {
    await reader.close();
  }
}

/** The tree of a commit (or a tree), by id. */
async function treeOf(reader: ObjectReader, oid: string | undefined): Promise<string | undefined> {
  if (!oid) return undefined;
  if (!OID.test(oid)) throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
  const info = await reader.info(oid);
  if (info?.type === 'tree') return oid;
  if (info?.type !== 'commit' || info.size > 1024 * 1024) throw new Error(`${oid} is not a commit`);
  const commit = await reader.read(oid);
  const tree = /^tree ([0-9a-f]+)$/m.exec(commit?.body.toString('latin1', 0, 200) ?? '')?.[1];
  if (!tree) throw new Error(`${oid} names no tree`);
  return tree;
}

/** Lists changed paths in order until `max` are listed; true when there were no more. */
async function list(
  trees: Trees,
  a: string | undefined,
  b: string | undefined,
  prefix: string,
  out: string[],
  max: number,
): Promise<boolean> {
  const ea = await trees.entries(a);
  const eb = await trees.entries(b);
  for (const { a: x, b: y } of pair(ea, eb)) {
    const name = prefix + (x ?? y)!.name;
    // A file on one side: one path (a tree on the other side adds its own below).
    if ((x && !x.tree) || (y && !y.tree)) {
      if (out.length >= max) return false;
      out.push(name);
    }
    const subA = x?.tree ? x.oid : undefined;
    const subB = y?.tree ? y.oid : undefined;
    if ((subA || subB) && !(await list(trees, subA, subB, `${name}/`, out, max))) return false;
  }
  return true;
}

/** Counts changed paths, each pair of trees once. */
class Counter {
  private readonly known = new Map<string, number>();
  /** What was counted before the walk stopped (a lower bound). */
  partial = 0;

  constructor(private readonly trees: Trees) {}

  async count(a: string | undefined, b: string | undefined): Promise<number> {
    const key = `${a ?? ''}:${b ?? ''}`;
    const known = this.known.get(key);
    if (known !== undefined) {
      this.partial += known;
      return known;
    }
    const ea = await this.trees.entries(a);
    const eb = await this.trees.entries(b);
    let n = 0;
    for (const { a: x, b: y } of pair(ea, eb)) {
      if ((x && !x.tree) || (y && !y.tree)) {
        n += 1;
        this.partial += 1;
      }
      const subA = x?.tree ? x.oid : undefined;
      const subB = y?.tree ? y.oid : undefined;
      if (subA || subB) n += await this.count(subA, subB);
    }
    this.known.set(key, n);
    return n;
  }
}
