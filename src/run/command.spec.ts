// When the command's container goes: a container that has exited writes nothing more, so its removal may
// go on while the work is imported (the caller awaits it); one that may still run, or that a proxy's
// sidecar must outlive, is removed before runCommand returns. The engine is a fake: what is proved is the
// order of the steps, which a real engine would only make slower to see.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ContainerState } from '../engine/engine-commands.js';
import { containerNotePath } from '../sandbox/lock.js';
import { locateSandbox, type Sandbox } from '../sandbox/layout.js';
import { fakeEngine } from '../../test/support/fakes.js';
import { runCommand, type CommandSpec } from './command.js';
import { REPLY_FILE_NAME } from './reply.js';
import type { NetworkSession } from '../network/session.js';

const who = { name: 'bot', email: 'bot@example.com' };
const spec: CommandSpec = {
  command: 'true',
  image: 'image',
  env: [],
  limits: { pidsLimit: 64, network: 'none', readOnlyRootfs: false },
  timeoutMinutes: 0,
  author: who,
  committer: who,
};
const exitedState: ContainerState = {
  exitCode: 3,
  oomKilled: false,
  running: false,
  status: 'exited',
  started: true,
  error: '',
};

let root: string;
let sandbox: Sandbox;
let savedTemp: string | undefined;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'wts-command-'));
  const parent = {
    path: root,
    gitDir: path.join(root, '.git'),
    objectStores: [path.join(root, '.git', 'objects')],
  };
  fs.mkdirSync(parent.objectStores[0], { recursive: true });
  sandbox = locateSandbox(
    { sandbox: 'exploration-0000000a', kind: 'transient', branch: '' },
    parent,
    'disk',
    path.join(root, 'worktrees'),
    'wts',
  );
  savedTemp = process.env.RUNNER_TEMP;
  process.env.RUNNER_TEMP = root;
});
afterEach(() => {
  if (savedTemp === undefined) delete process.env.RUNNER_TEMP;
  else process.env.RUNNER_TEMP = savedTemp;
  fs.rmSync(root, { recursive: true, force: true });
});

/** A removal the test lets finish (`finish`), and whether it has. */
function heldRemoval() {
  let finish!: () => void;
  const held = new Promise<boolean>((resolve) => (finish = () => resolve(true)));
  return { held, finish };
}

/** An engine whose command writes a reply and exits with `state`; its removal waits for the test. */
function engineFor(state: ContainerState, removal: Promise<boolean>) {
  const engine = fakeEngine();
  const order: string[] = [];
  engine.bindSource.mockResolvedValue((file) => file);
  engine.runArgs.mockResolvedValue(['run']);
  engine.stream.mockImplementation(async () => {
    const base = path.join(root, 'worktree-sandbox');
    const folder = fs.readdirSync(base).find((name) => name.startsWith('reply-'))!;
    fs.writeFileSync(path.join(base, folder, REPLY_FILE_NAME), 'done\n');
    return { exitCode: state.exitCode, stderrTail: [], outputTail: ['out'], stdoutBytes: 4 };
  });
  engine.containerState.mockResolvedValue(state);
  engine.removeContainer.mockImplementation(async () => {
    const gone = await removal;
    order.push('removed');
    return gone;
  });
  return { engine, order };
}

const notePath = () => containerNotePath(sandbox.parent.gitDir, sandbox.name);

describe('runCommand: the container goes', () => {
  it('while the work is imported, once it has exited: the reply is read, the removal handed over, the note kept until it is gone', async () => {
    const { held, finish } = heldRemoval();
    const { engine } = engineFor(exitedState, held);
    const handed: Promise<void>[] = [];
    const result = await runCommand(
      engine,
      sandbox,
      { ...spec, containerName: 'c1' },
      {
        removeLater: (removal) => handed.push(removal),
      },
    );
    expect(result.exitCode).toBe(3);
    expect(result.reply?.reply?.text).toBe('done\n');
    expect(handed).toHaveLength(1);
    expect(engine.removeContainer).toHaveBeenCalledWith('c1');
    // Not removed yet: the note that names the container is still there for a killed run's successor.
    expect(fs.readFileSync(notePath(), 'utf8')).toBe('c1\n');
    finish();
    await handed[0];
    expect(fs.existsSync(notePath())).toBe(false);
  }, 10_000);

  it.each([
    ['no caller takes the removal', exitedState, false, false],
    ['the engine says it still runs', { ...exitedState, running: true }, true, false],
    ['a proxy sidecar must outlive it', exitedState, true, true],
  ])(
    'before runCommand returns when %s',
    async (_, state, offered, proxied) => {
      const { held, finish } = heldRemoval();
      const { engine, order } = engineFor(state, held);
      const handed: Promise<void>[] = [];
      const network: NetworkSession | undefined = proxied
        ? {
            env: {},
            readOnlyFiles: [],
            joinNetworkOf: 'sidecar',
            stop: async () => {
              order.push('proxy stopped');
              return { allowed: [], denied: [], uncounted: 0 };
            },
          }
        : undefined;
      let returned = false;
      const running = runCommand(
        engine,
        sandbox,
        { ...spec, containerName: 'c2', network },
        {
          ...(offered ? { removeLater: (removal: Promise<void>) => handed.push(removal) } : {}),
        },
      ).then((result) => {
        returned = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(returned).toBe(false);
      finish();
      const result = await running;
      expect(handed).toHaveLength(0);
      if (proxied) expect(result.network).toEqual({ allowed: [], denied: [], uncounted: 0 });
      expect(result.reply?.reply?.text).toBe('done\n');
      expect(order).toEqual(proxied ? ['removed', 'proxy stopped'] : ['removed']);
      expect(fs.existsSync(notePath())).toBe(false);
    },
    10_000,
  );
});
