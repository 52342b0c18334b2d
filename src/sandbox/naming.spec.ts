import { describe, expect, it } from '@jest/globals';
import {
  classifyName,
  persistentSandboxName,
  projectName,
  transientSandboxName,
  volumeName,
} from './naming.js';

describe('persistentSandboxName', () => {
  it('keeps a folder-safe branch name as it is', () => {
    expect(persistentSandboxName('fix-lint')).toBe('fix-lint');
    expect(persistentSandboxName('release_1.2')).toBe('release_1.2');
  });

  it('slugs / and other characters, and marks the loss with a hash after "..", which git forbids in branch names', () => {
    const name = persistentSandboxName('feat/ui');
    expect(name).toMatch(/^feat-ui\.\.[0-9a-f]{8}$/);
    expect(persistentSandboxName('feat/ü')).toMatch(/^feat--\.\.[0-9a-f]{8}$/);
  });

  it('never gives two different branches the same sandbox, even when they slug alike', () => {
    const branches = ['feat/ui', 'feat-ui', 'feat/ui/x', 'feat-ui/x', 'feat/ui-x', 'Feat/UI', 'a b', 'a_b'];
    const names = branches.map(persistentSandboxName);
    expect(new Set(names).size).toBe(branches.length);
  });

  it('gives the same branch the same sandbox every time', () => {
    expect(persistentSandboxName('feat/ui')).toBe(persistentSandboxName('feat/ui'));
  });

  it('never lets a persistent branch pass for a transient sandbox', () => {
    const name = persistentSandboxName('exploration-12345678');
    expect(classifyName(name)).toBe('persistent');
    expect(name).not.toBe(persistentSandboxName('b-exploration-12345678'));
  });

  it('bounds the length of very long names and stays unique', () => {
    const a = persistentSandboxName('x'.repeat(300));
    const b = persistentSandboxName('x'.repeat(299));
    expect(a.length).toBeLessThanOrEqual(90);
    expect(a).not.toBe(b);
  });

  it('produces only characters valid in folder and Docker volume names', () => {
    for (const branch of ['feat/ui', 'a..b'.replace('..', '.'), 'x@y', '日本', 'tab\tname']) {
      expect(persistentSandboxName(branch)).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$|^[A-Za-z0-9._-]+$/);
    }
  });
});

describe('transientSandboxName', () => {
  it('is exploration- and 8 hex digits, new each time', () => {
    const a = transientSandboxName();
    expect(a).toMatch(/^exploration-[0-9a-f]{8}$/);
    expect(classifyName(a)).toBe('transient');
    expect(transientSandboxName()).not.toBe(a);
  });
});

describe('projectName and volumeName', () => {
  it('tells apart two clones with the same folder name', () => {
    expect(projectName('/runner1/_work/app/app')).not.toBe(projectName('/runner2/_work/app/app'));
    expect(projectName('/runner1/_work/app/app')).toMatch(/^app-[0-9a-f]{6}$/);
  });

  it('builds valid Docker volume names', () => {
    const v = volumeName('worktree-sandbox', projectName('/w/My Repo!'), persistentSandboxName('feat/ui'));
    expect(v).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/);
  });
});
