import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProcError, runProcess, runStreaming, startPiped } from './proc.js';

describe('runProcess', () => {
  const savedPath = process.env.PATH;
  let bin: string;

  beforeEach(() => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-proc-'));
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(bin, { recursive: true, force: true });
  });

  function tool(name: string, script: string): void {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  }

  it('runs a tool found on PATH with the given arguments and environment only', async () => {
    tool('wts-echo', 'printf "%s|%s|%s" "$1" "$2" "${ONLY:-}${HOME:-}"');
    process.env.PATH = `${bin}:${savedPath}`;
    const result = await runProcess('wts-echo', ['a b', '--'], { env: { ONLY: 'x' } });
    expect(result).toEqual({ exitCode: 0, stdout: 'a b|--|x', stderr: '' });
  });

  it('looks the tool up again when PATH changes, and does not remember a failed lookup', async () => {
    process.env.PATH = savedPath;
    await expect(runProcess('wts-late', [], { env: {} })).rejects.toBeInstanceOf(ProcError);
    tool('wts-late', 'echo first');
    process.env.PATH = `${bin}:${savedPath}`;
    expect((await runProcess('wts-late', [], { env: {} })).stdout.trim()).toBe('first');

    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-proc-'));
    try {
      fs.writeFileSync(path.join(other, 'wts-late'), '#!/bin/sh\necho second\n', { mode: 0o755 });
      process.env.PATH = `${other}:${savedPath}`;
      expect((await runProcess('wts-late', [], { env: {} })).stdout.trim()).toBe('second');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('reports a non-zero exit without throwing', async () => {
    tool('wts-fail', 'echo oops >&2; exit 3');
    process.env.PATH = `${bin}:${savedPath}`;
    expect(await runProcess('wts-fail', [], { env: {} })).toEqual({
      exitCode: 3,
      stdout: '',
      stderr: 'oops\n',
    });
  });
});

describe('runStreaming with a time limit', () => {
  it('kills the whole process group when the limit runs out, children included', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-proc-'));
    const pidFile = path.join(dir, 'child');
    try {
      const started = Date.now();
      // The child keeps stdout open: without the group kill, the pipe would never close.
      const result = await runStreaming('sh', ['-c', `sleep 30 & echo $! > "${pidFile}"; wait`], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        timeLimitMs: 300,
      });
      expect(result.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      const child = Number(fs.readFileSync(pidFile, 'utf8'));
      // Gone, or a zombie nobody has reaped yet (its parent was killed too): not running either way.
      const state = fs.existsSync(`/proc/${child}/stat`)
        ? fs.readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]?.[0]
        : 'gone';
      expect(['gone', 'Z', 'X']).toContain(state);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says nothing of a time limit when the process finishes within it', async () => {
    const result = await runStreaming('sh', ['-c', 'echo done'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeLimitMs: 10_000,
      onLine: () => undefined,
    });
    expect(result).toMatchObject({ exitCode: 0, outputTail: ['done'] });
    expect(result.timedOut).toBeUndefined();
  });
});

describe('startPiped', () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

  it('answers questions in order: a header line, then a body of exact size, across chunks', async () => {
    // Each line asked for is answered with its length and a body of that many bytes (one large).
    const script = 'while read -r n; do echo "size $n"; head -c "$n" /dev/zero | tr "\\0" x; echo; done';
    const p = await startPiped('sh', ['-c', script], { env, timeoutMs: 10_000 });
    for (const n of [3, 1_000_000, 0, 5]) {
      p.send(`${n}\n`);
      expect(await p.readLine()).toBe(`size ${n}`);
      const body = await p.read(n + 1);
      expect(body.length).toBe(n + 1);
      expect(body.subarray(0, n).every((b) => b === 120)).toBe(true);
    }
    expect(await p.close()).toBe(0);
  });

  it('fails a read when the process ends, when a line is too long, and when time is up', async () => {
    const quits = await startPiped('sh', ['-c', 'echo one; exit 0'], { env, timeoutMs: 10_000 });
    expect(await quits.readLine()).toBe('one');
    await expect(quits.readLine()).rejects.toThrow(/ended/);

    const long = await startPiped('sh', ['-c', 'head -c 10000 /dev/zero | tr "\\0" y; echo'], {
      env,
      timeoutMs: 10_000,
    });
    await expect(long.readLine(100)).rejects.toThrow(/over 100 bytes/);
    long.kill();

    const slow = await startPiped('sh', ['-c', 'sleep 30'], { env, timeoutMs: 300 });
    const started = Date.now();
    await expect(slow.readLine()).rejects.toThrow(/longer than 0.3 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
