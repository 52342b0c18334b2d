// Reading the reply as data, with real files of every kind a container could leave at its path.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { HOSTILE_REPLY } from '../../test/support/hostile-reply.js';
import { silentUi } from '../ui/ui.js';
import {
  makeReplyFolder,
  offerReplyFolder,
  readReply,
  removeReplyFolder,
  reportReply,
  REPLY_CONTAINER_DIR,
  REPLY_FILE_NAME,
  REPLY_MAX_BYTES,
} from './reply.js';

let temp: string;
let dir: string;
let file: string;

beforeEach(async () => {
  temp = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-reply-'));
  dir = (await makeReplyFolder(temp)).hostDir;
  file = path.join(dir, REPLY_FILE_NAME);
});

afterEach(() => {
  fs.rmSync(temp, { recursive: true, force: true });
});

/** Resolves within `ms`, or fails: a read that blocks must fail the test, not hang it. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('makeReplyFolder', () => {
  it('makes a private folder under worktree-sandbox, mounted at the fixed path and named by the variable', async () => {
    const folder = await makeReplyFolder(temp);
    expect(path.dirname(folder.hostDir)).toBe(path.join(temp, 'worktree-sandbox'));
    expect(fs.statSync(folder.hostDir).mode & 0o777).toBe(0o700);
    expect(folder.mount).toEqual({ type: 'bind', source: folder.hostDir, target: REPLY_CONTAINER_DIR });
    expect(folder.env).toEqual({ SANDBOX_REPLY_FILE: `${REPLY_CONTAINER_DIR}/${REPLY_FILE_NAME}` });
  });

  it('offers no folder, and says why, when the engine cannot see it', async () => {
    const offered = await offerReplyFolder(
      async () => () => {
        throw new Error('the file is inside the action’s own container');
      },
      temp,
    );
    expect(offered).toEqual({
      warning: expect.stringMatching(/^SANDBOX_REPLY_FILE was not offered: the file is inside/),
    });
    expect(
      fs.readdirSync(path.join(temp, 'worktree-sandbox')).filter((n) => n.startsWith('reply-')),
    ).toHaveLength(1);
  });
});

describe('readReply', () => {
  it('gives no reply and no warning when the command wrote none', async () => {
    expect(await readReply(dir)).toEqual({});
  });

  it('reads a plain file as it was written', async () => {
    fs.writeFileSync(file, HOSTILE_REPLY);
    expect(await readReply(dir)).toEqual({
      reply: { text: HOSTILE_REPLY, bytes: Buffer.byteLength(HOSTILE_REPLY), cut: false },
    });
  });

  it('does not follow a symbolic link to the runner’s files', async () => {
    const secret = path.join(temp, 'parent-secret.txt');
    fs.writeFileSync(secret, 'wts-parent-secret');
    fs.symlinkSync(secret, file);
    const read = await readReply(dir);
    expect(read).toEqual({ warning: 'The reply file is a symbolic link: not followed, no reply.' });
    expect(JSON.stringify(read)).not.toContain('wts-parent-secret');
  });

  it('neither waits on a FIFO nor reads it', async () => {
    execFileSync('mkfifo', [file]);
    const read = await within(5_000, readReply(dir));
    expect(read).toEqual({ warning: 'The reply file is a FIFO, not a plain file: not read, no reply.' });
  });

  it('refuses a folder and a socket', async () => {
    fs.mkdirSync(file);
    expect((await readReply(dir)).warning).toMatch(/is a folder, not a plain file/);
    fs.rmdirSync(file);
    const server = net.createServer().listen(file);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      expect(await within(5_000, readReply(dir))).toEqual({
        warning: 'The reply file could not be opened (ENXIO): no reply.',
      });
    } finally {
      server.close();
    }
  });

  it('reads at most 64 KiB of 10 MB, and says the cut', async () => {
    fs.writeFileSync(file, Buffer.alloc(10 * 1024 * 1024, 'y'));
    const read = await readReply(dir);
    expect(read.reply?.text).toBe('y'.repeat(REPLY_MAX_BYTES));
    expect(read.reply).toMatchObject({ bytes: 10 * 1024 * 1024, cut: true });
  });

  it('reads at most 64 KiB of a sparse file of a terabyte, at once', async () => {
    fs.closeSync(fs.openSync(file, 'w'));
    fs.truncateSync(file, 2 ** 40);
    const read = await within(5_000, readReply(dir));
    expect(read.reply).toMatchObject({ bytes: 2 ** 40, cut: true });
    expect(read.reply?.text).toHaveLength(REPLY_MAX_BYTES);
  });

  it('drops a character split by the cut, and replaces invalid bytes and NUL', async () => {
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0x61, 0, 0x62, 0xff]), Buffer.from('éééé')]));
    const head = await readReply(dir, 5);
    expect(head.reply).toEqual({ text: 'a\uFFFDb\uFFFD', bytes: 12, cut: true });
    expect((await readReply(dir)).reply?.text).toBe('a\uFFFDb\uFFFDéééé');
  });
});

describe('removeReplyFolder', () => {
  it('removes the folder whatever permissions the command left in it', async () => {
    fs.mkdirSync(path.join(dir, 'deep', 'er'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'deep', 'er', 'f'), 'x');
    execFileSync('mkfifo', [file]);
    fs.chmodSync(path.join(dir, 'deep', 'er'), 0);
    fs.chmodSync(path.join(dir, 'deep'), 0);
    fs.chmodSync(dir, 0);
    expect(await removeReplyFolder(dir)).toBeUndefined();
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('reportReply', () => {
  it('logs the reply fenced, no line of it a workflow command, every carriage return escaped', () => {
    const fenced: string[] = [];
    const warnings: string[] = [];
    const ui = {
      ...silentUi,
      fenced: (t: string) => fenced.push(t),
      warning: (m: string) => warnings.push(m),
    };
    reportReply(ui, { reply: { text: HOSTILE_REPLY, bytes: 70_000, cut: true } });
    expect(fenced).toHaveLength(1);
    expect(fenced[0]).not.toContain('\r');
    expect(fenced[0].split('\n').filter((line) => /^\s*(::|##\[)/.test(line))).toEqual([]);
    expect(fenced[0]).toContain('\\::error::wts-pwned-error');
    expect(warnings).toEqual([
      'The reply was cut: its file had 70,000 bytes, and only the first 65,536 were read.',
    ]);
  });
});
