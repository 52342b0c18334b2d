import { describe, expect, it } from '@jest/globals';
import {
  bindSource,
  containerIdCandidates,
  discoverHostView,
  enginePath,
  HostPathError,
  parseInspectMounts,
  requireVisible,
  rootIsContainerLayer,
  runsInContainer,
  type HostView,
} from './host-paths.js';

const ID = 'eea0ada350372ab7e50dbe8cad74c84b8fefcb171ea607fbeecfeda973f2cd13';
// A job container's mount table and cgroup, as Docker 20.10 on cgroup v1 writes them.
const DOCKER_MOUNTINFO = [
  '82 85 0:70 / / rw,relatime master:5 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A',
  '172 82 254:0 /var/lib/docker/containers/' +
    ID +
    '/resolv.conf /etc/resolv.conf rw,relatime - ext4 /dev/vda rw',
  '173 82 254:0 /var/lib/docker/containers/' + ID + '/hostname /etc/hostname rw,relatime - ext4 /dev/vda rw',
  '174 82 254:0 /tmp/work /__w rw,relatime - ext4 /dev/vda rw',
].join('\n');
const HOST_MOUNTINFO = [
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard',
  '22 27 0:21 / /proc rw,relatime - proc proc rw',
].join('\n');
const HOST_CGROUP = '9:name=systemd:/\n4:memory:/process_api/4ffde8a765ad75a0b011181e10b41852\n0::/\n';

describe('the action’s own container, from its mount table and cgroup', () => {
  it('finds a Docker container id in the mount of /etc/hostname', () => {
    expect(containerIdCandidates(DOCKER_MOUNTINFO, '0::/\n')).toEqual([ID]);
  });

  it('finds a Podman container id (overlay-containers/<id>/userdata)', () => {
    const line = `300 82 0:40 /containers/storage/overlay-containers/${ID}/userdata/hostname /etc/hostname rw - tmpfs tmpfs rw`;
    expect(containerIdCandidates(line, '')).toEqual([ID]);
  });

  it('finds the id in a cgroup path (v1, or v2 without a cgroup namespace), once', () => {
    expect(
      containerIdCandidates('', `9:name=systemd:/docker/${ID}\n0::/system.slice/docker-${ID}.scope\n`),
    ).toEqual([ID]);
  });

  it('finds nothing on a plain host (a 32-hex cgroup name is no container id)', () => {
    expect(containerIdCandidates(HOST_MOUNTINFO, HOST_CGROUP)).toEqual([]);
    expect(runsInContainer({ mountinfo: HOST_MOUNTINFO, cgroup: HOST_CGROUP })).toBe(false);
  });

  it('tells a container’s own root (overlay) from a host’s', () => {
    expect(rootIsContainerLayer(DOCKER_MOUNTINFO)).toBe(true);
    expect(rootIsContainerLayer(HOST_MOUNTINFO)).toBe(false);
    // A Kubernetes pod's container: overlay root, no Docker id the engine would know.
    expect(runsInContainer({ mountinfo: DOCKER_MOUNTINFO.split('\n')[0], cgroup: '0::/\n' })).toBe(true);
  });
});

