// A small stand-in for the GitHub REST API on 127.0.0.1, serving exactly the endpoints the action calls
// and recording every request, so that tests assert what was asked of GitHub. It answers under a GitHub
// Enterprise Server style root (`/api/v3`), which is also how GITHUB_API_URL reaches @actions/github.
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
  private nextId = 9_000_000;

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
    const [status, data] =
      !url.pathname.startsWith(root) || req.headers.authorization !== `token ${this.token}`
        ? [401, { message: 'Bad credentials' }]
        : this.route(call);
    call.status = status;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(data));
  }

  private route(call: RecordedCall): [number, unknown] {
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
      return [201, { id, body }];
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
    if (method === 'GET' && (m = /^\/repos\/([^/]+\/[^/]+)$/.exec(path))) {
      const push = this.pushAccess.get(m[1]);
      return push === undefined
        ? [404, { message: 'Not Found' }]
        : [200, { full_name: m[1], permissions: { admin: false, push, pull: true } }];
    }
    return [404, { message: `The fake GitHub does not serve ${method} ${path}` }];
  }

  private pullJson(p: FakePull): unknown {
    return {
      number: p.number,
      state: p.state,
      html_url: `https://github.com/${this.repository}/pull/${p.number}`,
      maintainer_can_modify: p.maintainerCanModify ?? false,
      head: {
        ref: p.headRef,
        sha: p.headSha,
        repo: p.headRepo ? { full_name: p.headRepo, clone_url: p.headCloneUrl ?? '' } : null,
      },
      base: { ref: 'main', repo: { full_name: this.repository } },
    };
  }
}
