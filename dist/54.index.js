export const id = 54;
export const ids = [54];
export const modules = {

/***/ 3858:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Xo: () => (/* binding */ sharedLibraries),
/* harmony export */   cy: () => (/* binding */ LayerEntries),
/* harmony export */   mW: () => (/* binding */ hostImage),
/* harmony export */   tg: () => (/* binding */ HOST_IMAGE_PATH)
/* harmony export */ });
/* unused harmony export tarLayer */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(729);
/* harmony import */ var _time_limits_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(1814);
// Images made on the spot from the runner's own files: the reaper's helper image (helper-image.ts: `sh`,
// `git` and a few tools) and the network sidecar's image (the libraries the runner's Node loads). Neither
// ever rests on the `image` input, which may lie.
//
// The layer is made here, byte for byte the same from the same files (sorted, times and owners zeroed),
// so its SHA-256 names it: the image is tagged with it and made once per engine and host. An image found
// under that tag is used only when its one layer is exactly that archive and its configuration sets
// nothing but PATH and its label; anything else under the tag is replaced. The programs this runs on the
// host (`ldd`, the engine's `import`) run under their time limits and are killed when they run out.






/** The PATH every such image sets, and the only variable. */
const HOST_IMAGE_PATH = '/usr/bin:/bin';
const made = new WeakMap();
/**
 * The image's name in this engine, made first when missing (once per engine object and repository: a
 * process has one; a failure is not remembered, so the next caller tries again).
 */
