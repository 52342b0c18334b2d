import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContainerState } from '../engine/engine-commands.js';
import type { Sandbox } from '../sandbox/layout.js';
import { fakeEngine } from '../../test/support/fakes.js';
import { tempDir } from '../../test/support/repo.js';
import { runCommand, type CommandSpec } from './command.js';

// Which engine questions follow the command's container: its state always; the engine's log of it (its
// last lines, when the output went straight to the step's log) only when they are read or it ran badly.
describe("runCommand's questions after the container", () => {
  const dir = tempDir('wts-command-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const parent = {
    path: dir,
    gitDir: path.join(dir, '.git'),
    objectStores: [path.join(dir, '.git', 'objects')],
  };
  const sandbox = {
    name: 'exploration-1',
    kind: 'exploration',
    branch: '',
    isolation: 'container',
    volume: 'wts-exploration-1',
    worktreePath: '/sandbox/worktree',
    homePath: '/sandbox/home',
    project: 'p',
    parent,
  } as unknown as Sandbox;
  const spec: CommandSpec = {
    command: 'true',
    image: 'img',
    env: [],
    limits: {} as CommandSpec['limits'],
    timeoutMinutes: 0,
    author: { name: 'a', email: 'a@example.com' },
    committer: { name: 'a', email: 'a@example.com' },
  };
  const ran = (state: Partial<ContainerState> | undefined) => {
    const engine = fakeEngine();
    engine.bindSource.mockResolvedValue((file) => file);
    engine.runArgs.mockResolvedValue(['run']);
    engine.stream.mockResolvedValue({ exitCode: 0, stderrTail: [], outputTail: [], stdoutBytes: 0 });
    engine.containerState.mockResolvedValue(
      state && {
        exitCode: 0,
        oomKilled: false,
        running: false,
        status: 'exited',
        started: true,
        error: '',
        ...state,
      },
    );
    engine.containerExists.mockResolvedValue(true);
    engine.logTail.mockResolvedValue(['last line']);
    engine.removeContainer.mockResolvedValue(true);
    return engine;
  };

  it('asks for the log beside the state when the tail is wanted', async () => {
    const engine = ran({});
    const result = await runCommand(engine, sandbox, spec, { outputFd: 1, tail: true });
    expect(result.tail).toEqual(['last line']);
    expect(engine.logTail).toHaveBeenCalledTimes(1);
  });

  it('does not ask for the log of a command that ran and is not shown', async () => {
    for (const state of [{}, { exitCode: 3 }]) {
      const engine = ran(state);
      const result = await runCommand(engine, sandbox, spec, { outputFd: 1 });
      expect(result).toMatchObject({ exitCode: state.exitCode ?? 0, tail: [] });
      expect(engine.logTail).not.toHaveBeenCalled();
      expect(engine.containerState).toHaveBeenCalledTimes(1);
    }
  });

  it('asks for it when the command did not run, for what the engine said', async () => {
    const tini = ran({ exitCode: 127 });
    tini.logTail.mockResolvedValue(['[FATAL tini (7)] exec sh failed: No such file or directory']);
    await expect(runCommand(tini, sandbox, spec, { outputFd: 1 })).rejects.toThrow(
      /started but its command did not \(docker exit 127\): \[FATAL tini \(7\)\] exec sh failed/,
    );
    const refused = ran({ started: false, error: 'no such image' });
    await expect(runCommand(refused, sandbox, spec, { outputFd: 1 })).rejects.toThrow(/did not start/);
    expect(refused.logTail).toHaveBeenCalledTimes(1);
    const none = ran(undefined);
    none.stream.mockResolvedValue({ exitCode: 125, stderrTail: [], outputTail: [], stdoutBytes: 0 });
    await expect(runCommand(none, sandbox, spec, { outputFd: 1 })).rejects.toThrow(
      /did not start \(docker exit 125\): last line/,
    );
  });

  it('takes the tail from the lines it read itself when the output passed through it', async () => {
    const engine = ran({});
    engine.stream.mockResolvedValue({
      exitCode: 0,
      stderrTail: [],
      outputTail: ['read here'],
      stdoutBytes: 0,
    });
    const result = await runCommand(engine, sandbox, spec, { onLine: () => undefined });
    expect(result.tail).toEqual(['read here']);
    expect(engine.logTail).not.toHaveBeenCalled();
  });
});
