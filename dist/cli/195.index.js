export const id = 195;
export const ids = [195];
export const modules = {

/***/ 1195:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  createRunCaOnDemand: () => (/* binding */ createRunCaOnDemand),
  proxyEnv: () => (/* binding */ proxyEnv),
  sidecarContainer: () => (/* binding */ sidecarContainer),
  startNetwork: () => (/* binding */ startNetwork),
  trustEnv: () => (/* binding */ trustEnv)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/engine/container-args.ts
var container_args = __webpack_require__(5011);
// EXTERNAL MODULE: ./src/engine/host-image.ts
var host_image = __webpack_require__(3858);
// EXTERNAL MODULE: ./src/engine/labels.ts
var labels = __webpack_require__(9667);
;// CONCATENATED MODULE: ./src/network/relay.ts
/**
 * Reads of 64 KiB while a connection trickles; 256 KiB once a read fills that (a bulk transfer, where
 * fewer and larger reads and writes save CPU), for at most RELAY_LARGE_COUNT connections of a process at
 * a time (16 MiB), each keeping it until it closes.
 */
const RELAY_SMALL_BYTES = 64 * 1024;
const RELAY_LARGE_BYTES = 256 * 1024;
const RELAY_LARGE_COUNT = 64;
/**
 * The `onread` option of a socket whose bytes go to `sink()`. `self()` is that socket (paused and resumed
 * here). Written without imports or outer names: the forwarder's script carries this function's source
 * text (forwarder.ts), so that both ends of the path pump bytes the same way.
 */
function relayReads(sink, self, sizes, budget) {
    const small = Buffer.allocUnsafe(sizes.small);
    let buffer = small;
    let full = false;
    const resume = (error) => {
        if (!error)
            self().resume();
    };
    const giveBack = () => {
        buffer = small;
        budget.large++;
    };
    return {
        // Asked for before every read (after the first, with the socket connected).
        buffer: () => {
            if (full && buffer === small && budget.large > 0) {
                budget.large--;
                buffer = Buffer.allocUnsafe(sizes.large);
                self().once('close', giveBack);
            }
            return buffer;
        },
        callback: (length, read) => {
            full = length === read.length;
            const to = sink();
            to.write(read.subarray(0, length), resume);
            // All written at once: the kernel has the bytes and the buffer is free for the next read.
            // Otherwise the write still reads from it: reading stops until the write is done (`resume`).
            return to.writableLength === 0;
        },
    };
}
/**
 * One connection through the relay: `near`'s bytes piped to `far`; `far` reads with `relayReads` into
 * `near`. An error ends both; one side's close ends the other gracefully (what was written still goes
 * out), and resumes it so that it reads to its end and closes too. Written without imports or outer
 * names, like `relayReads`.
 */
function joinSockets(near, far) {
    const fail = () => {
        near.destroy();
        far.destroy();
    };
    near.on('error', fail);
    far.on('error', fail);
    far.on('end', () => near.end());
    near.on('close', () => {
        far.resume();
        far.end();
    });
    far.on('close', () => {
        near.resume();
        near.end();
    });
    near.pipe(far);
    far.resume();
}

;// CONCATENATED MODULE: ./src/network/forwarder.ts



/** The port the command's proxy variables name, on the loopback of the namespace it shares. */
const PROXY_PORT = 3128;
/**
 * How often the forwarder asks whether the proxy still listens. The proxy lives in the action's process,
 * so a refused connection to its socket (or the socket gone) proves the action gone, whatever ended it,
 * including a SIGKILL that no handler sees. This needs nothing but the socket the sidecar already mounts:
 * no engine access, no process ids (which another PID namespace, a job container or rootless Podman's
 * user namespace would make meaningless), nothing read from the command. A refusal is final; any other
 * failure (a full backlog under load) is asked again.
 */
const PROXY_PROBE_MS = 2_000;
const FORWARDER_DIR = '/forwarder';
const FORWARDER_NODE = `${FORWARDER_DIR}/node`;
const FORWARDER_RUN = `${FORWARDER_DIR}/run`;
// The relay's source text goes into the script: the sidecar runs it on the runner's Node, with no module
// of the action's bundle to import.
const FORWARDER_SCRIPT = `// worktree-sandbox network forwarder: 127.0.0.1:PORT <-> the proxy's Unix socket, bytes only.
import * as net from 'node:net';
const relayReads = ${relayReads.toString()};
const joinSockets = ${joinSockets.toString()};
const [port, socketPath] = process.argv.slice(2);
const sizes = { small: ${RELAY_SMALL_BYTES}, large: ${RELAY_LARGE_BYTES} };
const budget = { large: ${RELAY_LARGE_COUNT} };
const server = net.createServer((client) => {
  // Towards the command (downloads, the bulk): read into a buffer of the relay's own, written on as is.
  const upstream = net.connect({
    path: socketPath,
    onread: relayReads(() => client, () => upstream, sizes, budget),
  });
  joinSockets(client, upstream);
});
server.maxConnections = 2048;
server.on('error', (error) => { process.stderr.write(String(error) + '\\n'); process.exit(1); });
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\\n'));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
// Once nothing listens on the proxy's socket, the action's process is gone (killed, or its runner died):
// this sidecar can serve no one again, so it ends (and the engine removes it: --rm).
const probe = () => {
  const socket = net.connect(socketPath);
  socket.once('connect', () => { socket.destroy(); setTimeout(probe, ${PROXY_PROBE_MS}); });
  socket.once('error', (error) => {
    if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') process.exit(0);
    setTimeout(probe, ${PROXY_PROBE_MS});
  });
};
setTimeout(probe, ${PROXY_PROBE_MS});
`;
/**
 * The forwarder's image, `localhost/worktree-sandbox-forwarder:<digest of its layer>`: the libraries
 * (and loader) the runner's Node loads, made once per runner by the one builder of images from the
 * runner's own files (engine/host-image.ts), found by its digest afterwards. Node itself is mounted.
 */
function ensureForwarderImage(engine, node) {
    return (0,host_image/* hostImage */.mW)(engine, {
        repository: 'localhost/worktree-sandbox-forwarder',
        label: (0,labels/* label */.Pf)('forwarder-image'),
        what: "the network forwarder's image",
        entries: async () => {
            const entries = new host_image/* LayerEntries */.cy();
            for (const lib of await (0,host_image/* sharedLibraries */.Xo)([node], "the network forwarder's image"))
                entries.file(lib, lib);
            entries.dir(FORWARDER_DIR);
            entries.dir('/tmp', 0o1777);
            return entries.list();
        },
    });
}

// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
// EXTERNAL MODULE: ./node_modules/proxy-chain/dist/index.js + 23 modules
var dist = __webpack_require__(9472);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
// EXTERNAL MODULE: external "node:https"
var external_node_https_ = __webpack_require__(4708);
;// CONCATENATED MODULE: ./src/network/model-apis.ts
// What a request to a model API is, for the budget: free (it spends no tokens), metered with a usage the
// meter can read (and, where the proxy must change the request to make it readable, how), or metered with
// a usage it cannot read. Known by the request's method and path, so that gateways (a prefix before the
// path) and test fakes on any host work; on a host the proxy meters (one with a credential), every other
// POST counts too, whatever its path, and its usage is unreadable. Pure. ADR 0009, docs/network.md.
const GEMINI = /\/(?:tuned)?models\/([^/:]+):(stream)?generatecontent$/;
const GEMINI_ACTION = /\/(?:tuned)?models\/[^/:]+:([a-z]+)$/;
/** POSTs that spend no tokens: counting tokens. */
const FREE = [/\/v1\/messages\/count_tokens$/, /:counttokens$/, /\/responses\/input_tokens$/];
/** Paths of model APIs whose usage the meter cannot read: batches, legacy and image endpoints, runs. */
const UNREADABLE = [
    [/\/v1\/messages\/batches$/, 'anthropic', 'a message batch'],
    [/\/v1\/complete$/, 'anthropic', 'the legacy Text Completions API'],
    [/\/(?:threads\/runs|threads\/[^/]+\/runs)$/, 'openai', 'an Assistants run'],
    [/\/images\/(?:generations|edits|variations)$/, 'openai', 'the Images API'],
    [/\/batches$/, 'openai', 'a batch'],
    [/\/audio\/(?:speech|transcriptions|translations)$/, 'openai', 'the Audio API'],
];
/** A request target's path as a server routes it: dot segments resolved, escapes decoded, `//` and case folded. */
function routedPath(target) {
    let url;
    try {
        // Origin form is joined by hand: `//x/...` would otherwise be read as a host.
        url = new URL(target.startsWith('/') ? `http://path.invalid${target}` : target);
    }
    catch {
        return undefined;
    }
    let pathname = url.pathname;
    try {
        pathname = decodeURIComponent(pathname);
    }
    catch {
        // an escape that does not decode: matched as written
    }
    const path = pathname
        .replace(/\/{2,}/g, '/')
        .replace(/\/+$/, '')
        .toLowerCase();
    return { path, search: url.search };
}
/** The family a request of an unknown path is for, by its headers, for the refusal's format. */
function apiByHeaders(headers) {
    for (let i = 0; i < headers.length; i += 2) {
        const name = headers[i].toLowerCase();
        if (name === 'anthropic-version' || name === 'x-api-key')
            return 'anthropic';
        if (name === 'x-goog-api-key')
            return 'gemini';
    }
    return 'openai';
}
/**
 * Gemini answers in protobuf with `alt=proto` (or `$alt`): the meter reads JSON and server-sent events,
 * so the target is sent with `alt=sse` for a stream and `alt=json` otherwise.
 */
function geminiTarget(target, stream) {
    const q = target.indexOf('?');
    if (q === -1)
        return target;
    const params = new URLSearchParams(target.slice(q + 1));
    const alts = [...params.getAll('alt'), ...params.getAll('$alt')].map((a) => a.toLowerCase());
    if (alts.every((a) => a === 'json' || a === 'sse'))
        return target;
    params.delete('alt');
    params.delete('$alt');
    params.set('alt', stream ? 'sse' : 'json');
    return `${target.slice(0, q)}?${params.toString()}`;
}
/**
 * What a request is for the budget, or undefined when it is not a model API's: every method but POST, and
 * counting tokens, are free; POST to Anthropic Messages (`/v1/messages`), OpenAI Chat Completions,
 * Completions, Responses and Embeddings, and Gemini's `generateContent` and `streamGenerateContent`
 * (`models/…` or `tunedModels/…`), under any prefix, are metered and read; the batch, legacy, image and run
 * endpoints, and with `everyPost` (a host the proxy meters) every other POST, are metered but unreadable.
 * `target` is the request target as sent (origin form or absolute); `headers` raw, for the family.
 */
function classifyRequest(method, target, headers = [], everyPost = false) {
    const routed = routedPath(target);
    const post = (method ?? '').toUpperCase() === 'POST';
    if (!post)
        return everyPost ? { kind: 'free' } : undefined;
    const origin = target.startsWith('/') ? target : routed ? new URL(target).pathname + routed.search : target;
    if (!routed)
        return everyPost
            ? {
                kind: 'unreadable',
                api: apiByHeaders(headers),
                path: origin,
                why: 'a request target the proxy cannot read',
            }
            : undefined;
    const p = routed.path;
    if (FREE.some((re) => re.test(p)))
        return { kind: 'free' };
    if (p.endsWith('/v1/messages'))
        return { kind: 'metered', api: 'anthropic', path: origin };
    if (/\/(?:chat\/completions|completions)$/.test(p))
        return { kind: 'metered', api: 'openai', path: origin, rewrite: 'include-usage' };
    if (/\/(?:responses|embeddings)$/.test(p))
        return { kind: 'metered', api: 'openai', path: origin };
    const gemini = GEMINI.exec(p);
    if (gemini)
        return {
            kind: 'metered',
            api: 'gemini',
            pathModel: gemini[1].slice(0, 200),
            path: geminiTarget(origin, gemini[2] !== undefined),
        };
    for (const [re, api, what] of UNREADABLE)
        if (re.test(p))
            return { kind: 'unreadable', api, path: origin, why: `${what} reports no usage the proxy can read` };
    const action = GEMINI_ACTION.exec(p);
    if (action)
        return {
            kind: 'unreadable',
            api: 'gemini',
            path: origin,
            why: `Gemini's :${action[1]} reports no usage the proxy can read`,
        };
    if (everyPost)
        return {
            kind: 'unreadable',
            api: apiByHeaders(headers),
            path: origin,
            why: 'a POST to a path whose usage the proxy cannot read',
        };
    return undefined;
}
/** Google's RetryInfo: a delay of a day, past any client's wait, so that Gemini CLI gives up at once. */
const GEMINI_RETRY_INFO = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' };
/**
 * The proxy's own answer to a metered request it refuses: status 429 with an error body in that API's own
 * format, so that its official SDK raises its usual rate-limit error. `x-should-retry: false` is the header
 * the Anthropic and OpenAI SDKs obey before their own retry rule for 429; Gemini CLI ignores it and obeys
 * Google's RetryInfo instead. The budget does not come back within the run: a retry would be refused again.
 */
function budgetAnswer(api, message) {
    const text = `worktree-sandbox: ${message}`;
    const body = api === 'anthropic'
        ? { type: 'error', error: { type: 'rate_limit_error', message: text } }
        : api === 'openai'
            ? { error: { message: text, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }
            : { error: { code: 429, message: text, status: 'RESOURCE_EXHAUSTED', details: [GEMINI_RETRY_INFO] } };
    return {
        statusCode: 429,
        headers: { 'content-type': 'application/json', 'x-should-retry': 'false', connection: 'close' },
        body: JSON.stringify(body),
    };
}

;// CONCATENATED MODULE: ./src/network/usage-scanner.ts
/**
 * The most of one JSON answer, or of one event line, held to be parsed. What the APIs send: an Embeddings
 * answer of a few MB, a Responses stream's final event (the whole response again) of hundreds of KB.
 */
const MAX_HELD_BYTES = 16 * 1024 * 1024;
const MAX_MODEL_CHARS = 200;
const NEWLINE = 0x0a;
/** Number fields kept, by their path in a usage object (the union of the three families' names). */
const FIELDS = [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
    'prompt_tokens',
    'completion_tokens',
    'prompt_tokens_details.cached_tokens',
    'input_tokens_details.cached_tokens',
    'promptTokenCount',
    'candidatesTokenCount',
    'cachedContentTokenCount',
    'thoughtsTokenCount',
    'toolUsePromptTokenCount',
];
/**
 * The keys looked for, by the word the search is for and the endings after it: `"usage"`,
 * `"usageMetadata"`, `"model"`, `"modelVersion"`. The search is for the bare word, whose first letter is
 * rare in JSON (a search that starts at a quote stops at every string), and the quotes are checked after.
 */
const USAGE = { word: Buffer.from('usage'), endings: [Buffer.from('"'), Buffer.from('Metadata"')] };
const MODEL = { word: Buffer.from('model'), endings: [Buffer.from('"'), Buffer.from('Version"')] };
const QUOTE = 0x22;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
class UsageScanner {
    api;
    format;
    onUsage;
    /** Last value seen of each field: streams repeat them, the later values being the totals. */
    fields = new Map();
    model;
    overBound = false;
    held = [];
    heldBytes = 0;
    /** SSE: the current line is over the bound and is being skipped to its end. */
    skipping = false;
    /** `onUsage`: called with the usage so far each time a line changes it (streams only). */
    constructor(api, format, onUsage) {
        this.api = api;
        this.format = format;
        this.onUsage = onUsage;
    }
    /** The next bytes (not kept: the caller may reuse its buffer). */
    write(chunk) {
        if (this.format === 'json')
            this.hold(chunk);
        else
            this.writeEvents(chunk);
    }
    end() {
        if (this.format === 'json' && !this.overBound && this.heldBytes > 0)
            this.absorbText(Buffer.concat(this.held).toString('utf8'));
        if (this.format === 'sse' && this.heldBytes > 0 && !this.skipping)
            this.readLines(Buffer.concat(this.held));
        this.held = [];
        this.heldBytes = 0;
        return { usage: this.usage(), model: this.model, overBound: this.overBound };
    }
    hold(part) {
        if (this.overBound && this.format === 'json')
            return;
        if (this.skipping || part.length === 0)
            return;
        if (this.heldBytes + part.length > MAX_HELD_BYTES) {
            this.overBound = true;
            this.skipping = this.format === 'sse';
            this.held = [];
            this.heldBytes = 0;
            return;
        }
        // A copy: the caller may reuse its buffer.
        this.held.push(Buffer.from(part));
        this.heldBytes += part.length;
    }
    /** Complete lines are read where they lie in the chunk; only a line's unfinished end is held. */
    writeEvents(chunk) {
        let from = 0;
        if (this.heldBytes > 0 || this.skipping) {
            const nl = chunk.indexOf(NEWLINE);
            if (nl === -1) {
                this.hold(chunk);
                return;
            }
            this.hold(chunk.subarray(0, nl));
            if (!this.skipping)
                this.readLines(Buffer.concat(this.held));
            this.held = [];
            this.heldBytes = 0;
            this.skipping = false;
            from = nl + 1;
        }
        const last = chunk.lastIndexOf(NEWLINE);
        if (last >= from) {
            this.readLines(chunk.subarray(from, last));
            from = last + 1;
        }
        if (from < chunk.length)
            this.hold(chunk.subarray(from));
    }
    /** Lines (newline-separated) of which only those holding a usage object or, once, a model are parsed. */
    readLines(region) {
        for (const key of this.model === undefined ? [USAGE, MODEL] : [USAGE]) {
            let at = region.indexOf(key.word);
            while (at !== -1 && !(key === MODEL && this.model !== undefined)) {
                const after = keyEnd(region, at, key);
                if (after === -1 || !opensValue(region, after, key === MODEL ? QUOTE : 0x7b)) {
                    at = region.indexOf(key.word, at + key.word.length);
                    continue;
                }
                const lineEnd = region.indexOf(NEWLINE, at);
                const lineStart = region.lastIndexOf(NEWLINE, at) + 1;
                this.readLine(region.subarray(lineStart, lineEnd === -1 ? region.length : lineEnd));
                at = lineEnd === -1 ? -1 : region.indexOf(key.word, lineEnd);
            }
        }
    }
    readLine(line) {
        let text = line.toString('utf8');
        if (text.endsWith('\r'))
            text = text.slice(0, -1);
        if (!text.startsWith('data:'))
            return;
        this.absorbText(text.slice(text.startsWith('data: ') ? 6 : 5));
    }
    absorbText(text) {
        let parsed;
        try {
            parsed = JSON.parse(text);
        }
        catch {
            return;
        }
        // Gemini's streamGenerateContent without `alt=sse` answers a JSON array of the streamed objects.
        for (const item of Array.isArray(parsed) ? parsed : [parsed])
            if (isObject(item))
                this.absorb(item);
    }
    absorb(event) {
        let changed = false;
        for (const at of [event, event.message, event.response]) {
            if (!isObject(at))
                continue;
            for (const usage of [at.usage, at.usageMetadata])
                if (isObject(usage) && this.merge(usage))
                    changed = true;
            const model = typeof at.model === 'string' ? at.model : at.modelVersion;
            if (this.model === undefined && typeof model === 'string' && model)
                this.model = model.slice(0, MAX_MODEL_CHARS);
        }
        if (changed && this.onUsage) {
            const usage = this.usage();
            if (usage)
                this.onUsage(usage);
        }
    }
    /** Whether a field changed. */
    merge(usage) {
        let changed = false;
        for (const field of FIELDS) {
            const [outer, inner] = field.split('.');
            const holder = inner === undefined ? usage : usage[outer];
            const value = isObject(holder) ? holder[inner ?? outer] : undefined;
            if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
                const was = this.fields.get(field);
                this.fields.set(field, Math.floor(value));
                changed ||= was !== Math.floor(value);
            }
        }
        return changed;
    }
    usage() {
        const f = (name) => this.fields.get(name) ?? 0;
        const has = (...names) => names.some((n) => this.fields.has(n));
        if (this.api === 'anthropic' && has('input_tokens', 'output_tokens')) {
            const cacheRead = f('cache_read_input_tokens');
            const cacheWrite = f('cache_creation_input_tokens');
            // Anthropic counts cached input apart from input_tokens; the others count it within.
            return {
                input: f('input_tokens') + cacheRead + cacheWrite,
                output: f('output_tokens'),
                cacheRead,
                cacheWrite,
            };
        }
        if (this.api === 'openai' && has('prompt_tokens'))
            return {
                input: f('prompt_tokens'),
                output: f('completion_tokens'),
                cacheRead: f('prompt_tokens_details.cached_tokens'),
                cacheWrite: 0,
            };
        if (this.api === 'openai' && has('input_tokens', 'output_tokens'))
            return {
                input: f('input_tokens'),
                output: f('output_tokens'),
                cacheRead: f('input_tokens_details.cached_tokens'),
                cacheWrite: 0,
            };
        if (this.api === 'gemini' && has('promptTokenCount', 'candidatesTokenCount'))
            return {
                input: f('promptTokenCount') + f('toolUsePromptTokenCount'),
                output: f('candidatesTokenCount') + f('thoughtsTokenCount'),
                cacheRead: f('cachedContentTokenCount'),
                cacheWrite: 0,
            };
        return undefined;
    }
}
/** Where a key found by its word ends (after its closing quote), or -1 when the word is not such a key. */
function keyEnd(region, at, key) {
    if (at === 0 || region[at - 1] !== QUOTE)
        return -1;
    const from = at + key.word.length;
    for (const ending of key.endings)
        if (region.subarray(from, from + ending.length).equals(ending))
            return from + ending.length;
    return -1;
}
/**
 * After a key: `:` and the value's first byte, which must be `opens` (an object's brace, a string's
 * quote). The text `"usage":{` inside a JSON string is escaped (`\"usage\":{`), so this holds only for keys.
 */
function opensValue(region, after, opens) {
    let i = after;
    const blank = (b) => b === 0x20 || b === 0x09 || b === 0x0d;
    while (blank(region[i]))
        i++;
    if (region[i] !== 0x3a)
        return false;
    i++;
    while (blank(region[i]))
        i++;
    return region[i] === opens;
}

;// CONCATENATED MODULE: ./src/network/send-on.ts
// Sending one checked request on, rebuilt (Node's client: the target in origin form, the headers the
// caller built with request-rules.ts), and its answer back, as the bytes come: for requests inside a
// tunnel the proxy ends (interceptor.ts) and for plain-HTTP requests to a model API (proxy.ts). A metered
// request's answer passes through the usage scanner on the way, which reports its usage as it comes, and
// is asked for without compression so that the scanner can read it. ADR 0009.




/** The answer's format, when the scanner can read it: not encoded, JSON or server-sent events. */
function readable(response) {
    const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity')
        return undefined;
    const type = String(response.headers['content-type'] ?? '').toLowerCase();
    if (type.includes('text/event-stream'))
        return 'sse';
    if (type.includes('json'))
        return 'json';
    return undefined;
}
/** Headers without any of `names`, then `added`. */
function replaced(headers, names, added) {
    const out = [];
    for (let i = 0; i + 1 < headers.length; i += 2)
        if (!names.includes(headers[i].toLowerCase()))
            out.push(headers[i], headers[i + 1]);
    return [...out, ...added];
}
/** Sends `req` on as `options` say and pipes the answer into `res`; settles when `res` is done. */
function sendOn(req, res, options) {
    const { meter } = options;
    const answer = {};
    let finished = false;
    const finish = () => {
        if (finished)
            return;
        finished = true;
        meter?.done(answer);
    };
    let scanner;
    let headers = options.headers;
    // Without Accept-Encoding but `identity`: the answer comes as the scanner reads it.
    if (meter)
        headers = replaced(headers, ['accept-encoding'], ['Accept-Encoding', 'identity']);
    if (options.body)
        headers = replaced(headers, ['content-length'], ['Content-Length', String(options.body.length)]);
    const client = options.protocol === 'https' ? external_node_https_ : external_node_http_;
    const upstream = client.request({
        host: options.host,
        port: options.port,
        method: req.method,
        path: options.path,
        headers,
        ...(options.protocol === 'https'
            ? { servername: options.host, ...(options.trustedCas ? { ca: options.trustedCas } : {}) }
            : {}),
    }, (response) => {
        answer.status = response.statusCode;
        const format = meter ? readable(response) : undefined;
        if (meter && format) {
            scanner = new UsageScanner(meter.api, format, meter.update);
            const reading = scanner;
            response.on('data', (chunk) => reading.write(chunk));
            response.once('end', () => {
                answer.scanned = reading.end();
                finish();
            });
        }
        else
            response.once('end', finish);
        res.writeHead(response.statusCode ?? 502, response.statusMessage, response.rawHeaders);
        response.pipe(res);
    });
    upstream.on('error', () => {
        if (!res.headersSent)
            res.writeHead(502, { 'content-type': 'text/plain' });
        res.end();
    });
    return new Promise((resolve) => {
        res.once('close', () => {
            upstream.destroy();
            // An answer cut short still counts what was read of it.
            if (scanner && !answer.scanned)
                answer.scanned = scanner.end();
            finish();
            resolve();
        });
        if (options.body)
            upstream.end(options.body);
        else {
            for (const part of options.head ?? [])
                upstream.write(part);
            req.pipe(upstream);
        }
    });
}
/**
 * For plain requests to a model API, which proxy-chain's `forward` would pipe past any hook: a function for
 * its `customResponseFunction` that hands the request and its response to `serve`. proxy-chain hands that
 * function nothing but the request, so each request's response is kept as it arrives; proxy-chain ends the
 * response after the function settles, by which time it is done.
 */
function plainResponses(server) {
    const responses = new WeakMap();
    server.prependListener('request', (req, res) => responses.set(req, res));
    return async (request, serve) => {
        const res = responses.get(request);
        if (!res)
            throw new dist/* RequestError */.GI('worktree-sandbox network: the request has no response', 500);
        await serve(res);
        return { statusCode: res.statusCode };
    };
}

;// CONCATENATED MODULE: ./src/network/metered-request.ts


/** The most of a request body held to add `include_usage`; past it the body is sent on as it is. */
const MAX_REWRITE_BYTES = 32 * 1024 * 1024;
/** The request's body, whole, or the part read when it is past the bound (the rest still to come). */
function readBody(req) {
    return new Promise((resolve) => {
        const parts = [];
        let size = 0;
        const onData = (chunk) => {
            parts.push(chunk);
            size += chunk.length;
            if (size > MAX_REWRITE_BYTES) {
                req.off('data', onData);
                req.off('end', onEnd);
                req.pause();
                resolve({ head: parts, why: `a request body over ${MAX_REWRITE_BYTES / 1024 / 1024} MiB` });
            }
        };
        const onEnd = () => resolve({ body: Buffer.concat(parts) });
        req.on('data', onData);
        req.once('end', onEnd);
        req.once('error', () => resolve({ head: parts, why: 'a request body that did not arrive whole' }));
    });
}
/**
 * An OpenAI (chat) completions body with `stream_options.include_usage` set when it streams, or why it
 * cannot be read (the answer would then carry no usage).
 */
function withIncludeUsage(body) {
    let parsed;
    try {
        parsed = JSON.parse(body.toString('utf8'));
    }
    catch {
        return { why: 'a request body that is not JSON' };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return { why: 'a request body that is not a JSON object' };
    const request = parsed;
    if (request.stream !== true)
        return { body };
    const options = request.stream_options;
    if (typeof options === 'object' && options !== null && !Array.isArray(options)) {
        if (options.include_usage === true)
            return { body };
        request.stream_options = { ...options, include_usage: true };
    }
    else
        request.stream_options = { include_usage: true };
    return { body: Buffer.from(JSON.stringify(request)) };
}
/** Whether the request's body is encoded (gzip...): then it cannot be read, nor changed. */
function encodedBody(headers) {
    for (let i = 0; i + 1 < headers.length; i += 2)
        if (headers[i].toLowerCase() === 'content-encoding' && headers[i + 1].trim().toLowerCase() !== 'identity')
            return true;
    return false;
}
/** Decides `req` (classified as `call`) against the budget, and refuses it or sends it on; settles when done. */
async function serveModelRequest(req, res, call, target) {
    if (call.kind === 'free')
        return sendOn(req, res, { ...target.send, path: target.path });
    const { meter, host, port } = target;
    let why = call.kind === 'unreadable' ? call.why : undefined;
    let body;
    let head;
    if (call.kind === 'metered' && call.rewrite === 'include-usage') {
        if (encodedBody(target.send.headers))
            why = 'an encoded request body, which the proxy cannot read';
        else {
            const read = await readBody(req);
            if ('body' in read) {
                const rewritten = withIncludeUsage(read.body);
                if ('body' in rewritten)
                    body = rewritten.body;
                else {
                    body = read.body;
                    why = rewritten.why;
                }
            }
            else {
                head = read.head;
                why = read.why;
            }
        }
    }
    const refused = meter.admit(why);
    if (refused) {
        req.resume();
        const answer = budgetAnswer(call.api, refused);
        res.writeHead(answer.statusCode, answer.headers);
        res.end(answer.body);
        return;
    }
    const open = meter.open(host, port, call.api, call.kind === 'metered' ? call.pathModel : undefined);
    return sendOn(req, res, {
        ...target.send,
        path: call.path,
        body,
        head,
        meter: { api: call.api, update: open.update, done: open.done },
    });
}

// EXTERNAL MODULE: ./src/network/policy.ts + 1 modules
var network_policy = __webpack_require__(3977);
;// CONCATENATED MODULE: ./src/network/request-rules.ts
// What the proxy accepts of one HTTP request from the command, and how a request it ends TLS for is sent
// on. The command writes the bytes, so each rule closes a way to make the server upstream parse something
// other than what the proxy checked (a second request, another host) or hand a credential back. Node's
// own parser, in its default strict mode, already refuses Content-Length beside Transfer-Encoding, a
// Transfer-Encoding that does not end in chunked, repeated Content-Length and obsolete line folds; these
// rules are for what it lets through. Pure: no sockets. ADR 0009.

/** Methods that echo the request back (the credential with it), refused on every path. */
const ECHO_METHODS = new Set(['TRACE', 'TRACK']);
/**
 * Methods whose body Node's client sends as is, without chunked framing, when no Content-Length is given:
 * a Transfer-Encoding the proxy strips (it is hop-by-hop) would leave the chunks to be read upstream as a
 * second request.
 */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);
/** Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never sent upstream. */
const HOP_BY_HOP = new Set([
    'connection',
    'keep-alive',
    'proxy-authenticate',
    'proxy-authorization',
    'proxy-connection',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
]);
function valuesOf(raw, name) {
    const out = [];
    for (let i = 0; i + 1 < raw.length; i += 2)
        if (raw[i].toLowerCase() === name)
            out.push(raw[i + 1]);
    return out;
}
/** Host and port of a Host header (`name`, `name:port`, `[v6]:port`); the host normalized. */
function splitHostHeader(value) {
    const v6 = /^\[([^\]]*)\](?::(\d+))?$/.exec(value);
    if (v6)
        return { host: (0,network_policy/* normalizeHost */.cS)(v6[1]), port: v6[2] ? Number(v6[2]) : undefined };
    const m = /^(.*?)(?::(\d*))?$/.exec(value.trim());
    return { host: (0,network_policy/* normalizeHost */.cS)(m[1]), port: m[2] ? Number(m[2]) : undefined };
}
/**
 * Rules for every request the proxy parses, plain or inside a tunnel it ends: the echo methods, a
 * Transfer-Encoding on a method that would lose it, and more than one Host.
 */
