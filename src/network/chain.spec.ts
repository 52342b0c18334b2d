// The chain's order: every check before any route, a refusal told to every handler and answered with its
// status (the host cut to its bound), the first route taken, none when no handler takes the request.
import { describe, expect, it, jest } from '@jest/globals';
import type * as http from 'node:http';
import { runChain, type Flow, type Handler } from './chain.js';

const flow = (host = 'example.com'): Flow => ({
  connectionId: 1,
  request: {} as http.IncomingMessage,
  host,
  port: 443,
  isHttp: false,
  credentials: [],
});

describe('runChain', () => {
  it('runs every check, then tells each handler the request was allowed, then takes the first route', async () => {
    const calls: string[] = [];
    const handlers: Handler[] = [
      { check: () => void calls.push('check 1'), route: () => void calls.push('route 1') },
      {
        check: () => void calls.push('check 2'),
        allowed: () => void calls.push('allowed 2'),
        route: () => (calls.push('route 2'), { customConnectServer: {} as http.Server }),
      },
      { route: () => void calls.push('route 3') },
    ];
    const route = await runChain(handlers, flow());
    expect(route?.customConnectServer).toBeDefined();
    expect(calls).toEqual(['check 1', 'check 2', 'allowed 2', 'route 1', 'route 2']);
  });

  it('refuses at the first failed check: every handler hears of it, none allows or routes it', async () => {
    const refused = jest.fn();
    const later = {
      check: jest.fn<NonNullable<Handler['check']>>(),
      allowed: jest.fn(),
      route: jest.fn<NonNullable<Handler['route']>>(),
      refused,
    };
    const handlers: Handler[] = [
      { check: () => ({ host: 'x'.repeat(300), reason: 'not on the list', status: 403 }), refused },
      later,
    ];
    const error = await runChain(handlers, flow()).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 403 });
    expect((error as Error).message).toBe(
      `worktree-sandbox network: ${'x'.repeat(253)}:443 refused (not on the list)`,
    );
    expect(refused.mock.calls).toEqual([
      ['x'.repeat(253), 443, 'not on the list'],
      ['x'.repeat(253), 443, 'not on the list'],
    ]);
    expect(later.check).not.toHaveBeenCalled();
    expect(later.allowed).not.toHaveBeenCalled();
    expect(later.route).not.toHaveBeenCalled();
  });

  it('gives no route when no handler takes the request (proxy-chain tunnels or forwards it)', async () => {
    await expect(runChain([{ route: () => undefined }], flow())).resolves.toBeUndefined();
  });
});
