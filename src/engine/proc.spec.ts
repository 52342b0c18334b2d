import { jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { processRunning } from '../../test/support/processes.js';
import { startPiped } from './piped-process.js';
import { ProcError, ProcTimeLimitError, programName, runProcess, runStreaming } from './proc.js';

const limit = { ms: 10_000, purpose: 'a test' };
/** The clock's own setTimeout, for real pauses while Jest's fake timers stand in for it. */
const realSetTimeout = setTimeout;

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
    const result = await runProcess('wts-echo', ['a b', '--'], { env: { ONLY: 'x' }, limit });
    expect(result).toEqual({ exitCode: 0, stdout: 'a b|--|x', stderr: '' });
  });

  it('looks the tool up again when PATH changes, and does not remember a failed lookup', async () => {
    process.env.PATH = savedPath;
    await expect(runProcess('wts-late', [], { env: {}, limit })).rejects.toBeInstanceOf(ProcError);
    tool('wts-late', 'echo first');
    process.env.PATH = `${bin}:${savedPath}`;
    expect((await runProcess('wts-late', [], { env: {}, limit })).stdout.trim()).toBe('first');

    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-proc-'));
    try {
      fs.writeFileSync(path.join(other, 'wts-late'), '#!/bin/sh\necho second\n', { mode: 0o755 });
      process.env.PATH = `${other}:${savedPath}`;
      expect((await runProcess('wts-late', [], { env: {}, limit })).stdout.trim()).toBe('second');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('reports a non-zero exit without throwing', async () => {
    tool('wts-fail', 'echo oops >&2; exit 3');
    process.env.PATH = `${bin}:${savedPath}`;
    expect(await runProcess('wts-fail', [], { env: {}, limit })).toEqual({
      exitCode: 3,
      stdout: '',
      stderr: 'oops\n',
    });
  });
});

describe('runProcess time limit', () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-proc-limit-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('kills a program that sleeps past its limit, and every program it started, and says what and why', async () => {
    const pids = path.join(dir, 'pids');
    const started = Date.now();
    // The program starts a child that holds its output open, as git's remote helper or ssh would.
    const run = runProcess('sh', ['-c', `sleep 60 & echo $$ $! > "${pids}"; wait`], {
      env,
      limit: { ms: 400, purpose: 'waiting on a remote that never answers' },
    });
    const error = await run.catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(ProcTimeLimitError);
    expect((error as Error).message).toBe(
      'sh (waiting on a remote that never answers) ran out of its time limit (0.4 s) and was killed, with every program it started.',
    );
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(5_000);
    const [leader, child] = fs.readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    expect(processRunning(leader)).toBe(false);
    expect(processRunning(child)).toBe(false);
  });

  it('is not a ProcError (which means "not installed"), and names the sub-command', async () => {
    const error = await runProcess('sh', ['-c', 'sleep 30'], { env, limit: { ms: 200, purpose: 'p' } }).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(ProcError);
    expect(programName('/usr/bin/git', ['fetch', '--quiet'])).toBe('git fetch');
    expect(programName('ldd', ['--', '/bin/sh'])).toBe('ldd');
    expect(programName('docker', ['image', 'inspect'])).toBe('docker image');
  });

  it('returns the output of a program that ends within its limit, with its input, and kills nothing', async () => {
    const started = Date.now();
    const result = await runProcess('sh', ['-c', 'cat; echo err >&2; exit 4'], {
      env,
      input: Buffer.from('in\n'),
      limit: { ms: 10_000, purpose: 'p' },
    });
    expect(result).toEqual({ exitCode: 4, stdout: 'in\n', stderr: 'err\n' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('leaves a program that ended alone when the limit runs out later, even if what it left runs on', async () => {
    const pids = path.join(dir, 'pids');
    // The program and what it leaves are real; the limit runs on a fake clock, moved past it once it ended.
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'],
    });
    try {
      // The leader exits at once; its child closes the pipes and lives on (a daemon it meant to start).
      const result = await runProcess(
        'sh',
        ['-c', `sleep 3 </dev/null >/dev/null 2>&1 & echo $! > "${pids}"; echo ok`],
        { env, limit: { ms: 1_000, purpose: 'p' } },
      );
      expect(result.stdout).toBe('ok\n');
      await jest.advanceTimersByTimeAsync(1_200);
    } finally {
      jest.useRealTimers();
    }
    // A kill sent when the limit ran out would have landed by now.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const child = Number(fs.readFileSync(pids, 'utf8'));
    expect(processRunning(child)).toBe(true);
    process.kill(child, 'SIGKILL');
  });

  it('does not wait forever for pipes a program it left behind holds open after it exited', async () => {
    // git's `fetch` left a helper holding stdout: the output so far is taken once the grace is over (10 s).
    // The program, what it left behind and the pipes are real; the grace runs on a fake clock.
    const pids = path.join(dir, 'pids');
    const pause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'],
    });
    try {
      let settled = false;
      const result = runProcess('sh', ['-c', `sleep 30 & echo $! > "${pids}"; echo ok`], {
        env,
        limit: { ms: 60_000, purpose: 'p' },
      });
      const done = result.then(
        () => (settled = true),
        () => (settled = true),
      );
      // The leader has exited once the grace's timer is set beside the limit's; its output is read meanwhile.
      for (let i = 0; i < 500 && jest.getTimerCount() < 2; i++) await pause(20);
      expect(jest.getTimerCount()).toBe(2);
      await pause(200);
      await jest.advanceTimersByTimeAsync(9_900);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(200);
      await done;
      expect(await result).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    } finally {
      jest.useRealTimers();
      process.kill(Number(fs.readFileSync(pids, 'utf8')), 'SIGKILL');
    }
  }, 20_000);
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
      expect(processRunning(child)).toBe(false);
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

    // The kill reaches `sh` only: the `sleep` it started holds stdout open, and the read fails all the same.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-piped-'));
    const pids = path.join(dir, 'pids');
    try {
      const slow = await startPiped('sh', ['-c', `sleep 30 & echo $! > "${pids}"; wait`], {
        env,
        timeoutMs: 300,
      });
      const started = Date.now();
      await expect(slow.readLine()).rejects.toThrow(/longer than 0.3 s/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      // Left running, it would hold this worker's end of the pipe open for 30 s, past the end of the run.
      if (fs.existsSync(pids)) process.kill(Number(fs.readFileSync(pids, 'utf8')), 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
