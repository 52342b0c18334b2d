import { describe, expect, it } from '@jest/globals';
import { notSeenMessage, parseCreatedAt, remoteEngine, unseenFolder } from './engine-probe.js';

describe('remoteEngine', () => {
  it('names an engine on another machine, over TCP or SSH', () => {
    expect(remoteEngine({ DOCKER_HOST: 'tcp://10.1.2.3:2376' })).toBe('tcp://10.1.2.3:2376');
    expect(remoteEngine({ DOCKER_HOST: 'ssh://deploy@build-host' })).toBe('ssh://deploy@build-host');
    expect(remoteEngine({ CONTAINER_HOST: 'ssh://core@[fd00::2]:22/run/podman.sock' })).toBe(
      'ssh://core@[fd00::2]:22/run/podman.sock',
    );
  });

  it('does not call a socket or a loopback address (a Docker-in-Docker sidecar) remote', () => {
    expect(remoteEngine({})).toBeUndefined();
    expect(remoteEngine({ DOCKER_HOST: 'unix:///var/run/docker.sock' })).toBeUndefined();
    expect(remoteEngine({ DOCKER_HOST: 'tcp://localhost:2376' })).toBeUndefined();
    expect(remoteEngine({ DOCKER_HOST: 'tcp://127.0.0.1:2375' })).toBeUndefined();
    expect(remoteEngine({ DOCKER_HOST: 'tcp://[::1]:2376' })).toBeUndefined();
  });
});

describe('what the probe says', () => {
  const probes = [
    {
      folder: { path: '/w/repo/.git', what: 'parent repository' },
      source: '/host/w/repo/.git/.worktree-sandbox-probe-aa',
    },
    { folder: { path: '/w/_sb', what: 'worktree-root' }, source: '/host/w/_sb/.worktree-sandbox-probe-bb' },
  ];

  it('finds the folder the engine named (Docker, Podman), and nothing in an unrelated failure', () => {
    expect(
      unseenFolder(
        'invalid mount config for type "bind": bind source path does not exist: /host/w/_sb/.worktree-sandbox-probe-bb',
        probes,
      )?.what,
    ).toBe('worktree-root');
    expect(
      unseenFolder(
        'Error: statfs /host/w/repo/.git/.worktree-sandbox-probe-aa: no such file or directory',
        probes,
      )?.what,
    ).toBe('parent repository');
    expect(unseenFolder('Error response from daemon: conflict: name in use', probes)).toBeUndefined();
  });

  it('tells a remote engine, a container that does not share the folder, and a translated path apart', () => {
    const folder = { path: '/w/_sb', what: 'worktree-root' };
    expect(
      notSeenMessage('docker', folder, { kind: 'same', containerized: false }, 'tcp://10.0.0.9:2376'),
    ).toMatch(
      /^The docker engine does not see the worktree-root \/w\/_sb where the action sees it: it is a remote engine \(tcp:\/\/10\.0\.0\.9:2376\), .*Nothing was created\./,
    );
    expect(notSeenMessage('docker', folder, { kind: 'same', containerized: true }, undefined)).toMatch(
      /The action runs in a container, and the engine does not share this folder with it\. Nothing was created\. Use isolation: container, or a worktree-root inside a folder the engine shares/,
    );
    expect(
      notSeenMessage(
        'docker',
        folder,
        { kind: 'container', id: 'c'.repeat(64), mounts: [{ source: '/host/w', target: '/w' }] },
        undefined,
      ),
    ).toContain('where the action sees it (looked for at /host/w/_sb on its side).');
  });
});

describe('parseCreatedAt', () => {
  it('reads Docker’s and Podman’s CreatedAt', () => {
    expect(parseCreatedAt('2026-11-26 08:00:00 +0000 UTC')).toBe(Date.parse('2026-11-26T08:00:00Z'));
    expect(parseCreatedAt('2026-11-26 09:00:00.123456789 +0100 CET')).toBe(
      Date.parse('2026-11-26T08:00:00Z'),
    );
    expect(parseCreatedAt('yesterday')).toBeUndefined();
  });
});
