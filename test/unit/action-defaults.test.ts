// Inputs are written once, in action.yml: the module the CLI and the settings read is generated from it.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { parse } from 'yaml';
import { ACTION_DEFAULTS, ACTION_INPUTS } from '../../src/action-defaults.js';
import { CHOICES, parseSettings, type ReapSettings, type RunSettings } from '../../src/settings/settings.js';

const action = parse(fs.readFileSync('action.yml', 'utf8')) as {
  inputs: Record<string, { default?: string; description: string }>;
};

describe('action.yml defaults', () => {
  it('src/action-defaults.ts holds exactly action.yml defaults (node scripts/action-defaults.mjs)', () => {
    const expected = Object.fromEntries(
      Object.entries(action.inputs)
        .map(([name, spec]) => [name, String(spec.default ?? '')])
        .filter(([, value]) => !value.includes('${{')),
    );
    expect(ACTION_DEFAULTS).toEqual(expected);
    // The descriptions too, in action.yml's order: the CLI's options and their help are made of them.
    expect(Object.entries(ACTION_INPUTS)).toEqual(
      Object.entries(action.inputs).map(([name, spec]) => [
        name,
        { description: spec.description, ...(name in expected ? { default: expected[name] } : {}) },
      ]),
    );
  });

  it('settings read with no input at all are the defaults of action.yml', () => {
    const run = parseSettings((name) => (name === 'command' ? 'true' : ''), {}) as RunSettings;
    expect(run.image).toBe(action.inputs.image.default);
    expect(run.limits.pidsLimit).toBe(Number(action.inputs['pids-limit'].default));
    expect(run.commitMessage).toBe(action.inputs['commit-message'].default);
    expect(run.maxImportBytes).toBe(1024 ** 3);
    expect(run.trigger.allowedAssociations.join(',')).toBe(action.inputs['allowed-associations'].default);
    const reap = parseSettings((name) => (name === 'mode' ? 'reap' : ''), {}) as ReapSettings;
    expect(reap.headlessExpiryDays).toBe(Number(action.inputs['headless-expiry-days'].default));
    expect(reap.branchExpiryDays).toBe(Number(action.inputs['branch-expiry-days'].default));
  });

  it('each input with choices (the settings check them, the CLI offers them) names them all in action.yml', () => {
    for (const [name, values] of Object.entries(CHOICES)) {
      const { description, default: fallback } = action.inputs[name];
      for (const value of values) expect(description).toContain(`\`${value}\``);
      expect(values).toContain(fallback);
    }
  });
});
