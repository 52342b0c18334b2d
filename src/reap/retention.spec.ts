import {
  ageDays,
  DAY_MS,
  DEFAULT_RETENTION,
  expiryDays,
  isExpired,
  lastActivity,
  parseTimestamp,
  retentionClass,
} from './retention.js';

describe('retentionClass', () => {
  it.each([
    ['exploration-1a2b3c4d', 'transient'],
    ['exploration-', 'transient'],
    ['feature-login-fix', 'persistent'],
    ['b-exploration-x..0011aabb', 'persistent'],
    ['Exploration-1a2b3c4d', 'persistent'],
    ['main', 'persistent'],
  ])('classifies %s as %s', (name, cls) => {
    expect(retentionClass(name, false)).toBe(cls);
  });

  it('classifies any sandbox whose parent is gone as an orphan, whatever its name', () => {
    expect(retentionClass('exploration-1a2b3c4d', true)).toBe('orphan');
    expect(retentionClass('feature-x', true)).toBe('orphan');
  });
});

describe('expiryDays', () => {
  it('applies the default matrix: 30 days transient, 90 persistent, 90 orphan', () => {
    expect(expiryDays('transient', DEFAULT_RETENTION)).toBe(30);
    expect(expiryDays('persistent', DEFAULT_RETENTION)).toBe(90);
    expect(expiryDays('orphan', DEFAULT_RETENTION)).toBe(90);
  });

  it('takes each class from its own input', () => {
    const policy = { headlessExpiryDays: 7, branchExpiryDays: 60, orphanExpiryDays: 365 };
    expect(expiryDays('transient', policy)).toBe(7);
    expect(expiryDays('persistent', policy)).toBe(60);
    expect(expiryDays('orphan', policy)).toBe(365);
  });

  it('never lets an orphan expire sooner than a persistent sandbox', () => {
    const policy = { headlessExpiryDays: 7, branchExpiryDays: 60, orphanExpiryDays: 10 };
    expect(expiryDays('orphan', policy)).toBe(60);
  });
});

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

describe('lastActivity', () => {
  it('takes the newest signal, not the folder mtime alone', () => {
    const folder = NOW - 200 * DAY_MS;
    const index = NOW - 2 * DAY_MS;
    const head = NOW - 50 * DAY_MS;
    expect(lastActivity([folder, index, head])).toBe(index);
  });

  it('skips signals that could not be read', () => {
    expect(lastActivity([undefined, NOW - DAY_MS, undefined, Number.NaN])).toBe(NOW - DAY_MS);
  });

  it('is undefined when nothing could be read', () => {
    expect(lastActivity([])).toBeUndefined();
    expect(lastActivity([undefined])).toBeUndefined();
  });
});

describe('ageDays', () => {
  it('counts whole days', () => {
    expect(ageDays(NOW - 30 * DAY_MS - 1, NOW)).toBe(30);
    expect(ageDays(NOW - 29.9 * DAY_MS, NOW)).toBe(29);
    expect(ageDays(NOW, NOW)).toBe(0);
  });

  it('counts a time in the future (clock skew) as 0', () => {
    expect(ageDays(NOW + 5 * DAY_MS, NOW)).toBe(0);
  });
});

describe('isExpired', () => {
  it('is stale only past the expiry', () => {
    expect(isExpired(NOW - 30 * DAY_MS, NOW, 30)).toBe(false);
    expect(isExpired(NOW - 30 * DAY_MS - 1, NOW, 30)).toBe(true);
    expect(isExpired(NOW - 89 * DAY_MS, NOW, 90)).toBe(false);
    expect(isExpired(NOW - 91 * DAY_MS, NOW, 90)).toBe(true);
  });

  it('never calls an unknown age stale', () => {
    expect(isExpired(undefined, NOW, 1)).toBe(false);
  });
});

describe('parseTimestamp', () => {
  it('reads the created label format', () => {
    expect(parseTimestamp('2026-06-01T12:00:00Z')).toBe(NOW);
    expect(parseTimestamp('2026-06-01T12:00:00.000Z')).toBe(NOW);
    expect(parseTimestamp('2026-06-01T14:00:00+02:00')).toBe(NOW);
  });

  it('rejects anything else', () => {
    for (const text of [undefined, '', 'yesterday', '2026-06-01', '1717243200000', '2026-13-45T99:00:00Z'])
      expect(parseTimestamp(text)).toBeUndefined();
  });
});
