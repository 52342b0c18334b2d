import { DEFAULT_RETENTION } from '../reap/retention.js';
import { decideOnRequest, type SandboxFacts } from '../reap/decide.js';
import { matchSandbox } from './remove-by-name.js';
import type { ScannedSandbox } from '../reap/scan.js';
import { facts as sandboxFacts, NOW } from '../../test/support/reap-facts.js';

const disk = (project: string, sandbox: string, extra: Partial<ScannedSandbox> = {}): ScannedSandbox => ({
  key: `disk:/root/${project}/${sandbox}`,
  sandbox,
  project,
  isolation: 'disk',
  where: `/root/${project}/${sandbox}`,
  hostPath: `/root/${project}/${sandbox}`,
  ...extra,
});
const volume = (project: string, sandbox: string): ScannedSandbox => ({
  key: `volume:wts-${project}-${sandbox}`,
  sandbox,
  project,
  isolation: 'container',
  where: `wts-${project}-${sandbox}`,
  volume: `wts-${project}-${sandbox}`,
});

describe('matchSandbox', () => {
  const all = [
    disk('a-1', 'feature-x'),
    volume('a-1', 'feature-x'),
    disk('b-2', 'feature-x'),
    disk('a-1', 'solo'),
  ];

  it('finds one sandbox by name, volume name or path', () => {
    expect(matchSandbox(all, { name: 'solo' }).found?.key).toBe('disk:/root/a-1/solo');
    expect(matchSandbox(all, { name: 'wts-a-1-feature-x' }).found?.isolation).toBe('container');
    expect(matchSandbox(all, { name: 'b-2/feature-x' }, '/root').found?.key).toBe('disk:/root/b-2/feature-x');
  });

  it('says when a name is ambiguous, and --project and --isolation settle it', () => {
    const many = matchSandbox(all, { name: 'feature-x' });
    expect(many).toMatchObject({ problem: 'ambiguous' });
    expect(many.found ? [] : many.candidates).toHaveLength(3);
    expect(matchSandbox(all, { name: 'feature-x', project: 'a-1' })).toMatchObject({ problem: 'ambiguous' });
    expect(matchSandbox(all, { name: 'feature-x', project: 'a-1', isolation: 'disk' }).found?.key).toBe(
      'disk:/root/a-1/feature-x',
    );
    expect(matchSandbox(all, { name: 'feature-x', project: 'b-2' }).found?.key).toBe(
      'disk:/root/b-2/feature-x',
    );
  });

  it('prefers a sandbox to an entry that is not one, and finds nothing when nothing matches', () => {
    const junk = disk('c-3', 'feature-x', { notSandbox: 'no .git file' });
    expect(matchSandbox([junk, disk('a-1', 'feature-x')], { name: 'feature-x' }).found?.project).toBe('a-1');
    expect(matchSandbox([junk], { name: 'feature-x' }).found).toBe(junk);
    expect(matchSandbox(all, { name: 'nothing' })).toEqual({ candidates: [], problem: 'none' });
  });
});

describe('decideOnRequest', () => {
  const facts = (extra: Partial<SandboxFacts>): SandboxFacts => sandboxFacts('feature-x', 2, extra);
  const policy = { retention: DEFAULT_RETENTION, force: false, archive: true };

  it('ignores the age: a fresh clean sandbox is removed', () => {
    expect(decideOnRequest(facts({}), policy, NOW)).toMatchObject({
      action: 'remove',
      reason: 'holds no work',
      class: 'persistent',
      ageDays: 2,
      archive: undefined,
    });
  });

  it('applies the gates: work needs force (and is archived), use is never lifted', () => {
    const work = facts({ work: { state: 'work', detail: '1 uncommitted file(s)' } });
    expect(decideOnRequest(work, policy, NOW)).toMatchObject({
      action: 'keep',
      reason: 'holds work: 1 uncommitted file(s)',
    });
    expect(decideOnRequest(work, { ...policy, force: true }, NOW)).toMatchObject({
      action: 'remove',
      archive: 'work',
    });
    const busy = facts({ inUse: 'a run holds its lock' });
    expect(decideOnRequest(busy, { ...policy, force: true }, NOW)).toMatchObject({
      action: 'keep',
      reason: 'in use: a run holds its lock',
    });
  });

  it("saves an orphan's files before removing it, and never touches what is not a sandbox", () => {
    expect(decideOnRequest(facts({ orphan: 'gone', work: undefined }), policy, NOW)).toMatchObject({
      action: 'remove',
      archive: 'files',
    });
    expect(
      decideOnRequest(facts({ notSandbox: 'no .git file' }), { ...policy, force: true }, NOW),
    ).toMatchObject({
      action: 'keep',
      reason: 'not a sandbox: no .git file',
    });
  });
});
