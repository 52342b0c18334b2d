import { describe, expect, it } from '@jest/globals';
import { fakeEngine } from '../../test/support/fakes.js';
import { EngineError } from './engine-error.js';
import { listContainers } from './inventory.js';

/** One line of the `container inspect` format listContainers asks for. */
const line = (name: string, status: string, running: boolean, network: string, mounts: unknown) =>
  JSON.stringify([name, status, running, network, mounts]);

describe('listing containers', () => {
  it('asks the engine twice whatever their number, and reads each one: name, state, network, mounts', async () => {
    const engine = fakeEngine();
    engine.run.mockResolvedValue('id1\nid2\n');
    engine.exec.mockResolvedValue({
      exitCode: 0,
      stderr: '',
      stdout: [
        line('/worktree-sandbox-a-0a1b2c', 'running', true, 'container:0123', [
          { Type: 'volume', Name: 'wts-v1', Source: '/var/lib/docker/volumes/wts-v1/_data' },
          { Type: 'bind', Source: '/home/runner/a path with spaces" and a quote' },
        ]),
        line('worktree-sandbox-a-0a1b2c-net', 'exited', false, 'none', null),
      ].join('\n'),
    });

    const listed = await listContainers(engine, 'worktree-sandbox.role=command');

    expect(engine.run.mock.calls).toEqual([
      [['ps', '--all', '--quiet', '--no-trunc', '--filter', 'label=worktree-sandbox.role=command']],
    ]);
    expect(engine.exec.mock.calls[0][0]).toEqual([
      'container',
      'inspect',
      '--format',
      expect.any(String),
      '--',
      'id1',
      'id2',
    ]);
    expect(listed).toEqual([
      {
        name: 'worktree-sandbox-a-0a1b2c',
        status: 'running',
        running: true,
        networkMode: 'container:0123',
        volumes: ['wts-v1'],
        binds: ['/home/runner/a path with spaces" and a quote'],
      },
      {
        name: 'worktree-sandbox-a-0a1b2c-net',
        status: 'exited',
        running: false,
        networkMode: 'none',
        volumes: [],
        binds: [],
      },
    ]);
  });

  it('asks once when there is no container, with no filter when no label is given', async () => {
    const engine = fakeEngine();
    engine.run.mockResolvedValue('');

    expect(await listContainers(engine)).toEqual([]);
    expect(engine.run.mock.calls).toEqual([[['ps', '--all', '--quiet', '--no-trunc']]]);
    expect(engine.exec).not.toHaveBeenCalled();
  });

  it('leaves out a container removed between the two calls', async () => {
    const engine = fakeEngine();
    engine.run.mockResolvedValue('id1\nid2\n');
    engine.exec.mockResolvedValue({
      exitCode: 1,
      stderr: 'Error: No such object: id1\n',
      stdout: line('/b', 'exited', false, 'default', []),
    });

    expect((await listContainers(engine)).map((c) => c.name)).toEqual(['b']);
  });

  it('throws for any other failure, and for an answer it cannot read: an in-use check must not miss one', async () => {
    const engine = fakeEngine();
    engine.run.mockResolvedValue('id1\n');
    engine.failure.mockImplementation((args) => new EngineError(`failed: ${args[0]}`));
    engine.exec.mockResolvedValueOnce({
      exitCode: 1,
      stderr: 'Cannot connect to the Docker daemon\n',
      stdout: '',
    });
    await expect(listContainers(engine)).rejects.toThrow('failed: container');

    engine.exec.mockResolvedValueOnce({
      exitCode: 1,
      stderr: 'Error: No such object: id0\nCannot connect to the Docker daemon\n',
      stdout: '',
    });
    await expect(listContainers(engine)).rejects.toThrow('failed: container');

    engine.exec.mockResolvedValueOnce({ exitCode: 0, stderr: '', stdout: '"/a" running\n' });
    await expect(listContainers(engine)).rejects.toThrow(SyntaxError);
  });
});
