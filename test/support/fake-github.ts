// A small stand-in for the GitHub REST API on 127.0.0.1, serving exactly the endpoints the action calls
// and recording every request, so that tests assert what was asked of GitHub. It answers under a GitHub
// Enterprise Server style root (`/api/v3`), which is also how GITHUB_API_URL reaches @actions/github.
// Faults can be queued per endpoint (a 502, a dropped connection, a secondary rate limit); with `origin`
// set, a new pull request's head must be a branch of that real bare repository, as GitHub checks.
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePull {
  number: number;
  state: 'open' | 'closed';
  headRef: string;
  headSha: string;
  /** `owner/name` of the head repository, or null when the fork was deleted. */
  headRepo: string | null;
  headCloneUrl?: string;
  maintainerCanModify?: boolean;
  base?: string;
  title?: string;
  body?: string;
  draft?: boolean;
  labels?: string[];
}

/** One answer in place of the real one: a status (with headers and body), or a connection dropped unanswered. */
export interface Fault {
  method: string;
  path: string | RegExp;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  drop?: boolean;
}

export interface RecordedCall {
  method: string;
  /** Path below the API root, without the query. */
  path: string;
  query: Record<string, string>;
  body?: Record<string, unknown>;
  authorization?: string;
  status: number;
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  /** Every body the comment had, first to last. */
  history: string[];
  /** Who wrote it (default: the token's bot, as for comments made through this API). */
  author?: string;
  authorType?: string;
}

export interface FakeReviewComment extends FakeComment {
  author: string;
  inReplyTo?: number;
  /** The submitted review it belongs to (its list: `GET /pulls/{n}/reviews/{id}/comments`). */
  reviewId?: number;
  path?: string;
  line?: number | null;
  startLine?: number | null;
  side?: string;
  diffHunk?: string;
}

/** When a comment was made, as GitHub writes it: one second per id, so that ids and times agree. */
function createdAt(id: number): string {
  return new Date(Date.UTC(2026, 0, 1) + id * 1000).toISOString().replace('.000Z', 'Z');
}

