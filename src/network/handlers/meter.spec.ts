// The meter handler: only plain requests to a model API are taken (a CONNECT, or a request that is not a
// model API's, passes on); on a host with a key every POST counts, and one whose usage cannot be read is
// answered here with the API's own 429 under a token cap, before anything is sent.
import { describe, expect, it, jest } from '@jest/globals';
import type * as http from 'node:http';
import type { Flow } from '../chain.js';
import { ModelMeter } from '../model-meter.js';
import type { Credential } from '../policy.js';
import { meterHandler } from './meter.js';

const key: Credential = {
  host: 'llm.test',
  ports: [80],
  scheme: 'http',
  header: 'x-api-key',
  value: 'k',
} as Credential;
const flow = (url: string, isHttp = true, credentials: Credential[] = []): Flow => ({
  connectionId: 1,
  request: { method: 'POST', url, rawHeaders: [], resume: jest.fn() } as unknown as http.IncomingMessage,
  host: 'llm.test',
  port: 80,
  isHttp,
  credentials,
});

describe('meterHandler', () => {
  const served: http.ServerResponse[] = [];
  const servePlain = jest.fn(
    async (_req: http.IncomingMessage, serve: (res: http.ServerResponse) => Promise<void>) => {
      const res = { writeHead: jest.fn(), end: jest.fn() } as unknown as http.ServerResponse;
      served.push(res);
      await serve(res);
      return { statusCode: 429 };
    },
  );

  it("passes on a CONNECT and a request that is not a model API's", () => {
    const handler = meterHandler(new ModelMeter({ maxRequests: 0, maxTokens: 10 }), servePlain);
    expect(handler.route!(flow('http://llm.test/v1/messages', false))).toBeUndefined();
    expect(handler.route!(flow('http://llm.test/upload'))).toBeUndefined();
  });

  it('refuses, on a host with a key and under a token cap, a POST whose usage it cannot read', async () => {
    const handler = meterHandler(new ModelMeter({ maxRequests: 0, maxTokens: 10 }), servePlain);
    const route = (await handler.route!(flow('http://llm.test/upload', true, [key])))!;
    await route.customResponseFunction!();
    const res = served.at(-1)!;
    expect(res.writeHead).toHaveBeenCalledWith(429, expect.objectContaining({ 'x-should-retry': 'false' }));
    expect(String((res.end as jest.Mock).mock.calls[0][0])).toContain('insufficient_quota');
  });
});
