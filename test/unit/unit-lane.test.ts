// The unit lane needs nothing but node_modules and git: a spec that judges with a program only the set-up
// installs (cmark-gfm) runs in the integration lane, named in jest.config.js's NEEDS_SETUP.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SETUP_ONLY = /from '[./]*test\/support\/cmark\.js'|from '\.\.\/support\/cmark\.js'/;

function specs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(spec|test)\.ts$/.test(e.name))
    .map((e) => path.relative('.', path.join(e.parentPath, e.name)));
}

describe('the unit lane', () => {
  it('holds no spec that needs the set-up (cmark-gfm); those it leaves out exist and need it', async () => {
    const config: string = '../../jest.config.js'; // plain JavaScript: no types to check
    const { NEEDS_SETUP } = (await import(config)) as { NEEDS_SETUP: string[] };
    const lane = [...specs('src'), ...specs('test/unit')].filter((file) => !NEEDS_SETUP.includes(file));
    expect(lane.filter((file) => SETUP_ONLY.test(fs.readFileSync(file, 'utf8')))).toEqual([]);
    for (const file of NEEDS_SETUP) expect(fs.readFileSync(file, 'utf8')).toMatch(SETUP_ONLY);
  });
});