export class FakeGitHub {
  readonly calls: RecordedCall[] = [];
  readonly pulls = new Map<number, FakePull>();
  /** Collaborator permission per login (absent: 404, as GitHub answers for non-collaborators). */
  readonly permissions = new Map<string, { permission: string; role_name: string }>();
  /** `permissions.push` of the token holder per repository full name (absent: the repository is not found). */
  readonly pushAccess = new Map<string, boolean>();
  readonly comments = new Map<number, FakeComment>();
  readonly reactions: Array<{ commentId: number; content: string }> = [];
  /** Labels per issue number (plain issues; pull requests keep theirs in `pulls`). */
  readonly issueLabels = new Map<number, string[]>();
  /** Comments on lines of the diff, per id (replies made through the API land here too). */
  readonly reviewComments = new Map<number, FakeReviewComment>();
  readonly reviewReactions: Array<{ commentId: number; content: string }> = [];
  /** Answered first, in order, each once, by the first request that matches. */
  readonly faults: Fault[] = [];
  defaultBranch = 'main';
  /** A bare repository standing for the base repository's git side (see the header). */
  origin?: string;
  private nextId = 9_000_000;
  private nextPull = 100;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly repository: string,
    private readonly token: string,
  ) {}

  static async start(repository: string, token: string, root = '/api/v3'): Promise<FakeGitHub> {
    const holder: { fake?: FakeGitHub } = {};
    const server = http.createServer((req, res) => void holder.fake!.handle(req, res, root));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.fake = new FakeGitHub(server, `http://127.0.0.1:${port}${root}`, repository, token);
    return holder.fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** `METHOD path` of every call, in order: the shape of a conversation with GitHub. */
  get log(): string[] {
    return this.calls.map((c) => `${c.method} ${c.path}`);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, root: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: url.pathname.startsWith(root) ? url.pathname.slice(root.length) : url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined,
      authorization: req.headers.authorization,
      status: 0,
    };
    this.calls.push(call);
    const fault = this.takeFault(call);
    if (fault?.drop) {
      call.status = -1;
      req.socket.destroy();
      return;
    }
    const [status, data, headers] = fault
      ? [fault.status ?? 500, fault.body ?? { message: 'fault' }]
      : !url.pathname.startsWith(root) || req.headers.authorization !== `token ${this.token}`
        ? [401, { message: 'Bad credentials' }]
        : this.route(call);
    call.status = status;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      ...headers,
      ...fault?.headers,
    });
    res.end(JSON.stringify(data));
  }

  private takeFault(call: RecordedCall): Fault | undefined {
    const i = this.faults.findIndex(
      (f) =>
        f.method === call.method &&
        (typeof f.path === 'string' ? f.path === call.path : f.path.test(call.path)),
    );
    return i < 0 ? undefined : this.faults.splice(i, 1)[0];
  }

  private route(call: RecordedCall): [number, unknown, Record<string, string>?] {
    const repo = `/repos/${this.repository}`;
    const { method, path } = call;
    let m: RegExpExecArray | null;
    if (method === 'GET' && (m = new RegExp(`^${repo}/pulls/(\\d+)$`).exec(path))) {
      const pull = this.pulls.get(Number(m[1]));
      return pull ? [200, this.pullJson(pull)] : [404, { message: 'Not Found' }];
    }
    if (method === 'GET' && path === `${repo}/pulls`) {
      const [owner] = this.repository.split('/');
      const found = [...this.pulls.values()].filter(
        (p) =>
          p.state === (call.query.state ?? 'open') &&
          p.headRepo === this.repository &&
          `${owner}:${p.headRef}` === call.query.head,
      );
      return [200, found.map((p) => this.pullJson(p))];
    }
    if (method === 'GET' && (m = new RegExp(`^${repo}/collaborators/([^/]+)/permission$`).exec(path))) {
      const level = this.permissions.get(decodeURIComponent(m[1]));
      return level
        ? [200, { ...level, user: { login: decodeURIComponent(m[1]) } }]
        : [404, { message: 'Not Found' }];
    }
    if (method === 'POST' && (m = new RegExp(`^${repo}/issues/(\\d+)/comments$`).exec(path))) {
      const id = this.nextId++;
      const body = String(call.body?.body ?? '');
      this.comments.set(id, { id, issue: Number(m[1]), body, history: [body] });
      return [201, { id, body, user: { login: 'github-actions[bot]', type: 'Bot' } }];
    }
    if (method === 'GET' && (m = new RegExp(`^${repo}/issues/(\\d+)/comments$`).exec(path))) {
      const page = Number(call.query.page ?? 1);
      const size = Number(call.query.per_page ?? 30);
      const all = [...this.comments.values()]
        .filter((c) => c.issue === Number(m![1]))
        .sort((a, b) => a.id - b.id);
      // GitHub's `Link` header names the last page when there is more than one.
      const last = Math.ceil(all.length / size);
      const link =
        last > 1 ? { link: `<${this.url}${path}?per_page=${size}&page=${last}>; rel="last"` } : undefined;
      return [
        200,
        all.slice((page - 1) * size, page * size).map((c) => ({
          id: c.id,
          body: c.body,
          created_at: createdAt(c.id),
          user: { login: c.author ?? 'github-actions[bot]', type: c.authorType ?? 'Bot' },
        })),
        link,
      ];
    }
    if (method === 'DELETE' && (m = new RegExp(`^${repo}/issues/(\\d+)/labels/([^/]+)$`).exec(path))) {
      const labels = this.issueLabels.get(Number(m[1])) ?? [];
      const name = decodeURIComponent(m[2]);
      if (!labels.includes(name)) return [404, { message: 'Label does not exist' }];
      this.issueLabels.set(
        Number(m[1]),
        labels.filter((l) => l !== name),
      );
      return [200, []];
    }
    if (method === 'PATCH' && (m = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(path))) {
      const comment = this.comments.get(Number(m[1]));
      if (!comment) return [404, { message: 'Not Found' }];
      comment.body = String(call.body?.body ?? '');
      comment.history.push(comment.body);
      return [200, { id: comment.id, body: comment.body }];
    }
    if (method === 'POST' && (m = new RegExp(`^${repo}/issues/comments/(\\d+)/reactions$`).exec(path))) {
      const content = String(call.body?.content ?? '');
      this.reactions.push({ commentId: Number(m[1]), content });
      return [201, { id: this.nextId++, content }];
    }
    const review = this.routeReview(call);
    if (review) return review;
    if (method === 'POST' && path === `${repo}/pulls`) return this.createPull(call.body ?? {});
    if (method === 'PATCH' && (m = new RegExp(`^${repo}/pulls/(\\d+)$`).exec(path))) {
      const pull = this.pulls.get(Number(m[1]));
      if (!pull) return [404, { message: 'Not Found' }];
      if (typeof call.body?.title === 'string') pull.title = call.body.title;
      if (typeof call.body?.body === 'string') pull.body = call.body.body;
      return [200, this.pullJson(pull)];
    }
    if (method === 'POST' && (m = new RegExp(`^${repo}/issues/(\\d+)/labels$`).exec(path))) {
      const pull = this.pulls.get(Number(m[1]));
      if (!pull) return [404, { message: 'Not Found' }];
      const added = (call.body?.labels as string[] | undefined) ?? [];
      pull.labels = [...new Set([...(pull.labels ?? []), ...added])];
      return [200, pull.labels.map((name) => ({ name }))];
    }
    if (method === 'GET' && path === repo)
      return [
        200,
        {
          full_name: this.repository,
          default_branch: this.defaultBranch,
          permissions: { admin: false, push: this.pushAccess.get(this.repository) ?? true, pull: true },
        },
      ];
    if (method === 'GET' && (m = /^\/repos\/([^/]+\/[^/]+)$/.exec(path))) {
      const push = this.pushAccess.get(m[1]);
      return push === undefined
        ? [404, { message: 'Not Found' }]
        : [200, { full_name: m[1], permissions: { admin: false, push, pull: true } }];
    }
    return [404, { message: `The fake GitHub does not serve ${method} ${path}` }];
  }

  /** Review comments (comments on lines of the diff): their lists, replies, edits and reactions. */
  private routeReview(call: RecordedCall): [number, unknown] | undefined {
    const repo = `/repos/${this.repository}`;
    const { method, path } = call;
    let m: RegExpExecArray | null;
    if (method === 'GET' && (m = new RegExp(`^${repo}/pulls/(\\d+)/reviews/(\\d+)/comments$`).exec(path))) {
      const page = Number(call.query.page ?? 1);
      const size = Number(call.query.per_page ?? 30);
      const [pull, review] = [Number(m[1]), Number(m[2])];
      const all = [...this.reviewComments.values()].filter((c) => c.issue === pull && c.reviewId === review);
      return [
        200,
        all.slice((page - 1) * size, page * size).map((c) => ({
          id: c.id,
          pull_request_review_id: review,
          body: c.body,
          user: { login: c.author },
          path: c.path ?? 'README.md',
          diff_hunk: c.diffHunk ?? '@@ -1 +1 @@',
          line: c.line === undefined ? 1 : c.line,
          start_line: c.startLine ?? null,
          side: c.side ?? 'RIGHT',
        })),
      ];
    }
    if (method === 'GET' && (m = new RegExp(`^${repo}/pulls/(\\d+)/comments$`).exec(path))) {
      const page = Number(call.query.page ?? 1);
      const size = Number(call.query.per_page ?? 30);
      const all = [...this.reviewComments.values()]
        .filter((c) => c.issue === Number(m![1]))
        .sort((a, b) => a.id - b.id);
      if (call.query.sort === 'created' && call.query.direction === 'desc') all.reverse();
      return [
        200,
        all.slice((page - 1) * size, page * size).map((c) => ({
          id: c.id,
          body: c.body,
          created_at: createdAt(c.id),
          user: { login: c.author, type: c.authorType ?? (c.author.endsWith('[bot]') ? 'Bot' : 'User') },
          in_reply_to_id: c.inReplyTo,
        })),
      ];
    }
    if (method === 'POST' && (m = new RegExp(`^${repo}/pulls/(\\d+)/comments/(\\d+)/replies$`).exec(path))) {
      const parent = this.reviewComments.get(Number(m[2]));
      if (!parent || parent.issue !== Number(m[1])) return [404, { message: 'Not Found' }];
      // GitHub answers no reply to a reply.
      if (parent.inReplyTo) return [422, { message: 'Validation Failed: in_reply_to_id is a reply' }];
      const id = this.nextId++;
      const body = String(call.body?.body ?? '');
      const reply = {
        id,
        issue: parent.issue,
        body,
        history: [body],
        author: 'github-actions[bot]',
        inReplyTo: parent.id,
      };
      this.reviewComments.set(id, reply);
      return [201, { id, body, in_reply_to_id: parent.id }];
    }
    if (method === 'PATCH' && (m = new RegExp(`^${repo}/pulls/comments/(\\d+)$`).exec(path))) {
      const comment = this.reviewComments.get(Number(m[1]));
      if (!comment) return [404, { message: 'Not Found' }];
      comment.body = String(call.body?.body ?? '');
      comment.history.push(comment.body);
      return [200, { id: comment.id, body: comment.body }];
    }
    if (method === 'POST' && (m = new RegExp(`^${repo}/pulls/comments/(\\d+)/reactions$`).exec(path))) {
      const content = String(call.body?.content ?? '');
      this.reviewReactions.push({ commentId: Number(m[1]), content });
      return [201, { id: this.nextId++, content }];
    }
    return undefined;
  }

  private createPull(body: Record<string, unknown>): [number, unknown] {
    const head = String(body.head ?? '');
    const base = String(body.base ?? '');
    const invalid = (field: string) => [
      422,
      { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field, code: 'invalid' }] },
    ];
    const headSha = this.origin ? this.branchSha(head) : 'f'.repeat(40);
    if (!headSha) return invalid('head') as [number, unknown];
    if (this.origin && !this.branchSha(base)) return invalid('base') as [number, unknown];
    if ([...this.pulls.values()].some((p) => p.state === 'open' && p.headRef === head))
      return [422, { message: `Validation Failed: A pull request already exists for ${head}.` }];
    const pull: FakePull = {
      number: this.nextPull++,
      state: 'open',
      headRef: head,
      headSha,
      headRepo: this.repository,
      base,
      title: String(body.title ?? ''),
      body: String(body.body ?? ''),
      draft: body.draft === true,
    };
    this.pulls.set(pull.number, pull);
    return [201, this.pullJson(pull)];
  }

  private branchSha(branch: string): string | undefined {
    const out = spawnSync(
      'git',
      [
        '-c',
        'safe.directory=*',
        '--git-dir',
        this.origin!,
        'rev-parse',
        '--verify',
        '--quiet',
        `refs/heads/${branch}`,
      ],
      { encoding: 'utf8' },
    );
    return out.status === 0 ? out.stdout.trim() : undefined;
  }

  private pullJson(p: FakePull): unknown {
    return {
      number: p.number,
      state: p.state,
      title: p.title ?? '',
      body: p.body ?? null,
      draft: p.draft ?? false,
      labels: (p.labels ?? []).map((name) => ({ name })),
      html_url: `https://github.com/${this.repository}/pull/${p.number}`,
      maintainer_can_modify: p.maintainerCanModify ?? false,
      head: {
        ref: p.headRef,
        sha: p.headSha,
        repo: p.headRepo ? { full_name: p.headRepo, clone_url: p.headCloneUrl ?? '' } : null,
      },
      base: { ref: p.base ?? 'main', repo: { full_name: this.repository } },
    };
  }
}
