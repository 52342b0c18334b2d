// A client of the proxy's Unix socket, for the specs of the proxy and of its byte pump.
import * as http from 'node:http';

/** Sends `CONNECT target` to the proxy on `socketPath`; its status (the tunnel, if any, is closed). */
export function connectStatus(socketPath: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'CONNECT', path: target, agent: false });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
