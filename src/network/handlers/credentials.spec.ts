// The credentials handler: a key goes over TLS only unless its line named http://; a tunnel to a host with
// a key is ended by its interceptor; a plain request carries its host's http:// keys, on their ports only,
// replacing any header of the same name the command sent.
import { describe, expect, it, jest } from '@jest/globals';
import type * as http from 'node:http';
import type { Flow } from '../chain.js';
import type { Interceptors } from '../interceptor.js';
import { parseCredentials, parseNetwork, type Credential } from '../policy.js';
import { credentialsHandler, setCredentials } from './credentials.js';

const policy = parseCredentials(
  'api.test X-Api-Key: over-tls\nhttp://svc.test:8080 X-Api-Key: in-clear',
  parseNetwork('api.test, svc.test:8080'),
);
const { credentials } = policy as { credentials: Credential[] };
const server = {} as http.Server;
const get = jest.fn(async (_host: string, _port: number, _scheme: string) => server);
const handler = credentialsHandler(credentials, { get } as unknown as Interceptors);
const flow = (host: string, port: number, isHttp: boolean, rawHeaders: string[] = []): Flow => ({
  connectionId: 1,
  request: { rawHeaders } as unknown as http.IncomingMessage,
  host,
  port,
  isHttp,
  credentials: [],
});

describe('credentialsHandler', () => {
  it('refuses plain HTTP to a host whose key goes over TLS only', () => {
    expect(handler.check!(flow('api.test', 443, true))).toMatchObject({ host: 'api.test', status: 403 });
    expect(handler.check!(flow('api.test', 443, false))).toBeUndefined();
    expect(handler.check!(flow('svc.test', 8080, true))).toBeUndefined();
  });

  it('ends a tunnel to a host with a key in its interceptor, by the scheme its line named', async () => {
    await expect(handler.route!(flow('api.test', 443, false))).resolves.toEqual({
      customConnectServer: server,
    });
    expect(get).toHaveBeenLastCalledWith('api.test', 443, 'https');
    await expect(handler.route!(flow('svc.test', 8080, false))).resolves.toEqual({
      customConnectServer: server,
    });
    expect(get).toHaveBeenLastCalledWith('svc.test', 8080, 'http');
    await expect(handler.route!(flow('other.test', 443, false))).resolves.toBeUndefined();
  });

  it("sets a plain request's keys, on their ports only, in place of the command's own header", async () => {
    const onPort = flow('svc.test', 8080, true, ['Host', 'svc.test:8080', 'x-api-key', 'forged']);
    await expect(handler.route!(onPort)).resolves.toBeUndefined();
    setCredentials(onPort);
    expect(onPort.request.rawHeaders).toEqual(['Host', 'svc.test:8080', 'X-Api-Key', 'in-clear']);
    const otherPort = flow('svc.test', 80, true, ['x-api-key', 'mine']);
    await handler.route!(otherPort);
    setCredentials(otherPort);
    expect(otherPort.request.rawHeaders).toEqual(['x-api-key', 'mine']);
  });
});