function hostImage(engine, spec) {
    let images = made.get(engine);
    if (!images)
        made.set(engine, (images = new Map()));
    let image = images.get(spec.repository);
    if (!image) {
        image = makeHostImage(engine, spec);
        images.set(spec.repository, image);
        image.catch(() => images.delete(spec.repository));
    }
    return image;
}
async function makeHostImage(engine, spec) {
    const layer = tarLayer(await spec.entries());
    const digest = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(layer).digest('hex');
    const image = `${spec.repository}:${digest.slice(0, 32)}`;
    if (await isOurs(engine, image, digest))
        return image;
    const dir = node_fs__WEBPACK_IMPORTED_MODULE_1__.mkdtempSync(node_path__WEBPACK_IMPORTED_MODULE_3__.join(process.env.RUNNER_TEMP || node_os__WEBPACK_IMPORTED_MODULE_2__.tmpdir(), 'worktree-sandbox-image-'));
    try {
        const file = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, 'layer.tar');
        node_fs__WEBPACK_IMPORTED_MODULE_1__.writeFileSync(file, layer, { mode: 0o600 });
        const imported = await engine.exec([
            'import',
            '--change',
            `ENV PATH=${HOST_IMAGE_PATH}`,
            '--change',
            `LABEL ${spec.label}=${digest}`,
            '--',
            file,
            image,
        ], { purpose: `importing ${spec.what}` });
        if (imported.exitCode !== 0)
            throw engine.failure(['import', image], imported);
    }
    finally {
        node_fs__WEBPACK_IMPORTED_MODULE_1__.rmSync(dir, { recursive: true, force: true });
    }
    if (!(await isOurs(engine, image, digest)))
        throw new Error(`${spec.what} ${image} does not hold the layer it was made from`);
    return image;
}
/** The image under `image` is the one made from this layer, configured with nothing but PATH. */
async function isOurs(engine, image, digest) {
    const inspect = await engine.exec([
        'image',
        'inspect',
        '--format',
        '{{json .RootFS.Layers}} {{json .Config.Env}} {{json .Config.Entrypoint}} {{json .Config.Cmd}} {{json .Config.User}}',
        '--',
        image,
    ]);
    if (inspect.exitCode !== 0)
        return false;
    const [layers, env, entrypoint, cmd, user] = inspect.stdout.trim().split(' ');
    return (layers === JSON.stringify([`sha256:${digest}`]) &&
        env === JSON.stringify([`PATH=${HOST_IMAGE_PATH}`]) &&
        entrypoint === 'null' &&
        (cmd === 'null' || cmd === '[]') &&
        (user === '""' || user === 'null'));
}
/** Builds a layer's entries: files at their paths, with the folders above them. */
class LayerEntries {
    entries = new Map();
    dir(p, mode = 0o755) {
        this.entries.set(p, { type: 'dir', path: p, mode });
    }
    /** The folders above `p` that are not there yet. */
    parents(p) {
        for (let dir = node_path__WEBPACK_IMPORTED_MODULE_3__.posix.dirname(p); dir !== '/'; dir = node_path__WEBPACK_IMPORTED_MODULE_3__.posix.dirname(dir))
            if (!this.entries.has(dir))
                this.dir(dir);
    }
    /** A copy of the host's file `source` (its content, through links) at `p`. */
    file(p, source) {
        this.parents(p);
        this.entries.set(p, { type: 'file', path: p, mode: node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync(source).mode & 0o755, source });
    }
    symlink(p, target) {
        this.parents(p);
        this.entries.set(p, { type: 'symlink', path: p, target });
    }
    has(p) {
        return this.entries.has(p);
    }
    /** Sorted by path, so that the same files make the same archive. */
    list() {
        return [...this.entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
}
/**
 * The shared libraries `ldd` says these programs load, the loader included (none for a static program),
 * in one ldd under its time limit.
 */
async function sharedLibraries(programs, what) {
    const result = await (0,_proc_js__WEBPACK_IMPORTED_MODULE_4__/* .runProcess */ .R3)('ldd', ['--', ...programs], {
        env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
        limit: { ms: (0,_time_limits_js__WEBPACK_IMPORTED_MODULE_5__/* .timeLimitMs */ .PI)('ldd'), purpose: `listing the libraries ${what} needs` },
    });
    const text = result.stdout + result.stderr;
    // With several files, ldd exits 1 when any is static ("not a dynamic executable"): that one has none.
    if (result.exitCode !== 0 && !/not a dynamic executable|statically linked/.test(text))
        throw new Error(`ldd failed: ${result.stderr.trim().split('\n')[0]}`);
    const missing = /^\s+(\S+) => not found/m.exec(result.stdout);
    if (missing)
        throw new Error(`ldd finds no ${missing[1]} for ${what}`);
    const libraries = [];
    for (const line of result.stdout.split('\n')) {
        const match = /^\s+(?:\S+\s+=>\s*)?(\/\S+)\s+\(0x/.exec(line);
        if (match)
            libraries.push(match[1]);
    }
    return [...new Set(libraries)];
}
// ---- the archive --------------------------------------------------------------------------------------
/** A POSIX (ustar) archive of the entries: the same bytes for the same files, whatever the clock. */
function tarLayer(entries) {
    const blocks = [];
    for (const entry of entries) {
        const name = entry.path.replace(/^\/+/, '') + (entry.type === 'dir' ? '/' : '');
        if (entry.type === 'file') {
            const data = node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync(entry.source);
            blocks.push(header(name, '0', entry.mode, data.length, ''), data, padding(data.length));
        }
        else if (entry.type === 'dir')
            blocks.push(header(name, '5', entry.mode, 0, ''));
        else
            blocks.push(header(name, '2', 0o777, 0, entry.target));
    }
    blocks.push(Buffer.alloc(1024));
    return Buffer.concat(blocks);
}
function padding(size) {
    return Buffer.alloc((512 - (size % 512)) % 512);
}
function header(name, type, mode, size, link) {
    const block = Buffer.alloc(512);
    let prefix = '';
    let base = name;
    if (Buffer.byteLength(name) > 100) {
        const cut = name.lastIndexOf('/', name.length - 2);
        prefix = name.slice(0, cut);
        base = name.slice(cut + 1);
        if (Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
            throw new Error(`${name} is too long a path for an image layer`);
    }
    if (Buffer.byteLength(link) > 100)
        throw new Error(`${link} is too long a link for an image layer`);
    const octal = (value, width) => value.toString(8).padStart(width - 1, '0') + '\0';
    block.write(base, 0, 100, 'utf8');
    block.write(octal(mode, 8), 100, 8, 'ascii');
    block.write(octal(0, 8), 108, 8, 'ascii'); // uid
    block.write(octal(0, 8), 116, 8, 'ascii'); // gid
    block.write(octal(size, 12), 124, 12, 'ascii');
    block.write(octal(0, 12), 136, 12, 'ascii'); // mtime
    block.write(' '.repeat(8), 148, 8, 'ascii'); // checksum, counted as spaces
    block.write(type, 156, 1, 'ascii');
    block.write(link, 157, 100, 'utf8');
    block.write('ustar\0', 257, 6, 'ascii');
    block.write('00', 263, 2, 'ascii');
    block.write(prefix, 345, 155, 'utf8');
    let sum = 0;
    for (const byte of block)
        sum += byte;
    block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
    return block;
}


/***/ }),

/***/ 6054:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  startNetwork: () => (/* binding */ startNetwork)
});

