// The pure parts of engine-mode against real engine output, captured on a Debian 12 host (Podman 4.3.1,
// Docker 20.10): `info` JSON rootless and rootful (start failures: start-failure.spec.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EngineModeError,
  detectEngineMode,
  infoArgs,
  parseEngineInfo,
  userNamespaceArgs,
  type EngineMode,
} from './mode.js';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/engine-mode',
);
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('parseEngineInfo', () => {
  it('reads rootless Podman: keep-id, its options (4.3), the user namespace maps', () => {
    expect(parseEngineInfo('podman', fixture('podman-rootless.json'))).toEqual({
      engine: 'podman',
      rootless: true,
      uidMapping: 'keep-id',
      version: '4.3.1',
      keepIdOptions: true,
      uidMap: [
        { containerId: 0, hostId: 1001, size: 1 },
        { containerId: 1, hostId: 100000, size: 65536 },
      ],
      gidMap: [
        { containerId: 0, hostId: 1001, size: 1 },
        { containerId: 1, hostId: 100000, size: 65536 },
      ],
      storageDriver: 'overlay',
    });
  });

  it('reads rootful Podman: no mapping', () => {
    const mode = parseEngineInfo('podman', fixture('podman-rootful.json'));
    expect(mode).toMatchObject({ rootless: false, uidMapping: 'none', version: '4.3.1', uidMap: [] });
  });

  it('reads rootful Docker', () => {
    expect(parseEngineInfo('docker', fixture('docker.json'))).toEqual({
      engine: 'docker',
      rootless: false,
      uidMapping: 'none',
      version: '20.10.24+dfsg1',
      keepIdOptions: false,
      uidMap: [],
      gidMap: [],
      storageDriver: 'overlay2',
    });
  });

  it('sees rootless Docker by its security option (the captured info with that option added)', () => {
    const info = JSON.parse(fixture('docker.json'));
    info.SecurityOptions = [...info.SecurityOptions, 'name=rootless'];
    expect(parseEngineInfo('docker', JSON.stringify(info))).toMatchObject({
      rootless: true,
      uidMapping: 'none',
    });
  });

  it('refuses output that is not a JSON object', () => {
    expect(() => parseEngineInfo('podman', 'Error: something')).toThrow(EngineModeError);
    expect(() => parseEngineInfo('podman', '[]')).toThrow(/no JSON object/);
  });
});

describe('detectEngineMode', () => {
  it('asks once, with the format each engine understands', async () => {
    const calls: (readonly string[])[] = [];
    const mode = await detectEngineMode('podman', async (args) => {
      calls.push(args);
      return { exitCode: 0, stdout: fixture('podman-rootless.json'), stderr: '' };
    });
    expect(mode.rootless).toBe(true);
    expect(calls).toEqual([['info', '--format', 'json']]);
    expect(infoArgs('docker')).toEqual(['info', '--format', '{{json .}}']);
  });

  it('explains a failed info call', async () => {
    const failing = async () => ({ exitCode: 1, stdout: '', stderr: fixture('xdg-not-owned.stderr.txt') });
    await expect(detectEngineMode('podman', failing)).rejects.toThrow(
      /podman info failed \(exit 1\): .*XDG_RUNTIME_DIR.*mode 700/,
    );
  });
});

describe('userNamespaceArgs', () => {
  const rootless = parseEngineInfo('podman', fixture('podman-rootless.json'));

  it('keeps the runner’s ids inside a rootless Podman container', () => {
    expect(userNamespaceArgs(rootless, 1001, 1001)).toEqual(['--userns=keep-id:uid=1001,gid=1001']);
  });

  it('adds nothing for root with a rootless engine (a job container on it): root is already the engine’s user', () => {
    expect(userNamespaceArgs(rootless, 0, 0)).toEqual([]);
  });

  it('adds nothing for rootful engines', () => {
    expect(userNamespaceArgs(parseEngineInfo('podman', fixture('podman-rootful.json')), 0, 0)).toEqual([]);
    expect(userNamespaceArgs(parseEngineInfo('docker', fixture('docker.json')), 1001, 1001)).toEqual([]);
  });

  it('uses plain keep-id before Podman 4.3, for the invoking user only', () => {
    const old: EngineMode = { ...rootless, version: '4.2.0', keepIdOptions: false };
    expect(userNamespaceArgs(old, 1001, 1001)).toEqual(['--userns=keep-id']);
    expect(() => userNamespaceArgs(old, 1002, 1001)).toThrow(/maps only the invoking user \(1001:1001\)/);
  });

  it('refuses ids that are not ids', () => {
    expect(() => userNamespaceArgs(rootless, -1, 1001)).toThrow(/invalid uid/);
    expect(() => userNamespaceArgs(rootless, 1001, 1.5)).toThrow(/invalid gid/);
  });
});
