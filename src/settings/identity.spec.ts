import { describe, expect, it } from '@jest/globals';
import { defaultBotIdentity, formatIdentity, parseIdentity } from './identity.js';

describe('defaultBotIdentity', () => {
  it('is the Actions bot with its github.com no-reply address', () => {
    const bot = defaultBotIdentity('https://github.com');
    expect(formatIdentity(bot)).toBe(
      'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>',
    );
    expect(defaultBotIdentity(undefined)).toEqual(bot);
    expect(defaultBotIdentity('not a url')).toEqual(bot);
  });

  it('takes the no-reply domain of an Enterprise Server from GITHUB_SERVER_URL', () => {
    expect(defaultBotIdentity('https://GHES.Example.com/')).toEqual({
      name: 'github-actions[bot]',
      email: 'github-actions[bot]@users.noreply.ghes.example.com',
    });
  });
});

describe('parseIdentity', () => {
  it('reads Name <email>', () => {
    expect(parseIdentity('  Fix Bot <fix-bot@example.com> ')).toEqual({
      name: 'Fix Bot',
      email: 'fix-bot@example.com',
    });
    expect(parseIdentity('renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>')).toEqual({
      name: 'renovate[bot]',
      email: '29139614+renovate[bot]@users.noreply.github.com',
    });
  });

  it.each([
    'fix-bot@example.com',
    '<fix-bot@example.com>',
    'Fix Bot <>',
    'Fix Bot <no-at-sign>',
    'Fix Bot <a@b> trailing',
    'Fix <Bot> <a@b>',
    'Fix Bot <a b@c>',
    'Fix\nBot <a@b>',
  ])('rejects %j', (text) => {
    expect(parseIdentity(text)).toBeUndefined();
  });
});