function framingRefusal(req) {
    const method = (req.method ?? '').toUpperCase();
    if (ECHO_METHODS.has(method))
        return { status: 405, reason: `${method} is refused: it would echo the request, headers included` };
    const encodings = valuesOf(req.rawHeaders, 'transfer-encoding');
    if (encodings.length > 0 && UNFRAMED_METHODS.has(method))
        return { status: 400, reason: `Transfer-Encoding on ${method} is ambiguous framing` };
    if (encodings.length > 0 && valuesOf(req.rawHeaders, 'content-length').length > 0)
        return { status: 400, reason: 'Content-Length with Transfer-Encoding is ambiguous framing' };
    if (valuesOf(req.rawHeaders, 'host').length > 1)
        return { status: 400, reason: 'more than one Host header' };
    return undefined;
}
/**
 * Inside a tunnel the proxy ends (a host with a credential): the request must name exactly that host and
 * port, once, over HTTP/1.1. Returns the origin-form path to send upstream, or the refusal.
 */
function tunnelTarget(req, host, port) {
    const framing = framingRefusal(req);
    if (framing)
        return { refusal: framing };
    if (req.httpVersion !== '1.1')
        return { refusal: { status: 400, reason: `HTTP/${req.httpVersion} is refused here: HTTP/1.1 only` } };
    const hosts = valuesOf(req.rawHeaders, 'host');
    if (hosts.length !== 1)
        return { refusal: { status: 400, reason: 'a request without a Host header' } };
    const named = splitHostHeader(hosts[0]);
    const elsewhere = { status: 421, reason: `a request for another host inside a tunnel to ${host}` };
    if (named.host !== host || (named.port !== undefined && named.port !== port))
        return { refusal: elsewhere };
    const url = req.url ?? '';
    if (url.startsWith('/') || (url === '*' && req.method === 'OPTIONS'))
        return { path: url };
    let target;
    try {
        target = new URL(url);
    }
    catch {
        return { refusal: { status: 400, reason: 'a request target that is not a path or a URL' } };
    }
    const targetPort = target.port ? Number(target.port) : target.protocol === 'http:' ? 80 : 443;
    if ((0,network_policy/* normalizeHost */.cS)(target.hostname) !== host || targetPort !== port)
        return { refusal: elsewhere };
    return { path: `${target.pathname}${target.search}` };
}
/**
 * The headers sent upstream from inside a tunnel: those Node parsed, less the hop-by-hop ones (and any the
 * Connection header names), the Host and every spelling of the credentials' names; then one Host for the
 * tunnel's host and the credentials.
 */
