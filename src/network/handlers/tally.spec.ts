// The tally handler: a request let through counts in its host's row, a refusal in its reason's, and a
// connection's bytes land in the row it counted in, once.
import { describe, expect, it } from '@jest/globals';
import type * as http from 'node:http';
import { Tally } from '../tally.js';
import { tallyHandler } from './tally.js';

describe('tallyHandler', () => {
  it("counts requests, refusals and each connection's bytes in its row", () => {
    const tally = new Tally();
    const handler = tallyHandler(tally);
    const flow = {
      connectionId: 7,
      request: {} as http.IncomingMessage,
      host: 'a.test',
      port: 443,
      isHttp: false,
      credentials: [],
    };
    handler.allowed!(flow);
    handler.allowed!({ ...flow, connectionId: 8 });
    handler.refused!('b.test', 80, 'not on the list');
    handler.closed!(7, { srcRxBytes: 10, srcTxBytes: 20 });
    handler.closed!(7, { srcRxBytes: 10, srcTxBytes: 20 });
    handler.closed!(9, { srcRxBytes: 1, srcTxBytes: 1 });
    expect(tally.report()).toEqual({
      allowed: [{ host: 'a.test', port: 443, requests: 2, bytesSent: 10, bytesReceived: 20 }],
      denied: [{ host: 'b.test', port: 80, requests: 1, reason: 'not on the list' }],
      uncounted: 0,
    });
  });
});
