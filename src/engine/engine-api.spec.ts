import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { apiGet, cliSocket, imageThere, volumeThere } from './engine-api.js';

describe('cliSocket: the socket the Docker CLI would use, only when that is sure', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  /** A DOCKER_CONFIG folder with this config.json (none for undefined). */
  const configDir = (config?: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-docker-config-'));
    dirs.push(dir);
    if (config !== undefined) fs.writeFileSync(path.join(dir, 'config.json'), config);
    return dir;
  };

  it('the default socket with no variable and no context', () => {
    expect(cliSocket('docker', { DOCKER_CONFIG: configDir() })).toBe('/var/run/docker.sock');
    expect(cliSocket('docker', { DOCKER_CONFIG: configDir('{"auths":{}}') })).toBe('/var/run/docker.sock');
    expect(cliSocket('docker', { DOCKER_CONFIG: configDir('{"currentContext":"default"}') })).toBe(
      '/var/run/docker.sock',
    );
    const home = configDir();
    fs.mkdirSync(path.join(home, '.docker'));
    expect(cliSocket('docker', { HOME: home })).toBe('/var/run/docker.sock');
  });

  it("DOCKER_HOST's socket when it names one", () => {
    expect(cliSocket('docker', { DOCKER_HOST: 'unix:///run/user/1001/docker.sock' })).toBe(
      '/run/user/1001/docker.sock',
    );
  });

  it('none for another endpoint, a context, a config it cannot read, or Podman', () => {
    for (const env of [
      { DOCKER_HOST: 'tcp://127.0.0.1:2376' },
      { DOCKER_HOST: 'ssh://runner@host' },
      { DOCKER_HOST: 'unix://relative.sock' },
      { DOCKER_CONTEXT: 'remote' },
      { DOCKER_CONTEXT: 'remote', DOCKER_HOST: 'unix:///var/run/docker.sock' },
      { DOCKER_CONFIG: configDir('{"currentContext":"rootless"}') },
      { DOCKER_CONFIG: configDir('{not json') },
      { DOCKER_CONFIG: configDir('[]') },
    ])
      expect([env, cliSocket('docker', env)]).toEqual([env, undefined]);
    expect(cliSocket('podman', { DOCKER_CONFIG: configDir() })).toBeUndefined();
  });
});

describe('questions to an API on a socket: a sure yes, or undefined', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-engine-api-'));
  const socket = path.join(dir, 'engine.sock');
  const asked: string[] = [];
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const url = request.url ?? '';
      asked.push(url);
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (url === '/images/debian:bookworm/json') return json(200, { Id: 'sha256:abc' });
      if (url === '/images/ghcr.io/owner/image:tag/json') return json(200, { Id: 'sha256:def' });
      if (url === '/images/no-id/json') return json(200, { RepoTags: [] });
      if (url === '/volumes/there') return json(200, { Name: 'there', Driver: 'local' });
      if (url === '/volumes/other') return json(200, { Name: 'someone-else' });
      if (url === '/volumes/huge') return json(200, { Name: 'huge', pad: 'x'.repeat(300 * 1024) });
      if (url === '/volumes/broken') {
        response.writeHead(200);
        return response.end('{"Name": "bro');
      }
      if (url === '/volumes/hangs') return; // never answers
      json(404, { message: 'no such thing' });
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says yes to what the engine describes under that very name', async () => {
    expect(await imageThere(socket, 'debian:bookworm')).toBe(true);
    expect(await imageThere(socket, 'ghcr.io/owner/image:tag')).toBe(true);
    expect(await volumeThere(socket, 'there')).toBe(true);
  });

  it('leaves every other answer to the CLI: missing, another name, no id, cut short, too large, an error', async () => {
    expect(await imageThere(socket, 'missing:latest')).toBeUndefined();
    expect(await imageThere(socket, 'no-id')).toBeUndefined();
    expect(await volumeThere(socket, 'missing')).toBeUndefined();
    expect(await volumeThere(socket, 'other')).toBeUndefined();
    expect(await volumeThere(socket, 'broken')).toBeUndefined();
    expect(await volumeThere(socket, 'huge')).toBeUndefined();
    expect(await volumeThere(path.join(dir, 'no-such.sock'), 'there')).toBeUndefined();
    expect(await volumeThere(undefined, 'there')).toBeUndefined();
  });

  it('gives up on an engine that does not answer within the limit', async () => {
    const started = Date.now();
    expect(await apiGet(socket, '/volumes/hangs', 300)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('never puts a name outside its path: such names are not asked at all', async () => {
    const before = asked.length;
    for (const name of ['../containers/json', 'a/../../b', '-x', 'a b', 'a?x=1', 'a#b', '', 'a%2F..'])
      expect([name, await imageThere(socket, name), await volumeThere(socket, name)]).toEqual([
        name,
        undefined,
        undefined,
      ]);
    expect(asked.length).toBe(before);
  });
});