function upstreamHeaders(raw, host, port, credentials) {
    const dropped = new Set([...HOP_BY_HOP, 'host', ...credentials.map((c) => c.header.toLowerCase())]);
    for (const value of valuesOf(raw, 'connection'))
        for (const name of value.split(','))
            dropped.add(name.trim().toLowerCase());
    const out = ['Host', port === 443 ? host : `${host}:${port}`];
    for (let i = 0; i + 1 < raw.length; i += 2)
        if (!dropped.has(raw[i].toLowerCase()))
            out.push(raw[i], raw[i + 1]);
    for (const c of credentials)
        out.push(c.header, c.value);
    return out;
}

;// CONCATENATED MODULE: ./src/network/interceptor.ts
// The TLS end the proxy makes for a host with a credential: a certificate of the run's CA (ca.ts), each
// request inside checked again (request-rules.ts), then rebuilt, not passed on: origin form, one Host that
// is the tunnel's, only headers Node parsed, the credential set. The server upstream therefore parses the
// one request the proxy checked, for the one host the tunnel is for, over TLS. A request to a model API is
// metered, and answered here (429) once the run's budget is spent. A host whose credential line named
// `http://` gets the same end without TLS: Node's fetch tunnels (CONNECT) even plain-HTTP requests. ADR 0009.






