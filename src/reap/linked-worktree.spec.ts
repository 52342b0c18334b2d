import { parseGitFile } from './linked-worktree.js';

describe('parseGitFile', () => {
  it("names the parent and the registration of a worktree's .git file", () => {
    expect(parseGitFile('gitdir: /srv/repo/.git/worktrees/feature-x\n')).toEqual({
      parentPath: '/srv/repo',
      adminDir: '/srv/repo/.git/worktrees/feature-x',
      id: 'feature-x',
    });
  });

  it.each([
    ['a relative path', 'gitdir: ../repo/.git/worktrees/x\n'],
    ['a path not in normal form', 'gitdir: /srv/repo/../other/.git/worktrees/x\n'],
    ['a doubled slash', 'gitdir: /srv//repo/.git/worktrees/x\n'],
    ['a bare parent', 'gitdir: /srv/repo.git/worktrees/x\n'],
    ['a folder below the registration', 'gitdir: /srv/repo/.git/worktrees/x/y\n'],
    ['the registrations folder itself', 'gitdir: /srv/repo/.git/worktrees\n'],
    ['a second line', 'gitdir: /srv/repo/.git/worktrees/x\n/etc\n'],
    ['a carriage return', 'gitdir: /srv/repo/.git/worktrees/x\r\n'],
    ['no gitdir line', '/srv/repo/.git/worktrees/x\n'],
    ['a submodule', 'gitdir: /srv/repo/.git/modules/x\n'],
  ])('refuses %s', (_what, text) => {
    expect(parseGitFile(text)).toHaveProperty('error');
  });
});