describe('the engine’s path of each of the action’s paths', () => {
  const mounts = parseInspectMounts(
    JSON.stringify([
      { Type: 'bind', Source: '/home/runner/work', Destination: '/__w', RW: true },
      { Type: 'bind', Source: '/home/runner/work/_temp/_github_home', Destination: '/github/home' },
      { Type: 'volume', Name: 'v', Source: '/var/lib/docker/volumes/v/_data', Destination: '/__w/cache' },
      { Type: 'tmpfs', Destination: '/scratch' },
      { Type: 'bind', Source: 'relative', Destination: '/x' },
    ]),
  );
  const view: HostView = { kind: 'container', id: ID, mounts };

  it('maps a path under a mount to its source, the deepest mount first', () => {
    expect(enginePath(view, '/__w/repo/repo/.git/objects')).toBe('/home/runner/work/repo/repo/.git/objects');
    expect(enginePath(view, '/__w')).toBe('/home/runner/work');
    expect(enginePath(view, '/__w/cache/x')).toBe('/var/lib/docker/volumes/v/_data/x');
    expect(enginePath(view, '/github/home/.cache')).toBe('/home/runner/work/_temp/_github_home/.cache');
  });

  it('maps nothing outside the mounts: a tmpfs, a sibling with the same prefix, the container’s own files', () => {
    expect(enginePath(view, '/scratch/a')).toBeUndefined();
    expect(enginePath(view, '/__wx/a')).toBeUndefined();
    expect(enginePath(view, '/root/.cache/worktree-sandbox')).toBeUndefined();
    expect(enginePath(view, '/x')).toBeUndefined();
  });

  it('refuses an unseen path before anything is made, naming it and the fix', () => {
    expect(() =>
      requireVisible(view, [
        { path: '/__w/repo/repo', what: 'parent repository' },
        { path: '/root/.cache/wt', what: 'worktree-root' },
      ]),
    ).toThrow(
      /worktree-root \/root\/\.cache\/wt .*cannot see it.*Nothing was created\. Use isolation: container, or a worktree-root/,
    );
    expect(() => bindSource(view)('/root/x')).toThrow(HostPathError);
    expect(bindSource(view)('/__w/a')).toBe('/home/runner/work/a');
  });

  it('leaves every path as it is when the engine shares the action’s filesystem', () => {
    const same: HostView = { kind: 'same', containerized: false };
    expect(bindSource(same)('/root/x')).toBe('/root/x');
    expect(() => requireVisible(same, [{ path: '/anything', what: 'x' }])).not.toThrow();
  });
});

describe('discoverHostView', () => {
  it('asks the engine nothing on a plain host', async () => {
    const calls: string[][] = [];
    const view = await discoverHostView(
      async (args) => {
        calls.push([...args]);
        return { exitCode: 0 };
      },
      { mountinfo: HOST_MOUNTINFO, cgroup: HOST_CGROUP },
    );
    expect(view).toEqual({ kind: 'same', containerized: false });
    expect(calls).toEqual([]);
  });

  it('reads the mounts of the container the engine knows, with a time limit', async () => {
    const limits: number[] = [];
    const view = await discoverHostView(
      async (args, options) => {
        limits.push(options.timeLimitMs);
        expect(args.slice(-2)).toEqual(['--', ID]);
        options.onLine('a warning the CLI printed', 'stderr');
        options.onLine(`${ID} [{"Type":"bind","Source":"/tmp/work","Destination":"/__w"}]`, 'stdout');
        return { exitCode: 0 };
      },
      { mountinfo: DOCKER_MOUNTINFO, cgroup: '' },
    );
    expect(view).toEqual({ kind: 'container', id: ID, mounts: [{ source: '/tmp/work', target: '/__w' }] });
    expect(limits[0]).toBeGreaterThan(0);
  });

  it('fails, naming the container, when the engine does not answer in time (its CLI is killed by the exec)', async () => {
    await expect(
      discoverHostView(
        async () => ({ exitCode: -1, timedOut: true }),
        { mountinfo: DOCKER_MOUNTINFO, cgroup: '' },
        50,
      ),
    ).rejects.toThrow(
      `The container engine did not say within 0.05 s what it knows of the action's own container (${ID.slice(0, 12)}); its CLI was stopped, and nothing was created.`,
    );
  });

  it('takes a container the engine does not know (a runner pod beside Docker-in-Docker) as sharing paths as they are', async () => {
    const view = await discoverHostView(async () => ({ exitCode: 1 }), {
      mountinfo: DOCKER_MOUNTINFO,
      cgroup: '',
    });
    expect(view).toEqual({ kind: 'same', containerized: true });
  });
});
