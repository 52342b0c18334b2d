// The git CLI behind one interface (GitCommands, git-commands.ts). Every call goes through `exec`:
// argument arrays, a fixed environment, and the hardened configuration (git-hardening.ts) that keeps a
// repository's own settings from running anything on the host.
import { randomBytes } from 'node:crypto';
import type { GitCommands, GitExecOptions, ObjectReader, SmallObject } from './git-commands.js';
import { OID } from './git-commands.js';
// The interface's constants, also where callers of the wrapper have always found them.
export { NO_EXTERNAL_DIFF, OID } from './git-commands.js';
import { baseGitEnv, gitConfigEnv, GIT_NETWORK_CONFIG } from './git-hardening.js';
import { checkGitVersion } from './git-version.js';
import { startPiped } from './piped-process.js';
import { runProcess, runStreaming, type ProcResult, type StreamOptions, type StreamResult } from './proc.js';
import { timeLimitMs } from './time-limits.js';

/** Where `fetchCommit` puts what it fetched, for the moment it takes to read its commit. */
export const FETCH_REF_ROOT = 'refs/worktree-sandbox/fetch';

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: ProcResult,
  ) {
    super(
      `git ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`,
    );
    this.name = 'GitError';
  }
}

export class Git implements GitCommands {
  private constructor(private readonly env: Record<string, string>) {}

  /** The wrapper, once git is known to be there and new enough. */
  static async create(): Promise<Git> {
    const git = new Git(baseGitEnv());
    await checkGitVersion(git.env);
    return git;
  }

  /**
   * Runs git in `cwd` under the time limit of its kind of work; never throws for a non-zero exit (see
   * `run`), but throws a ProcTimeLimitError when the limit runs out (git and everything it started, a
   * remote helper or ssh, are killed).
   */
  async exec(cwd: string, args: readonly string[], options: GitExecOptions = {}): Promise<ProcResult> {
    const work = options.work ?? 'git';
    const env = { ...this.env, ...options.env };
    const remote = work === 'git-fetch' || work === 'git-push';
    const config = [...(remote ? GIT_NETWORK_CONFIG : []), ...(options.config ?? [])];
    if (config.length) Object.assign(env, gitConfigEnv(config));
    const limit = { ms: timeLimitMs(work), purpose: options.purpose ?? `in ${cwd}` };
    return runProcess('git', args, { cwd, env, input: options.input, limit });
  }

  /** Runs git in `cwd`; throws a GitError naming the command for a non-zero exit. Returns stdout. */
  async run(cwd: string, args: readonly string[], options: GitExecOptions = {}): Promise<string> {
    const result = await this.exec(cwd, args, options);
    if (result.exitCode !== 0) throw new GitError(args, result);
    return result.stdout;
  }

  /**
   * Runs git in `cwd` with its output streamed (proc.ts's `runStreaming`: lines handed on as they come, or
   * stdout written to a file up to a limit): for output that can be as large as a sandbox makes it.
   */
  async stream(
    cwd: string,
    args: readonly string[],
    options: Omit<StreamOptions, 'cwd' | 'env'> & { config?: ReadonlyArray<readonly [string, string]> } = {},
  ): Promise<StreamResult> {
    const { config, ...rest } = options;
    const env = { ...this.env, ...(config?.length ? gitConfigEnv(config) : {}) };
    // A stream the caller does not stop itself stops at the local-command limit.
    const limitMs = rest.timeLimitMs ?? (rest.signal ? undefined : timeLimitMs('git'));
    return runStreaming('git', args, { ...rest, timeLimitMs: limitMs, cwd, env });
  }

  /**
   * Reads objects one at a time through two long-lived `git cat-file` processes: their size first
   * (`--batch-check`), their content only when it is within what the caller can take (`--batch`), so that
   * no object is held whole, by git or by us, unless it was asked for. Close it when done.
   */
  async objectReader(cwd: string, timeoutMs: number): Promise<ObjectReader> {
    const env = this.env;
    const [check, batch] = await Promise.all([
      startPiped('git', ['cat-file', '--batch-check'], { cwd, env, timeoutMs }),
      startPiped('git', ['cat-file', '--batch'], { cwd, env, timeoutMs }),
    ]);
    const header = (line: string, oid: string) => {
      const [name, type, size] = line.split(' ');
      if (type === 'missing' || name !== oid) return undefined;
      return { type, size: Number(size) };
    };
    return {
      async info(oid) {
        check.send(`${oid}\n`);
        return header(await check.readLine(), oid);
      },
      async read(oid) {
        batch.send(`${oid}\n`);
        const head = header(await batch.readLine(), oid);
        if (!head) return undefined;
        const body = await batch.read(head.size + 1); // the content and its newline
        return { type: head.type, body: body.subarray(0, head.size) };
      },
      async close() {
        await Promise.all([check.close(), batch.close()]);
      },
    };
  }

