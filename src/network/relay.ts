// The byte pump of the network path (the forwarder in the sidecar and the proxy's tunnels): a socket that
// reads straight into a buffer of its own (Node's `onread`) instead of a new 64 KiB buffer per read, each
// read written on as it is, and reading paused while that write is pending: less CPU per byte than
// `pipe()` (ADR 0009, "Moving the bytes"), and a slow reader holds the sender back: at most one buffer
// per connection and direction is in flight.
import type * as net from 'node:net';

/**
 * Reads of 64 KiB while a connection trickles; 256 KiB once a read fills that (a bulk transfer, where
 * fewer and larger reads and writes save CPU), for at most RELAY_LARGE_COUNT connections of a process at
 * a time (16 MiB), each keeping it until it closes.
 */
export const RELAY_SMALL_BYTES = 64 * 1024;
export const RELAY_LARGE_BYTES = 256 * 1024;
export const RELAY_LARGE_COUNT = 64;

/** What the relays of one process share: how many more large buffers they may take. */
export interface RelayBudget {
  large: number;
}

/**
 * The `onread` option of a socket whose bytes go to `sink()`. `self()` is that socket (paused and resumed
 * here). Written without imports or outer names: the forwarder's script carries this function's source
 * text (forwarder.ts), so that both ends of the path pump bytes the same way.
 */
export function relayReads(
  sink: () => net.Socket,
  self: () => net.Socket,
  sizes: { small: number; large: number },
  budget: RelayBudget,
): net.OnReadOpts {
  const small = Buffer.allocUnsafe(sizes.small);
  let buffer = small;
  let full = false;
  const resume = (error?: Error | null) => {
    if (!error) self().resume();
  };
  const giveBack = () => {
    buffer = small;
    budget.large++;
  };
  return {
    // Asked for before every read (after the first, with the socket connected).
    buffer: () => {
      if (full && buffer === small && budget.large > 0) {
        budget.large--;
        buffer = Buffer.allocUnsafe(sizes.large);
        self().once('close', giveBack);
      }
      return buffer;
    },
    callback: (length: number, read: Uint8Array) => {
      full = length === read.length;
      const to = sink();
      to.write(read.subarray(0, length), resume);
      // All written at once: the kernel has the bytes and the buffer is free for the next read.
      // Otherwise the write still reads from it: reading stops until the write is done (`resume`).
      return to.writableLength === 0;
    },
  };
}

/**
 * One connection through the relay: `near`'s bytes piped to `far`; `far` reads with `relayReads` into
 * `near`. An error ends both; one side's close ends the other gracefully (what was written still goes
 * out), and resumes it so that it reads to its end and closes too. Written without imports or outer
 * names, like `relayReads`.
 */
export function joinSockets(near: net.Socket, far: net.Socket): void {
  const fail = () => {
    near.destroy();
    far.destroy();
  };
  near.on('error', fail);
  far.on('error', fail);
  far.on('end', () => near.end());
  near.on('close', () => {
    far.resume();
    far.end();
  });
  far.on('close', () => {
    near.resume();
    near.end();
  });
  near.pipe(far);
  far.resume();
}