function answer(res, refusal) {
    res.writeHead(refusal.status, { 'content-type': 'text/plain', connection: 'close' });
    res.end(`worktree-sandbox network: ${refusal.reason}\n`);
}
async function makeInterceptor(options) {
    const { host, port, scheme } = options;
    let server;
    if (scheme === 'https') {
        if (!options.ca)
            throw new Error('credentials over HTTPS need the run CA');
        const { key, cert } = await options.ca.leaf(host);
        server = external_node_https_.createServer({ key, cert, minVersion: 'TLSv1.2' });
        server.on('tlsClientError', (_error, socket) => socket.destroy());
    }
    else
        server = external_node_http_.createServer();
    server.on('request', (req, res) => {
        const target = tunnelTarget(req, host, port);
        if ('refusal' in target) {
            options.onRefused(host, target.refusal);
            req.resume();
            answer(res, target.refusal);
            return;
        }
        const send = {
            protocol: scheme,
            host,
            port,
            headers: upstreamHeaders(req.rawHeaders, host, port, options.credentials),
            trustedCas: options.trustedCas,
        };
        // On a host with a credential every POST is a model request: counted, and refused if unreadable.
        const call = classifyRequest(req.method, target.path, req.rawHeaders, options.credentials.length > 0);
        options.onAllowed();
        if (call)
            void serveModelRequest(req, res, call, { meter: options.meter, host, port, path: target.path, send });
        else
            void sendOn(req, res, { ...send, path: target.path });
    });
    return server;
}

