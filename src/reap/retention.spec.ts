import { DEFAULT_RETENTION, expiryDays, retentionClass } from './retention.js';

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