// UNUSED EXPORTS: createRunCaOnDemand, proxyEnv, sidecarContainer, trustEnv

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
;// CONCATENATED MODULE: ./src/network/chain.ts

/** One host name's length in a row and in a refusal's message. */
const MAX_HOST_CHARS = 253;
/** Runs `flow` through `handlers`: the route one of them chose, or undefined. Throws proxy-chain's refusal. */
async function runChain(handlers, flow) {
    for (const handler of handlers) {
        const refusal = handler.check?.(flow);
        if (!refusal)
            continue;
        const host = refusal.host.slice(0, MAX_HOST_CHARS);
        for (const each of handlers)
            each.refused?.(host, flow.port, refusal.reason);
        throw new dist/* RequestError */.GI(`worktree-sandbox network: ${host}:${flow.port} refused (${refusal.reason})`, refusal.status);
    }
    for (const handler of handlers)
        handler.allowed?.(flow);
    for (const handler of handlers) {
        const route = await handler.route?.(flow);
        if (route)
            return route;
    }
    return undefined;
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
/** The values of header `name` (lower case) in raw headers (name, value, name, value...). */
function valuesOf(raw, name) {
    const out = [];
    for (let i = 0; i + 1 < raw.length; i += 2)
        if (raw[i].toLowerCase() === name)
            out.push(raw[i + 1]);
    return out;
}
/** Raw headers less every one whose name (lower case) is in `dropped`, then `added` (name, value pairs). */
function headersWithout(raw, dropped, added = []) {
    const out = [];
    for (let i = 0; i + 1 < raw.length; i += 2)
        if (!dropped.has(raw[i].toLowerCase()))
            out.push(raw[i], raw[i + 1]);
    return [...out, ...added];
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
    const added = credentials.flatMap((c) => [c.header, c.value]);
    return ['Host', port === 443 ? host : `${host}:${port}`, ...headersWithout(raw, dropped, added)];
}

;// CONCATENATED MODULE: ./src/network/handlers/credentials.ts

/** The credentials for a host and port: each on the ports its line allows, by its scheme. */
function credentialsFor(credentials, host, port, scheme) {
    return credentials.filter((c) => c.host === host && c.ports.includes(port) && c.scheme === scheme);
}
function credentialsHandler(credentials, interceptors) {
    const over = (flow, scheme) => credentialsFor(credentials, flow.host, flow.port, scheme);
    return {
        check(flow) {
            if (!flow.isHttp || over(flow, 'https').length === 0)
                return undefined;
            const reason = `${flow.host} has a credential, which is sent over TLS only: use https://`;
            return { host: flow.host, reason, status: 403 };
        },
        async route(flow) {
            if (flow.isHttp) {
                flow.credentials = over(flow, 'http');
                return undefined;
            }
            // A tunnel to a host whose line named http:// carries plain HTTP: ended here too, for the header.
            for (const scheme of ['https', 'http'])
                if (over(flow, scheme).length > 0)
                    return {
                        customConnectServer: (await interceptors.get(flow.host, flow.port, scheme)),
                    };
            return undefined;
        },
    };
}
/** A plain request forwarded as it is, with its credentials: any header of theirs replaced, then added. */
function setCredentials(flow) {
    if (flow.credentials.length === 0)
        return;
    const raw = flow.request.rawHeaders;
    const names = new Set(flow.credentials.map((c) => c.header.toLowerCase()));
    const added = flow.credentials.flatMap((c) => [c.header, c.value]);
    raw.splice(0, raw.length, ...headersWithout(raw, names, added));
}

// EXTERNAL MODULE: ./src/network/model-apis.ts + 4 modules
var model_apis = __webpack_require__(7936);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
// EXTERNAL MODULE: external "node:https"
var external_node_https_ = __webpack_require__(4708);
;// CONCATENATED MODULE: ./src/network/usage-scanner.ts

/**
 * The most of one JSON answer, or of one event line, held to be parsed. What the APIs send: an Embeddings
 * answer of a few MB, a Responses stream's final event (the whole response again) of hundreds of KB.
 */
const MAX_HELD_BYTES = 16 * 1024 * 1024;
const MAX_MODEL_CHARS = 200;
const NEWLINE = 0x0a;
/** Number fields kept, by their path in a usage object: every API's, whichever the answer is for. */
const FIELDS = [...new Set(model_apis/* MODEL_APIS */.Q6.flatMap((api) => api.fields))];
/**
 * The keys looked for, by the word the search is for and the endings after it: `"usage"`,
 * `"usageMetadata"`, `"model"`, `"modelVersion"`. The search is for the bare word, whose first letter is
 * rare in JSON (a search that starts at a quote stops at every string), and the quotes are checked after.
 */
const USAGE = { word: Buffer.from('usage'), endings: [Buffer.from('"'), Buffer.from('Metadata"')] };
const MODEL = { word: Buffer.from('model'), endings: [Buffer.from('"'), Buffer.from('Version"')] };
const QUOTE = 0x22;
const BOTH = [USAGE, MODEL];
const ONLY_USAGE = [USAGE];
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
class UsageScanner {
    api;
    format;
    onUsage;
    /** Last value seen of each field: streams repeat them, the later values being the totals. */
    fields = new Map();
    model;
    overBound = false;
    /** JSON: the answer so far. */
    held = [];
    heldBytes = 0;
    /** SSE: the unfinished line's bytes so far, in a buffer reused from line to line. */
    carry = Buffer.allocUnsafe(1024);
    carried = 0;
    /** SSE: the unfinished line holds a key's word, so it is read when it ends (else it is not). */
    pending = false;
    /** SSE: the current line is over the bound and is being skipped to its end. */
    skipping = false;
    /** SSE: each key word's first place in the chunk being read (reused). */
    firstHits = [];
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
        else if (chunk.length > 0)
            this.writeEvents(chunk);
    }
    end() {
        if (this.format === 'json' && !this.overBound && this.heldBytes > 0)
            this.absorbText(Buffer.concat(this.held).toString('utf8'));
        if (this.format === 'sse' && this.carried > 0 && !this.skipping)
            this.readLines(this.carry.subarray(0, this.carried), 0, this.carried);
        this.held = [];
        this.heldBytes = 0;
        this.carried = 0;
        return { usage: this.usage(), model: this.model, overBound: this.overBound };
    }
    hold(part) {
        if (this.overBound || part.length === 0)
            return;
        if (this.heldBytes + part.length > MAX_HELD_BYTES) {
            this.overBound = true;
            this.held = [];
            this.heldBytes = 0;
            return;
        }
        // A copy: the caller may reuse its buffer.
        this.held.push(Buffer.from(part));
        this.heldBytes += part.length;
    }
    /**
     * One search per key word over each chunk, whose hits are sorted by where they lie: in the end of a line
     * begun in an earlier chunk (that line is then read when it ends), in the complete lines (read where they
     * lie, by offsets), or in the chunk's unfinished last line (read when it ends). A word cut by the chunk's
     * edge is caught by comparing the bytes on either side. Lines with no hit are never copied whole: only
     * the unfinished end is kept, in a buffer reused from line to line, so most chunks cost a search and
     * no allocation.
     */
    writeEvents(chunk) {
        const keys = this.model === undefined ? BOTH : ONLY_USAGE;
        const open = this.carried > 0 || this.skipping;
        const firstHits = this.firstHits;
        for (let k = 0; k < keys.length; k++) {
            if (this.carried > 0 && cutByEdge(this.carry, this.carried, chunk, keys[k].word))
                this.pending = true;
            firstHits[k] = chunk.indexOf(keys[k].word);
        }
        firstHits.length = keys.length;
        if (!this.pending &&
            this.carried + chunk.length <= MAX_HELD_BYTES &&
            firstHits.every((at) => at === -1)) {
            // Nothing to read in this chunk, and no line in it past the bound: the open line (if any) ends at its
            // first newline, unread; only the unfinished last line is kept. (Most chunks: event-sized ones cost
            // a third less this way.)
            const last = chunk.lastIndexOf(NEWLINE);
            if (last !== -1) {
                this.carried = 0;
                this.skipping = false;
            }
            this.carryOn(chunk, last + 1, chunk.length);
            return;
        }
        let from = 0;
        if (open) {
            const lineEnd = chunk.indexOf(NEWLINE);
            const ends = lineEnd === -1 ? chunk.length : lineEnd;
            if (firstHits.some((at) => at !== -1 && at < ends))
                this.pending = true;
            this.carryOn(chunk, 0, ends);
            if (lineEnd === -1)
                return;
            if (this.pending && !this.skipping)
                this.readLines(this.carry.subarray(0, this.carried), 0, this.carried);
            this.carried = 0;
            this.pending = false;
            this.skipping = false;
            from = lineEnd + 1;
        }
        const last = chunk.lastIndexOf(NEWLINE);
        const end = last >= from ? last : from;
        if (this.readLines(chunk, from, end, firstHits))
            this.pending = true;
        const rest = last >= from ? last + 1 : from;
        if (rest < chunk.length)
            this.carryOn(chunk, rest, chunk.length);
    }
    /** Keeps a copy of `part` from `from` to `to` at the end of the unfinished line, within the bound. */
    carryOn(part, from, to) {
        const length = to - from;
        if (this.skipping || length <= 0)
            return;
        if (this.carried + length > MAX_HELD_BYTES) {
            this.overBound = true;
            this.skipping = true;
            this.carried = 0;
            this.pending = false;
            return;
        }
        if (this.carried + length > this.carry.length) {
            const bigger = Buffer.allocUnsafe(Math.min(MAX_HELD_BYTES, 2 * (this.carried + length)));
            this.carry.copy(bigger, 0, 0, this.carried);
            this.carry = bigger;
        }
        if (length <= 64)
            for (let i = 0; i < length; i++)
                this.carry[this.carried + i] = part[from + i];
        else
            part.copy(this.carry, this.carried, from, to);
        this.carried += length;
    }
    /**
     * The lines of `buffer` from `start` to `end` (a newline, or the end of a whole line): only those holding
     * a usage object or, once, a model are parsed. `firstHits`: each key word's first place in `buffer`, when
     * the caller has searched already. Whether a word lies past `end`, in the unfinished line after it.
     */
    readLines(buffer, start, end, firstHits) {
        let past = false;
        const keys = this.model === undefined ? BOTH : ONLY_USAGE;
        for (let k = 0; k < keys.length; k++) {
            const key = keys[k];
            let at = firstHits?.[k] ?? buffer.indexOf(key.word, start);
            if (at !== -1 && at < start)
                at = buffer.indexOf(key.word, start);
            while (at !== -1 && at < end && !(key === MODEL && this.model !== undefined)) {
                const after = keyEnd(buffer, at, key);
                if (after === -1 || !opensValue(buffer, after, key === MODEL ? QUOTE : 0x7b)) {
                    at = buffer.indexOf(key.word, at + key.word.length);
                    continue;
                }
                const newline = buffer.indexOf(NEWLINE, at);
                const lineEnd = newline === -1 || newline > end ? end : newline;
                this.readLine(buffer.subarray(Math.max(start, buffer.lastIndexOf(NEWLINE, at) + 1), lineEnd));
                at = lineEnd >= end ? buffer.indexOf(key.word, end) : buffer.indexOf(key.word, lineEnd);
            }
            if (at !== -1 && at >= end)
                past = true;
        }
        return past;
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
        return (0,model_apis/* modelApi */.k)(this.api).usage({
            get: (name) => this.fields.get(name) ?? 0,
            has: (...names) => names.some((n) => this.fields.has(n)),
        });
    }
}
/** Whether `word` lies across the edge between the first `carried` bytes of `carry` and `chunk`. */
function cutByEdge(carry, carried, chunk, word) {
    for (let before = 1; before < word.length; before++) {
        if (before > carried || word.length - before > chunk.length)
            continue;
        let i = 0;
        while (i < word.length && word[i] === (i < before ? carry[carried - before + i] : chunk[i - before]))
            i++;
        if (i === word.length)
            return true;
    }
    return false;
}
/** Where a key found by its word ends (after its closing quote), or -1 when the word is not such a key. */
function keyEnd(region, at, key) {
    if (region[at - 1] !== QUOTE)
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
        headers = headersWithout(headers, new Set(['accept-encoding']), ['Accept-Encoding', 'identity']);
    if (options.body)
        headers = headersWithout(headers, new Set(['content-length']), [
            'Content-Length',
            String(options.body.length),
        ]);
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
    return valuesOf(headers, 'content-encoding').some((v) => v.trim().toLowerCase() !== 'identity');
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
        const answer = (0,model_apis/* budgetAnswer */.SF)(call.api, refused);
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

;// CONCATENATED MODULE: ./src/network/handlers/meter.ts



function meterHandler(meter, servePlain) {
    return {
        route({ request, host, port, isHttp, credentials }) {
            if (!isHttp)
                return undefined;
            const call = (0,model_apis/* classifyRequest */.mE)(request.method, request.url ?? '', request.rawHeaders, credentials.length > 0);
            if (!call)
                return undefined;
            const target = new URL(request.url ?? '/', `http://${host}`);
            const send = {
                protocol: 'http',
                host,
                port,
                headers: upstreamHeaders(request.rawHeaders, host, port, credentials),
            };
            const path = `${target.pathname}${target.search}`;
            return {
                customResponseFunction: () => servePlain(request, (res) => serveModelRequest(request, res, call, { meter, host, port, path, send })),
            };
        },
    };
}

;// CONCATENATED MODULE: ./src/network/handlers/policy.ts


function policyHandler(policy) {
    return {
        check({ request, host, port, isHttp }) {
            if (isHttp) {
                const framing = framingRefusal(request);
                if (framing)
                    return { host, ...framing };
                const asked = request.headers.host === undefined ? '' : splitHostHeader(request.headers.host).host;
                if (asked && asked !== host)
                    return {
                        host: asked,
                        reason: `the Host header differs from the request's host ${host}`,
                        status: 403,
                    };
            }
            const decision = (0,network_policy/* decide */.LD)(policy, host, port);
            return decision.allowed ? undefined : { host, reason: decision.reason, status: 403 };
        },
    };
}

;// CONCATENATED MODULE: ./src/network/handlers/tally.ts
function tallyHandler(tally) {
    const rowOf = new Map();
    return {
        allowed({ connectionId, host, port }) {
            const row = tally.allow(host, port);
            if (row)
                rowOf.set(connectionId, row);
        },
        refused: (host, port, reason) => tally.deny(host, port, reason),
        closed(connectionId, stats) {
            const row = rowOf.get(connectionId);
            rowOf.delete(connectionId);
            if (!row || !stats)
                return;
            row.bytesSent += stats.srcRxBytes ?? 0;
            row.bytesReceived += stats.srcTxBytes ?? 0;
        },
    };
}

;// CONCATENATED MODULE: ./src/network/interceptor.ts
// The TLS end the proxy makes for a host with a credential: a certificate of the run's CA (ca.ts), each
// request inside checked again (request-rules.ts), then rebuilt, not passed on: origin form, one Host that
// is the tunnel's, only headers Node parsed, the credential set. The server upstream therefore parses the
// one request the proxy checked, for the one host the tunnel is for, over TLS. A request to a model API is
// metered, and answered here (429) once the run's budget is spent. A host whose credential line named
// `http://` gets the same end without TLS: Node's fetch tunnels (CONNECT) even plain-HTTP requests. ADR 0009.







/**
 * The TLS ends of a run, one server per host, port and scheme: for a host with a credential, and (`clear`)
 * for a tunnel whose bytes are plain HTTP, read as HTTP with no credential.
 */
class Interceptors {
    options;
    made = new Map();
    constructor(options) {
        this.options = options;
    }
    get(host, port, scheme) {
        const key = `${scheme}://${host}:${port}`;
        let made = this.made.get(key);
        if (!made) {
            made = makeInterceptor(this.options, host, port, scheme);
            this.made.set(key, made);
        }
        return made;
    }
    async close() {
        for (const made of this.made.values())
            (await made.catch(() => undefined))?.close();
    }
}
function answer(res, refusal) {
    res.writeHead(refusal.status, { 'content-type': 'text/plain', connection: 'close' });
    res.end(`worktree-sandbox network: ${refusal.reason}\n`);
}
async function makeInterceptor(options, host, port, asked) {
    const scheme = asked === 'clear' ? 'http' : asked;
    const credentials = asked === 'clear' ? [] : options.credentialsFor(host, port, asked);
    let server;
    if (scheme === 'https') {
        const ca = await options.ca;
        if (!ca)
            throw new Error('credentials over HTTPS need the run CA');
        const { key, cert } = await ca.leaf(host);
        server = external_node_https_.createServer({ key, cert, minVersion: 'TLSv1.2' });
        server.on('tlsClientError', (_error, socket) => socket.destroy());
    }
    else
        server = external_node_http_.createServer();
    server.on('request', (req, res) => {
        const target = tunnelTarget(req, host, port);
        if ('refusal' in target) {
            options.refused(host.slice(0, MAX_HOST_CHARS), port, target.refusal.reason);
            req.resume();
            answer(res, target.refusal);
            return;
        }
        const send = {
            protocol: scheme,
            host,
            port,
            headers: upstreamHeaders(req.rawHeaders, host, port, credentials),
            trustedCas: options.trustedCas,
        };
        // On a host with a credential every POST is a model request: counted, and refused if unreadable.
        const call = (0,model_apis/* classifyRequest */.mE)(req.method, target.path, req.rawHeaders, credentials.length > 0);
        options.allowed(host, port);
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

;// CONCATENATED MODULE: ./src/network/tunnels.ts



function makeTunnels(interceptors) {
    const sizes = { small: RELAY_SMALL_BYTES, large: RELAY_LARGE_BYTES };
    const budget = { large: RELAY_LARGE_COUNT };
    const ends = new WeakMap();
    const open = new Set();
    const server = external_node_net_.createServer((client) => {
        const end = ends.get(client);
        ends.delete(client);
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
            interceptors.get(end.host, end.port, 'clear').then((interceptor) => {
                // Its parser reads the socket's data events (proxy-chain's own took the socket's handle).
                interceptor.emit('connection', client);
                client.resume();
            }, () => client.destroy());
        });
    });
    return {
        server: server,
        close: () => open.forEach((far) => far.destroy()),
        open: (client, host, port) => new Promise((resolve, reject) => {
            const far = external_node_net_.connect({
                host,
                port,
                onread: relayReads(() => client, () => far, sizes, budget),
            });
            far.pause(); // nothing reaches the client before proxy-chain's 200
            open.add(far);
            const gone = () => far.destroy();
            client.once('close', gone);
            far.once('close', () => {
                open.delete(far);
                client.off('close', gone);
            });
            // Until joined: an error before the connection ends it with a 502, one after it closes the tunnel.
            far.on('error', (error) => {
                far.destroy();
                reject(new dist/* RequestError */.GI(`worktree-sandbox network: ${host}:${port} could not be reached (${error.code ?? 'error'})`, 502));
            });
            far.once('connect', () => {
                ends.set(client, { far, gone, host, port });
                resolve();
            });
        }),
    };
}

;// CONCATENATED MODULE: ./src/network/proxy.ts
// The proxy in the action's own process, behind a Unix socket that only the forwarder (sidecar.ts) can
// reach: proxy-chain (a maintained forward proxy on Node's own HTTP parser) tunnels CONNECTs and forwards
// plain requests; each request it parses first passes the chain (chain.ts) of small handlers: policy →
// credentials → meter → tally. A request none of them takes is forwarded as it is, or, a CONNECT, tunneled
// (tunnels.ts). Names resolve as the runner resolves them (getaddrinfo: its /etc/hosts, its resolver).














/** Bound: connections open at once. */
const MAX_CONNECTIONS = 2048;
async function startProxy(options) {
    const { policy } = options;
    const tally = new Tally();
    const meter = new ModelMeter(policy.modelLimits);
    const tallied = tallyHandler(tally);
    const interceptors = new Interceptors({
        ca: options.ca,
        trustedCas: options.trustedCas,
        meter,
        credentialsFor: (host, port, scheme) => credentialsFor(policy.credentials, host, port, scheme),
        allowed: (host, port) => tally.allow(host, port),
        refused: (host, port, reason) => tallied.refused?.(host, port, reason),
    });
    const tunnels = makeTunnels(interceptors);
    let chain = [];
    const server = new dist/* Server */.gq({
        port: 0,
        prepareRequestFunction: async ({ connectionId, request, hostname, port, isHttp }) => {
            const flow = {
                connectionId: connectionId,
                request,
                host: (0,network_policy/* normalizeHost */.cS)(hostname),
                port,
                isHttp,
                credentials: [],
            };
            const route = await runChain(chain, flow);
            if (route)
                return route;
            if (isHttp) {
                setCredentials(flow);
                return {};
            }
            await tunnels.open(request.socket, flow.host, port);
            return { customConnectServer: tunnels.server };
        },
    });
    chain = [
        policyHandler(policy),
        credentialsHandler(policy.credentials, interceptors),
        meterHandler(meter, plainResponses(server.server)),
        tallied,
    ];
    server.on('connectionClosed', ({ connectionId, stats }) => tallied.closed?.(connectionId, stats));
    server.on('requestFailed', () => undefined);
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
                tunnels.close();
            });
            await interceptors.close();
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
            env: (0,proc/* pickEnv */.Bh)(engine_engine/* ENGINE_ENV */.X4),
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