;// CONCATENATED MODULE: ./src/network/model-meter.ts
const MAX_ROWS = 200;
class ModelMeter {
    limits;
    rows = new Map();
    totals = { requests: 0, inputTokens: 0, outputTokens: 0, unmetered: 0 };
    admitted = 0;
    refused = 0;
    refusedUnreadable = 0;
    uncounted = 0;
    /** Tokens reported so far by answers still coming. */
    streaming = 0;
    stopped;
    constructor(limits = { maxRequests: 0, maxTokens: 0 }) {
        this.limits = limits;
    }
    /** The answers ended and those still streaming. */
    get tokens() {
        return this.totals.inputTokens + this.totals.outputTokens + this.streaming;
    }
    /**
     * Before a metered request is sent: undefined (counted, send it) or why the budget refuses it.
     * `unreadable` says why its usage could not be read, when it cannot.
     */
    admit(unreadable) {
        const { maxRequests, maxTokens } = this.limits;
        let why;
        if (maxRequests > 0 && this.admitted >= maxRequests) {
            this.stopped ??= { by: 'max-model-requests', requests: this.admitted, tokens: this.tokens };
            why = `the run's model budget is spent: ${this.admitted} of max-model-requests ${maxRequests} requests made`;
        }
        else if (maxTokens > 0 && this.tokens >= maxTokens) {
            this.stopped ??= { by: 'max-model-tokens', requests: this.admitted, tokens: this.tokens };
            why = `the run's model budget is spent: ${this.tokens} tokens used of max-model-tokens ${maxTokens}`;
        }
        else if (maxTokens > 0 && this.totals.unmetered > 0) {
            this.stopped ??= { by: 'max-model-tokens', requests: this.admitted, tokens: this.tokens };
            why =
                `the run's token count is unknown: ${this.totals.unmetered} answer(s) gave no usage the proxy ` +
                    `could read, so max-model-tokens ${maxTokens} cannot be kept`;
        }
        else if (maxTokens > 0 && unreadable) {
            this.refusedUnreadable++;
            why = `refused under max-model-tokens ${maxTokens}: ${unreadable}`;
        }
        if (why === undefined)
            this.admitted++;
        else
            this.refused++;
        return why;
    }
    /** An admitted request's answer, counted as it reports its usage; `done` records it (once). */
    open(host, port, api, pathModel = '') {
        let counted = 0;
        let ended = false;
        return {
            update: (usage) => {
                if (ended)
                    return;
                const now = usage.input + usage.output;
                this.streaming += now - counted;
                counted = now;
            },
            done: (answer) => {
                if (ended)
                    return;
                ended = true;
                this.streaming -= counted;
                this.record(host, port, api, answer, pathModel);
            },
        };
    }
    /** After an admitted request's answer ended (or failed): its tokens, in its host and model's row. */
    record(host, port, api, answer, pathModel = '') {
        const usage = answer.scanned?.usage;
        const ok = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
        // A line past the bound may have held the totals: what was read of it is counted, and it is unreadable.
        const unmetered = ok && (!usage || answer.scanned?.overBound) ? 1 : 0;
        this.totals.requests++;
        this.totals.inputTokens += usage?.input ?? 0;
        this.totals.outputTokens += usage?.output ?? 0;
        this.totals.unmetered += unmetered;
        const model = answer.scanned?.model ?? pathModel;
        const key = `${host}\n${port}\n${api}\n${model}`;
        let row = this.rows.get(key);
        if (!row) {
            if (this.rows.size >= MAX_ROWS) {
                this.uncounted++;
                return;
            }
            row = {
                host,
                port,
                api,
                model,
                requests: 0,
                inputTokens: 0,
                outputTokens: 0,
                cacheReadTokens: 0,
                cacheWriteTokens: 0,
                unmetered: 0,
            };
            this.rows.set(key, row);
        }
        row.requests++;
        row.inputTokens += usage?.input ?? 0;
        row.outputTokens += usage?.output ?? 0;
        row.cacheReadTokens += usage?.cacheRead ?? 0;
        row.cacheWriteTokens += usage?.cacheWrite ?? 0;
        row.unmetered += unmetered;
    }
    report() {
        const rows = [...this.rows.values()].sort((a, b) => a.host.localeCompare(b.host) || a.port - b.port || a.model.localeCompare(b.model));
        return {
            rows,
            totals: { ...this.totals },
            limits: { ...this.limits },
            ...(this.stopped ? { stopped: { ...this.stopped } } : {}),
            refused: this.refused,
            uncounted: this.uncounted,
            refusedUnreadable: this.refusedUnreadable,
        };
    }
}