  /**
   * Small objects by name, all in one `git cat-file --batch`: each one's object name, type and content,
   * or null where git has no such object. Undefined when that cannot be done in one go (an object over
   * `maxBytes`, an answer it did not expect, git failing or running out of time): the caller then asks
   * in two steps, sizes first. No more than `maxBytes` of any one object is ever held. Names may not
   * hold a newline (one per line).
   */
  async readSmallObjects(
    cwd: string,
    names: readonly string[],
    maxBytes: number,
  ): Promise<Map<string, SmallObject | null> | undefined> {
    if (names.some((name) => /[\n\r\0]/.test(name))) return undefined;
    const batch = await startPiped('git', ['cat-file', '--batch'], {
      cwd,
      env: this.env,
      timeoutMs: timeLimitMs('git'),
    });
    const found = new Map<string, SmallObject | null>();
    try {
      batch.send(names.map((name) => `${name}\n`).join(''));
      for (const name of names) {
        const header = await batch.readLine(Buffer.byteLength(name) + 100);
        if (header === `${name} missing`) {
          found.set(name, null);
          continue;
        }
        const [oid, type, size, ...rest] = header.split(' ');
        const bytes = Number(size);
        if (rest.length || !OID.test(oid) || !/^\d+$/.test(size) || bytes > maxBytes) return undefined;
        const body = await batch.read(bytes + 1); // the content and its newline
        found.set(name, { oid, type, body: body.subarray(0, bytes) });
      }
      return (await batch.close()) === 0 ? found : undefined;
    } catch {
      return undefined;
    } finally {
      batch.kill();
    }
  }

  /** Environment for a script that calls git itself (same hardening as `exec`). */
  scriptEnv(extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.env, ...extra };
  }

  async isValidBranchName(name: string): Promise<boolean> {
    if (name.startsWith('-')) return false;
    // Run outside any repository, so that `@{-1}` and the like expand to nothing. `@` alone passes there,
    // but names HEAD inside a repository.
    if (name === '@') return false;
    const result = await this.exec('/', ['check-ref-format', '--branch', name]);
    return result.exitCode === 0 && result.stdout.trim() === name;
  }

  async refExists(cwd: string, ref: string): Promise<boolean> {
    const result = await this.exec(cwd, ['show-ref', '--verify', '--quiet', '--', ref]);
    return result.exitCode === 0;
  }

  /**
   * The commits of several full ref names at once (one git process): each name that exists and points to
   * a commit (an annotated tag is peeled to its commit), in a map; names that do not are absent.
   */
  async readRefs(cwd: string, refs: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const wanted = new Set(refs.filter((ref) => ref.startsWith('refs/')));
    if (wanted.size === 0) return found;
    // for-each-ref also lists refs below a pattern (`refs/heads/a` shows `refs/heads/a/b`): exact names only.
    const out = await this.run(cwd, [
      'for-each-ref',
      '--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)',
      '--',
      ...wanted,
    ]);
    for (const line of out.split('\n')) {
      const [object, type, peeled, peeledType, ...name] = line.split(' ');
      const ref = name.join(' ');
      if (!wanted.has(ref)) continue;
      if (type === 'commit') found.set(ref, object);
      else if (type === 'tag' && peeledType === 'commit') found.set(ref, peeled);
    }
    return found;
  }

  /** The commit a revision names, or undefined when it names none. */
  async resolveCommit(cwd: string, rev: string): Promise<string | undefined> {
    if (rev.startsWith('-')) return undefined;
    const result = await this.exec(cwd, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${rev}^{commit}`,
    ]);
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  }

  /**
   * Fetches one ref of a remote and returns its commit, holding no lock and changing no ref anyone reads:
   * git writes the objects (safe beside any other git process) and a ref of this call's own under
   * FETCH_REF_ROOT, removed again once its commit is read; FETCH_HEAD is not written. The caller then
   * points its own ref at the commit, briefly, under the repository lock. A GitError when the remote
   * refuses (no such ref, no access); a ProcTimeLimitError when it does not answer within `git-fetch`.
   */
  async fetchCommit(cwd: string, remote: string, ref: string, purpose: string): Promise<string> {
    const own = `${FETCH_REF_ROOT}/${process.pid}-${randomBytes(6).toString('hex')}`;
    try {
      await this.run(
        cwd,
        // `--refmap=`: the remote's configured refspecs update no remote-tracking ref on the side.
        [
          'fetch',
          '--no-tags',
          '--quiet',
          '--no-write-fetch-head',
          '--refmap=',
          '--',
          remote,
          `+${ref}:${own}`,
        ],
        { work: 'git-fetch', purpose },
      );
      return (await this.run(cwd, ['rev-parse', '--verify', '--end-of-options', `${own}^{commit}`])).trim();
    } finally {
      await this.exec(cwd, ['update-ref', '-d', '--', own]).catch(() => undefined);
    }
  }

  async remoteUrl(cwd: string, remote: string): Promise<string | undefined> {
    const result = await this.exec(cwd, ['config', '--get', `remote.${remote}.url`]);
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  }
}

/** git as the layers above engine/ hold it, the interface (Git.create); a spec holds a fake. */
export const createGit = (): Promise<GitCommands> => Git.create();
