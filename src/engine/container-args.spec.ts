import { describe, expect, it } from '@jest/globals';
import { containerRunArgs, mountArg } from './container-args.js';

describe('mountArg', () => {
  it('writes read-only as `ro`, which Docker and Podman both accept on binds and volumes', () => {
    expect(mountArg('docker', { type: 'volume', source: 'v', target: '/v', readonly: true })).toBe(
      'type=volume,source=v,target=/v,ro',
    );
  });

  it('quotes a field with a comma or a quote (CSV)', () => {
    expect(mountArg('docker', { type: 'bind', source: '/a,b"c', target: '/t' })).toBe(
      'type=bind,"source=/a,b""c",target=/t',
    );
  });

  it('hides a folder with an empty tmpfs only root may write; Podman is told not to copy what it hides', () => {
    expect(mountArg('docker', { type: 'tmpfs', target: '/p/.git' })).toBe(
      'type=tmpfs,target=/p/.git,tmpfs-mode=0755',
    );
    expect(mountArg('podman', { type: 'tmpfs', target: '/p/.git' })).toBe(
      'type=tmpfs,target=/p/.git,tmpfs-mode=0755,notmpcopyup',
    );
  });
});

describe('containerRunArgs', () => {
  const base = {
    image: 'img',
    user: '1001:1001',
    mounts: [],
    labels: {},
    entrypoint: 'sh',
    args: ['-c', 'true'],
  };

  it('hardens every container the same way: no capabilities, no new privileges, a pids limit, no network by default', () => {
    const args = containerRunArgs('docker', base);
    expect(args).toEqual(
      expect.arrayContaining(['--cap-drop', 'ALL', '--security-opt', 'no-new-privileges']),
    );
    expect(args.slice(args.indexOf('--pids-limit'), args.indexOf('--pids-limit') + 2)).toEqual([
      '--pids-limit',
      '1024',
    ]);
    expect(args.slice(args.indexOf('--network'), args.indexOf('--network') + 2)).toEqual([
      '--network',
      'none',
    ]);
    expect(args).toEqual(expect.arrayContaining(['--label', 'worktree-sandbox.managed=true']));
    expect(args.slice(-5)).toEqual(['sh', '--', 'img', '-c', 'true']);
  });

  it('never puts an env file value or an inherited value on the command line', () => {
    const args = containerRunArgs('docker', { ...base, envFile: '/private/env', inheritEnv: ['SECRET'] });
    expect(args).toEqual(expect.arrayContaining(['--env-file', '/private/env', '-e', 'SECRET']));
    expect(args.join(' ')).not.toMatch(/SECRET=/);
  });

  it('adds --init on docker only (podman ships none by default)', () => {
    expect(containerRunArgs('docker', { ...base, init: true })).toContain('--init');
    expect(containerRunArgs('podman', { ...base, init: true })).not.toContain('--init');
  });
});

describe('containerRunArgs: joining the network proxy sidecar', () => {
  const spec = {
    image: 'img',
    user: '1001:1001',
    mounts: [],
    labels: {},
    entrypoint: 'sh',
    args: ['-c', 'true'],
    limits: { network: 'none' as const, pidsLimit: 10, readOnlyRootfs: false },
    userns: ['--userns=keep-id:uid=1001,gid=1001'],
    joinNetworkOf: 'side-net',
  };

  it("takes the sidecar's network namespace instead of its own network, with no capability", () => {
    const args = containerRunArgs('docker', spec);
    expect(args.join(' ')).toContain('--network container:side-net');
    expect(args).not.toContain('none');
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args).not.toContain('--cap-add');
  });

  it("on Podman, also the sidecar's user namespace (rootless: /sys cannot be mounted otherwise)", () => {
    const args = containerRunArgs('podman', spec);
    expect(args).toContain('--userns=container:side-net');
    expect(args).not.toContain('--userns=keep-id:uid=1001,gid=1001');
  });
});