;// CONCATENATED MODULE: ./src/network/tally.ts
// What the proxy let through and refused, by host and port, within a bound of rows: the proxy's counts
// for the job summary and the outputs (network-summary.ts).
/** Distinct host:port rows kept. */
const tally_MAX_ROWS = 500;
class Tally {
    allowed = new Map();
    denied = new Map();
    uncounted = 0;
    row(map, host, port, make) {
        const key = `${host}\n${port}`;
        const found = map.get(key);
        if (found)
            return found;
        if (this.allowed.size + this.denied.size >= tally_MAX_ROWS) {
            this.uncounted++;
            return undefined;
        }
        const made = make();
        map.set(key, made);
        return made;
    }
    allow(host, port) {
        const row = this.row(this.allowed, host, port, () => ({
            host,
            port,
            requests: 0,
            bytesSent: 0,
            bytesReceived: 0,
        }));
        if (row)
            row.requests++;
        return row;
    }
    deny(host, port, reason) {
        const row = this.row(this.denied, host, port, () => ({ host, port, requests: 0, reason }));
        if (row)
            row.requests++;
    }
    report() {
        const order = (a, b) => a.host.localeCompare(b.host) || a.port - b.port;
        return {
            allowed: [...this.allowed.values()].sort(order),
            denied: [...this.denied.values()].sort(order),
            uncounted: this.uncounted,
        };
    }
}

;// CONCATENATED MODULE: ./src/network/proxy.ts
// The proxy in the action's own process, behind a Unix socket that only the forwarder (sidecar.ts) can
// reach: proxy-chain (a maintained forward proxy on Node's own HTTP parser) tunnels CONNECTs and forwards
// plain requests; this module decides each one (policy.ts), counts what went where, and, for hosts with a
// credential, ends TLS (interceptor.ts) to set the header on each request. Every request it parses passes
// the rules of request-rules.ts first. A credential goes over TLS only, unless its line named `http://`.
// Requests to model APIs that it sees in clear (in those tunnels, and plain HTTP) are metered against the
// run's budget (model-meter.ts); plain ones are then sent on by send-on.ts instead of proxy-chain's
// `forward`, so that their answers pass the usage scanner.
// Names resolve as the runner resolves them (getaddrinfo: its /etc/hosts, its resolver).












