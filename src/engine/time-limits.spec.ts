import { engineWork } from './time-limits.js';
import { TIME_LIMITS_MS, TIME_LIMITS_OVERRIDE, TimeLimitError, timeLimitMs } from './time-limits.js';

describe('timeLimitMs', () => {
  it('is the table value without an override', () => {
    expect(timeLimitMs('create', {})).toBe(30 * 60_000);
    expect(timeLimitMs('offer', {})).toBe(TIME_LIMITS_MS.offer);
  });

  it('is shortened by the tests-only override, for the named work only', () => {
    const env = { [TIME_LIMITS_OVERRIDE]: 'create=5, offer=0.5' };
    expect(timeLimitMs('create', env)).toBe(5_000);
    expect(timeLimitMs('offer', env)).toBe(500);
    expect(timeLimitMs('capture', env)).toBe(TIME_LIMITS_MS.capture);
  });

  it('can never be lifted or removed by the override', () => {
    for (const value of ['999999', '0', '-1', 'Infinity', 'NaN', '', 'x'])
      expect(timeLimitMs('offer', { [TIME_LIMITS_OVERRIDE]: `offer=${value}` })).toBe(TIME_LIMITS_MS.offer);
  });
});

describe('TimeLimitError', () => {
  it('says what ran out, where, after how long, and what that means', () => {
    const error = new TimeLimitError('offer', 'feature-x (volume v)', 120_000, 'nothing was offered');
    expect(error.message).toBe(
      'The offer helper container on feature-x (volume v) ran out of its time limit (2 min) and was removed: nothing was offered',
    );
    const host = new TimeLimitError('archive-files', '/r/p/s', 2_500, 'the orphan is kept', true);
    expect(host.message).toContain(
      'The archive-files program on /r/p/s ran out of its time limit (2.5 s) and was killed',
    );
  });
});

describe('the limits of programs on the host', () => {
  it('are all finite, and none above GitHub’s six-hour job limit', () => {
    for (const [work, ms] of Object.entries(TIME_LIMITS_MS)) {
      expect([work, Number.isFinite(ms) && ms > 0]).toEqual([work, true]);
      expect(ms).toBeLessThan(6 * 60 * 60_000);
    }
  });

  it('an engine call runs under the limit of what it does', () => {
    expect(engineWork(['image', 'inspect', '--', 'x'])).toBe('engine-query');
    expect(engineWork(['ps', '--all'])).toBe('engine-query');
    expect(engineWork(['info'])).toBe('engine-query');
    expect(engineWork(['pull', '--quiet', '--', 'x'])).toBe('engine-pull');
    expect(engineWork(['import', '--', 'f', 'x'])).toBe('engine-import');
    expect(engineWork(['rm', '--force', '--', 'x'])).toBe('engine-change');
    expect(engineWork(['kill', '--', 'x'])).toBe('engine-change');
    expect(engineWork(['volume', 'rm', '--', 'x'])).toBe('engine-change');
    expect(engineWork(['volume', 'inspect', '--', 'x'])).toBe('engine-query');
    expect(engineWork(['create', '--name', 'x', 'img'])).toBe('engine-change');
  });

  it('the override shortens a host program’s limit too', () => {
    expect(timeLimitMs('git-fetch', { [TIME_LIMITS_OVERRIDE]: 'git-fetch=5' })).toBe(5_000);
    expect(timeLimitMs('git-fetch', {})).toBe(TIME_LIMITS_MS['git-fetch']);
  });
});
