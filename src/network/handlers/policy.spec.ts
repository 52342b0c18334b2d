// The policy handler: the allow-list's decision, and for plain HTTP the framing rules and a Host header
// that must name the request's own host (the refusal names the host asked for).
import { describe, expect, it } from '@jest/globals';
import type * as http from 'node:http';
import type { Flow } from '../chain.js';
import { parseNetwork, type ProxiedPolicy } from '../policy.js';
import { policyHandler } from './policy.js';

const policy = parseNetwork('example.com') as ProxiedPolicy;
const check = policyHandler(policy).check!;
const flow = (host: string, isHttp: boolean, headers: Record<string, string> = {}, method = 'GET'): Flow => ({
  connectionId: 1,
  request: {
    method,
    url: `http://${host}/`,
    httpVersion: '1.1',
    headers,
    rawHeaders: Object.entries(headers).flat(),
  } as unknown as http.IncomingMessage,
  host,
  port: 443,
  isHttp,
  credentials: [],
});

describe('policyHandler', () => {
  it('lets through a host on the list and refuses one that is not', () => {
    expect(check(flow('example.com', false))).toBeUndefined();
    expect(check(flow('evil.test', false))).toMatchObject({ host: 'evil.test', status: 403 });
  });

  it("refuses a plain request whose Host header names another host, in that host's name", () => {
    expect(check(flow('example.com', true, { host: 'example.com' }))).toBeUndefined();
    expect(check(flow('example.com', true, { host: 'evil.test' }))).toEqual({
      host: 'evil.test',
      reason: "the Host header differs from the request's host example.com",
      status: 403,
    });
  });

  it('refuses ambiguous framing and echo methods before the list is asked', () => {
    expect(check(flow('evil.test', true, {}, 'TRACE'))).toMatchObject({ host: 'evil.test', status: 405 });
    const both = { host: 'example.com', 'content-length': '1', 'transfer-encoding': 'chunked' };
    expect(check(flow('example.com', true, both, 'POST'))).toMatchObject({ status: 400 });
  });
});