/** Bounds: connections open at once, one host name's length in a row. */
const MAX_CONNECTIONS = 2048;
const MAX_HOST_CHARS = 253;
/** Headers as [name, value, name, value...] without any spelling of `names`, then `credentials` added. */
function withCredentials(raw, credentials) {
    const replaced = new Set(credentials.map((c) => c.header.toLowerCase()));
    const out = [];
    for (let i = 0; i + 1 < raw.length; i += 2)
        if (!replaced.has(raw[i].toLowerCase()))
            out.push(raw[i], raw[i + 1]);
    for (const c of credentials)
        out.push(c.header, c.value);
    return out;
}
async function startProxy(options) {
    const { policy } = options;
    const tally = new Tally();
    const rowOf = new Map();
    /** The credentials for a host and port: each on the ports its line allows, by its scheme. */
    const credentialsFor = (host, port, scheme) => policy.credentials.filter((c) => c.host === host && c.ports.includes(port) && c.scheme === scheme);
    const interceptors = new Map();
    const meter = new ModelMeter(policy.modelLimits);
    const refuse = (host, port, reason, status = 403) => {
        tally.deny(host.slice(0, MAX_HOST_CHARS), port, reason);
        throw new dist/* RequestError */.GI(`worktree-sandbox network: ${host.slice(0, MAX_HOST_CHARS)}:${port} refused (${reason})`, status);
    };
    /**
     * A tunnel ended here, one server per host, port and scheme (interceptor.ts): for a host with a
     * credential, and (`clear`) for a tunnel whose bytes are plain HTTP, read as HTTP with no credential.
     */
    const interceptor = (host, port, scheme) => {
        const key = `${scheme}://${host}:${port}`;
        let made = interceptors.get(key);
        if (!made) {
            made = (async () => {
                return makeInterceptor({
                    host,
                    port,
                    scheme: scheme === 'clear' ? 'http' : scheme,
                    ca: scheme === 'https' ? await options.ca : undefined,
                    credentials: scheme === 'clear' ? [] : credentialsFor(host, port, scheme),
                    trustedCas: options.trustedCas,
                    meter,
                    onAllowed: () => tally.allow(host, port),
                    onRefused: (asked, refusal) => tally.deny(asked.slice(0, MAX_HOST_CHARS), port, refusal.reason),
                });
            })();
            interceptors.set(key, made);
        }
        return made;
    };
    /**
     * A CONNECT's far end, opened before proxy-chain answers 200 (a host that cannot be reached gets a 502)
     * and joined to the client's socket with the relay once it has: proxy-chain parses and answers the
     * CONNECT, the relay moves the tunnel's bytes (its own `direct` pipes them with a new buffer per read).
     */
    const sizes = { small: RELAY_SMALL_BYTES, large: RELAY_LARGE_BYTES };
    const budget = { large: RELAY_LARGE_COUNT };
    const tunnelEnds = new WeakMap();
    const openEnds = new Set();
    const openTunnelEnd = (client, host, port) => new Promise((resolve, reject) => {
        const far = external_node_net_.connect({
            host,
            port,
            onread: relayReads(() => client, () => far, sizes, budget),
        });
        far.pause(); // nothing reaches the client before proxy-chain's 200
        openEnds.add(far);
        const gone = () => far.destroy();
        client.once('close', gone);
        far.once('close', () => {
            openEnds.delete(far);
            client.off('close', gone);
        });
        // Until joined: an error before the connection ends it with a 502, one after it closes the tunnel.
        const early = (error) => {
            far.destroy();
            reject(new dist/* RequestError */.GI(`worktree-sandbox network: ${host}:${port} could not be reached (${error.code ?? 'error'})`, 502));
        };
        far.on('error', early);
        far.once('connect', () => {
            tunnelEnds.set(client, { far, gone, host, port });
            resolve();
        });
    });
    /**
     * A tunnel's first bytes decide what it is: a TLS handshake (its first byte, 0x16) is relayed as it is;
     * anything else is read as HTTP by an interceptor with no credential, so that a request the proxy could
     * read in clear (a plain-HTTP model API behind a CONNECT) is checked and metered, never tunneled raw.
     */
    const tunnels = external_node_net_.createServer((client) => {
        const end = tunnelEnds.get(client);
        tunnelEnds.delete(client);
        if (!end || end.far.destroyed) {
            client.destroy();
            return;
        }
        client.off('close', end.gone);
        end.far.removeAllListeners('error');
        const fail = () => {
            client.destroy();
            end.far.destroy();
        };
        client.on('error', fail);
        client.once('close', fail);
        client.once('data', (first) => {
            client.pause();
            client.unshift(first);
            client.off('error', fail);
            client.off('close', fail);
            if (first[0] === 0x16) {
                joinSockets(client, end.far);
                return;
            }
            end.far.destroy();
            interceptor(end.host, end.port, 'clear').then((server) => {
                // Its parser reads the socket's data events (proxy-chain's own took the socket's handle).
                server.emit('connection', client);
                client.resume();
            }, () => client.destroy());
        });
    });
    const server = new dist/* Server */.gq({
        port: 0,
        prepareRequestFunction: async ({ connectionId, request, hostname, port, isHttp }) => {
            const host = (0,network_policy/* normalizeHost */.cS)(hostname);
            if (isHttp) {
                // One request, one host, framed one way: what the server upstream parses is what is checked here.
                const framing = framingRefusal(request);
                if (framing)
                    refuse(host, port, framing.reason, framing.status);
                const asked = request.headers.host === undefined ? '' : splitHostHeader(request.headers.host).host;
                if (asked && asked !== host)
                    refuse(asked, port, `the Host header differs from the request's host ${host}`);
            }
            const decision = (0,network_policy/* decide */.LD)(policy, host, port);
            if (!decision.allowed)
                refuse(host, port, decision.reason);
            const overTls = credentialsFor(host, port, 'https');
            // A key goes over TLS only: in clear, anyone on the way could read it.
            if (isHttp && overTls.length > 0)
                refuse(host, port, `${host} has a credential, which is sent over TLS only: use https://`, 403);
            const row = tally.allow(host, port);
            if (row)
                rowOf.set(connectionId, row);
            if (!isHttp && overTls.length > 0)
                return { customConnectServer: (await interceptor(host, port, 'https')) };
            // A tunnel to a host whose line named http:// carries plain HTTP: ended here too, for the header.
            if (!isHttp && credentialsFor(host, port, 'http').length > 0)
                return { customConnectServer: (await interceptor(host, port, 'http')) };
            if (!isHttp) {
                await openTunnelEnd(request.socket, host, port);
                return { customConnectServer: tunnels };
            }
            // A credential whose line named http:// (an internal service): on plain HTTP, on its ports only.
            const inClear = credentialsFor(host, port, 'http');
            // A model API in clear: decided against the budget before anything is sent, or answered here.
            const call = classifyRequest(request.method, request.url ?? '', request.rawHeaders, inClear.length > 0);
            if (call) {
                const target = new URL(request.url ?? '/', `http://${host}`);
                const send = {
                    protocol: 'http',
                    host,
                    port,
                    headers: upstreamHeaders(request.rawHeaders, host, port, inClear),
                };
                const path = `${target.pathname}${target.search}`;
                return {
                    customResponseFunction: () => servePlain(request, (res) => serveModelRequest(request, res, call, { meter, host, port, path, send })),
                };
            }
            if (inClear.length > 0)
                request.rawHeaders.splice(0, request.rawHeaders.length, ...withCredentials(request.rawHeaders, inClear));
            return {};
        },
    });
    server.on('connectionClosed', ({ connectionId, stats }) => {
        const row = rowOf.get(connectionId);
        rowOf.delete(connectionId);
        if (!row || !stats)
            return;
        row.bytesSent += stats.srcRxBytes ?? 0;
        row.bytesReceived += stats.srcTxBytes ?? 0;
    });
    server.on('requestFailed', () => undefined);
    const servePlain = plainResponses(server.server);
    // proxy-chain serves TCP; its HTTP server is handed the Unix socket's connections instead. It drops a
    // socket without a peer address, which a Unix socket never has: it is given one that says what it is.
    const front = external_node_net_.createServer((socket) => {
        Object.defineProperty(socket, 'remoteAddress', { value: 'sandbox', configurable: true });
        socket.on('error', () => undefined);
        server.server.emit('connection', socket);
    });
    front.maxConnections = MAX_CONNECTIONS;
    await promises_.rm(options.socketPath, { force: true });
    await new Promise((resolve, reject) => {
        front.once('error', reject);
        front.listen(options.socketPath, () => {
            front.off('error', reject);
            resolve();
        });
    });
    await promises_.chmod(options.socketPath, 0o600);
    return {
        report: () => ({ ...tally.report(), models: meter.report() }),
        async close() {
            await new Promise((resolve) => {
                front.close(() => resolve());
                server.closeConnections();
                for (const far of openEnds)
                    far.destroy();
            });
            for (const made of interceptors.values())
                (await made.catch(() => undefined))?.close();
            await promises_.rm(options.socketPath, { force: true });
        },
    };
}

// EXTERNAL MODULE: ./src/network/leftovers.ts
var leftovers = __webpack_require__(1434);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
// EXTERNAL MODULE: ./src/engine/engine.ts + 2 modules
var engine_engine = __webpack_require__(1665);
// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __webpack_require__(729);
;// CONCATENATED MODULE: ./src/network/watchdog.ts
// The watchdog of a run with an allow-list: a small process beside the action that removes the command's
// container and its sidecar when the action's process ends without having stopped them (a SIGKILL, the
// runner dying, a crash). The forwarder ends on its own once the proxy is gone (forwarder.ts), but nothing
// inside the engine stops the command's container then: an engine neither ends a container whose
// network's owner went, nor one whose CLI was killed. Sharing the sidecar's PID namespace would (the
// kernel kills a namespace with its first process), but it shows the forwarder to the command and leaves
// the command's orphans unreaped; so the engine is told, from the host.
//
// It learns of the action's end from a pipe, not a process id: the kernel closes the action's end of it
// however the action ends, and a pid means nothing across the PID namespaces of a job container. It is
// started in a session of its own, so that a kill of the action's process group does not take it along.
// It reads nothing but that pipe, runs nothing but `<engine> rm --force` on the two names the action made,
// each under a time limit, and the action kills it once it has stopped both itself.



/** Time limit of one `rm` (an engine under load takes seconds); the rounds a killed CLI may need. */
const REMOVE_LIMIT_MS = 60_000;
const ROUNDS = 3;
const ROUND_PAUSE_MS = 5_000;
// Plain JavaScript for `node -e` (CommonJS): the runner's Node runs it, with no module of the bundle.
// Several rounds: the engine CLI of a killed action may still create the command's container after the
// first (its `run` was under way); the command's container goes first (Podman keeps a container that
// another one joins).
const WATCHDOG_SCRIPT = `// worktree-sandbox watchdog
const { execFileSync } = require('node:child_process');
const [engine, ...names] = process.argv.slice(1);
const sweep = () => {
  for (let round = 0; round < ${ROUNDS}; round++) {
    if (round > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ROUND_PAUSE_MS});
    for (const name of names) {
      try {
        execFileSync(engine, ['rm', '--force', '--', name], { stdio: 'ignore', timeout: ${REMOVE_LIMIT_MS}, killSignal: 'SIGKILL' });
      } catch {}
    }
  }
  process.exit(0);
};
process.stdin.on('data', () => undefined);
process.stdin.on('end', sweep);
process.stdin.on('error', sweep);
`;
/** Watches over `names` (in the order they are to go) until dismissed, or until the action is gone. */
function startWatchdog(engine, names) {
    let child;
    try {
        child = (0,external_node_child_process_.spawn)(process.execPath, ['-e', WATCHDOG_SCRIPT, engine.name, ...names], {
            detached: true,
            stdio: ['pipe', 'ignore', 'ignore'],
            env: (0,proc/* pickEnv */.Bh)(engine_engine/* ENGINE_ENV */.X),
            cwd: '/',
        });
        child.on('error', () => undefined);
        child.stdin?.on('error', () => undefined);
        // Neither the process nor its pipe keeps the action alive.
        child.unref();
        child.stdin?.unref?.();
    }
    catch {
        // Without a watchdog, the forwarder still ends with the proxy, and a later run or reap removes what
        // stopped (leftovers.ts).
    }
    return {
        dismiss: () => {
            if (child && child.exitCode === null && child.signalCode === null)
                child.kill('SIGKILL');
        },
    };
}

