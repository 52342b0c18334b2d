// Reap mode's inputs, as parseSettings reads them: whole days ≥ 1, orphans never sooner than branches.
import { InputError, parseSettings, type ReapSettings } from '../../src/settings/settings.js';

const read = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';
const reap = (inputs: Record<string, string>) =>
  parseSettings(read({ mode: 'reap', ...inputs }), { HOME: '/home/runner' }) as ReapSettings;

describe('reap settings', () => {
  it('defaults to the retention matrix of docs/reap.md, no dry run, no limit, no force, no archive', () => {
    expect(reap({})).toMatchObject({
      mode: 'reap',
      headlessExpiryDays: 30,
      branchExpiryDays: 90,
      orphanExpiryDays: 90,
      dryRun: false,
      maxRemovals: 0,
      force: false,
      archiveDir: '',
      image: 'buildpack-deps:bookworm-scm',
      volumePrefix: 'worktree-sandbox',
      worktreeRoot: '/home/runner/.cache/worktree-sandbox/worktrees',
    });
  });

  it('reads every reap input', () => {
    expect(
      reap({
        'headless-expiry-days': '7',
        'branch-expiry-days': '60',
        'orphan-expiry-days': '120',
        'dry-run': 'true',
        'max-removals': '25',
        force: 'TRUE',
        'archive-dir': '/srv/archive',
        image: 'debian:bookworm',
      }),
    ).toMatchObject({
      headlessExpiryDays: 7,
      branchExpiryDays: 60,
      orphanExpiryDays: 120,
      dryRun: true,
      maxRemovals: 25,
      force: true,
      archiveDir: '/srv/archive',
      image: 'debian:bookworm',
    });
  });

  it.each(['0', '-1', '1.5', '30d', 'thirty', ' 1e3'])('rejects %j as an expiry', (value) => {
    for (const input of ['headless-expiry-days', 'branch-expiry-days', 'orphan-expiry-days'])
      expect(() => reap({ [input]: value })).toThrow(InputError);
  });

  it('rejects an orphan expiry shorter than the branch expiry, naming both', () => {
    expect(() => reap({ 'branch-expiry-days': '90', 'orphan-expiry-days': '30' })).toThrow(
      /orphan-expiry-days.*branch-expiry-days \(90\)/,
    );
  });

  it('rejects a negative or fractional max-removals and a dry-run that is not a boolean', () => {
    expect(() => reap({ 'max-removals': '-1' })).toThrow(InputError);
    expect(() => reap({ 'max-removals': '2.5' })).toThrow(InputError);
    expect(() => reap({ 'dry-run': 'yes' })).toThrow(InputError);
  });
});
