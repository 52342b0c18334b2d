// The image check's first call and a volume's presence in one question (ContainerEngine
// inspectImageAndVolume), on the real engines: the answers are those of `image inspect` and `volume
// inspect` asked one by one, whatever else carries the names (a container named as the volume, as the
// image), and the one Docker CLI start is the only process when both are there.
import { afterAll, describe, expect, it } from '@jest/globals';
import { ContainerEngine } from '../../src/engine/engine.js';
import { engineCli, uniquePrefix } from '../support/docker.js';
import { availableEngines } from '../support/engines.js';
import { TEST_IMAGE } from '../support/env.js';

const made: Array<() => void> = [];
afterAll(() => {
  for (const undo of made.reverse()) undo();
});

describe.each(availableEngines())('inspectImageAndVolume on %s', (name) => {
  const engine = new ContainerEngine(name);
  const cli = (...args: string[]) => engineCli(name, ...args);
  const volume = `${uniquePrefix('look')}-vol`;

  /** Both answers, and the engine calls that gave them. */
  async function ask(image: string, vol: string) {
    const calls: string[][] = [];
    const exec = engine.exec.bind(engine);
    engine.exec = (args, options) => {
      calls.push([...args]);
      return exec(args, options);
    };
    try {
      const both = engine.inspectImageAndVolume(image, vol);
      const [imageResult, present] = await Promise.all([both.image, both.volume]);
      return {
        imageFound: imageResult.exitCode === 0,
        present,
        calls: calls.map((c) => c.slice(0, 2).join(' ')),
      };
    } finally {
      engine.exec = exec;
    }
  }

  it('answers as the two calls would, for each of image and volume there or not', async () => {
    cli('volume', 'create', volume);
    made.push(() => cli('volume', 'rm', '--force', volume));
    const both = await ask(TEST_IMAGE, volume);
    expect(both).toMatchObject({ imageFound: true, present: true });
    if (name === 'docker') expect(both.calls).toEqual(['inspect --format']);
    expect(await ask(TEST_IMAGE, `${volume}-missing`)).toMatchObject({ imageFound: true, present: false });
    expect(await ask('worktree-sandbox-missing:none', volume)).toMatchObject({
      imageFound: false,
      present: true,
    });
    const neither = await ask('worktree-sandbox-missing:none', `${volume}-missing`);
    expect(neither).toMatchObject({ imageFound: false, present: false });
    const single = await engine.inspectImage('worktree-sandbox-missing:none');
    expect(single.exitCode).not.toBe(0);
  });

  it('does not take a container named as the volume, or as the image, for either', async () => {
    const lookalike = `${volume}-c`;
    cli('create', '--name', lookalike, TEST_IMAGE, 'true');
    made.push(() => cli('rm', '--force', lookalike));
    expect(await ask(TEST_IMAGE, lookalike)).toMatchObject({ imageFound: true, present: false });
    expect(await ask(lookalike, volume)).toMatchObject({ imageFound: false, present: true });
  });
});