;// CONCATENATED MODULE: ./src/network/session.ts
// One command's network when `network` is an allow-list or audit: the proxy (proxy.ts) on a Unix socket
// in a folder of the runner's temp, the sidecar that forwards to it from a namespace with loopback only,
// and what the command needs to use it. The command's container joins the sidecar's namespace: it has
// `lo` and nothing else, so a program that ignores the proxy variables reaches nothing. ADR 0009.








const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
/** The standard variables that point clients at a proxy: curl, git, npm, pip, Node (24: NODE_USE_ENV_PROXY). */
function proxyEnv() {
    const url = `http://127.0.0.1:${PROXY_PORT}`;
    const noProxy = 'localhost,127.0.0.1,::1';
    return {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        NO_PROXY: noProxy,
        no_proxy: noProxy,
        npm_config_proxy: url,
        npm_config_https_proxy: url,
        NODE_USE_ENV_PROXY: '1',
    };
}
/** The trust variables, each naming `bundle` (the runner's CAs and the run's). */
function trustEnv(bundle) {
    return {
        SSL_CERT_FILE: bundle,
        NODE_EXTRA_CA_CERTS: bundle,
        REQUESTS_CA_BUNDLE: bundle,
        CURL_CA_BUNDLE: bundle,
        GIT_SSL_CAINFO: bundle,
        PIP_CERT: bundle,
    };
}
const SYSTEM_BUNDLES = [
    '/etc/ssl/certs/ca-certificates.crt',
    '/etc/pki/tls/certs/ca-bundle.crt',
    '/etc/ssl/cert.pem',
];
const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;
/** A bundle file's text, if it is a file of at most MAX_BUNDLE_BYTES; else none. */
async function bundleText(file) {
    try {
        const st = await promises_.stat(file);
        if (st.isFile() && st.size <= MAX_BUNDLE_BYTES)
            return await promises_.readFile(file, 'utf8');
    }
    catch {
        // not this one
    }
    return undefined;
}
/**
 * The CAs the proxy trusts (so that hosts it only tunnels still verify in the container): the runner's
 * bundle, and the step's NODE_EXTRA_CA_CERTS (an internal CA of a self-hosted runner, which the proxy
 * trusts too), or none.
 */
async function runnerBundle() {
    let system = '';
    for (const file of SYSTEM_BUNDLES) {
        const text = await bundleText(file);
        if (text !== undefined) {
            system = text;
            break;
        }
    }
    const extraFile = process.env.NODE_EXTRA_CA_CERTS;
    const extra = extraFile ? await bundleText(extraFile) : undefined;
    return extra?.includes('-----BEGIN CERTIFICATE-----') ? `${system}\n${extra}` : system;
}
function sidecarContainer(name, image, node, runDir, labels) {
    return {
        name,
        image,
        remove: true,
        user: (0,container_args/* userArg */.Q6)(),
        mounts: [
            { type: 'bind', source: node, target: FORWARDER_NODE, readonly: true },
            { type: 'bind', source: runDir, target: FORWARDER_RUN, readonly: true },
        ],
        labels,
        limits: { network: 'none', pidsLimit: 64, memory: '256m', readOnlyRootfs: true },
        entrypoint: FORWARDER_NODE,
        args: [
            '--max-old-space-size=96',
            `${FORWARDER_RUN}/forwarder.mjs`,
            String(PROXY_PORT),
            `${FORWARDER_RUN}/proxy.sock`,
        ],
    };
}
function within(promise, ms, what) {
    let timer;
    const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000}s`)), ms);
    });
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
/** The run's CA, with node-forge loaded for it (a chunk of its own, for runs with credentials only). */
function createRunCaOnDemand() {
    return Promise.all(/* import() */[__webpack_require__.e(542), __webpack_require__.e(760)]).then(__webpack_require__.bind(__webpack_require__, 2760)).then((m) => m.createRunCa());
}
async function startNetwork(engine, policy, options) {
    // The run's CA (with credentials: node-forge, loaded only then, and an RSA key made off the main
    // thread), begun by the caller as the run started, or here: the sidecar does not need it, the command
    // does (its certificate), so it is awaited last.
    const caReady = options.ca ?? (policy.credentials.length > 0 ? createRunCaOnDemand() : undefined);
    caReady?.catch(() => undefined); // awaited below
    const node = await promises_.realpath(process.execPath);
    const imageReady = ensureForwarderImage(engine, node);
    imageReady.catch(() => undefined); // awaited below
    const temp = process.env.RUNNER_TEMP || external_node_os_.tmpdir();
    const runDir = await promises_.mkdtemp(external_node_path_.join(temp, 'worktree-sandbox-net-'));
    let trustDir;
    let proxy;
    let sidecarExited;
    let watchdog;
    const sidecar = (0,leftovers/* sidecarName */.fg)(options.name);
    const cleanUp = async () => {
        if (sidecarExited) {
            await engine.removeContainer(sidecar).catch(() => undefined);
            await within(sidecarExited, STOP_TIMEOUT_MS, 'stopping the network forwarder').catch(() => undefined);
        }
        await proxy?.close();
        await promises_.rm(runDir, { recursive: true, force: true });
        if (trustDir)
            await promises_.rm(trustDir, { recursive: true, force: true });
        // Last: until here, a kill of the action still leaves the watchdog to remove both containers.
        watchdog?.dismiss();
    };
    try {
        await promises_.writeFile(external_node_path_.join(runDir, 'forwarder.mjs'), FORWARDER_SCRIPT, { mode: 0o644 });
        const env = proxyEnv();
        const readOnlyFiles = [];
        proxy = await startProxy({ policy, socketPath: external_node_path_.join(runDir, 'proxy.sock'), ca: caReady });
        const image = await imageReady;
        let ready;
        const listening = new Promise((resolve) => (ready = resolve));
        const said = [];
        const args = await engine.runArgs(sidecarContainer(sidecar, image, node, runDir, options.labels));
        // Before either container exists: the command's (which joins the sidecar) goes first.
        watchdog = startWatchdog(engine, [options.name, sidecar]);
        sidecarExited = engine.stream(args, {
            onLine: (line) => {
                if (line.trim() === 'ready')
                    ready();
                else if (said.length < 5)
                    said.push(line.slice(0, 300));
            },
        });
        const exited = sidecarExited.then((r) => {
            throw new Error(`the network forwarder exited (${engine.name} exit ${r.exitCode}): ${said.join(' ')}`);
        }, (error) => {
            throw error;
        });
        await within(Promise.race([listening, exited]), READY_TIMEOUT_MS, 'starting the network forwarder');
        exited.catch(() => undefined); // it exits when stopped
        if (caReady) {
            const ca = await caReady;
            trustDir = await promises_.mkdtemp(external_node_path_.join(temp, 'worktree-sandbox-trust-'));
            await promises_.chmod(trustDir, 0o755);
            const bundle = external_node_path_.join(trustDir, 'ca-bundle.pem');
            await promises_.writeFile(bundle, `${await runnerBundle()}\n${ca.certificate}`, { mode: 0o644 });
            readOnlyFiles.push(bundle);
            Object.assign(env, trustEnv(bundle));
        }
        const running = proxy;
        let stopped;
        return {
            env,
            readOnlyFiles,
            joinNetworkOf: sidecar,
            // Once: the command's end stops it, and the run's own clean-up again if the command never ran.
            stop: () => (stopped ??= cleanUp().then(() => running.report())),
        };
    }
    catch (error) {
        await cleanUp();
        throw error;
    }
}


/***/ })

};
