import { mountArg } from './sandbox.js';

describe('mountArg', () => {
  it('writes read-only as `ro`, which Docker and Podman both accept on binds and volumes', () => {
    expect(mountArg({ type: 'volume', source: 'v', target: '/v', readonly: true })).toBe(
      'type=volume,source=v,target=/v,ro',
    );
  });

  it('quotes a field with a comma or a quote (CSV)', () => {
    expect(mountArg({ type: 'bind', source: '/a,b"c', target: '/t' })).toBe(
      'type=bind,"source=/a,b""c",target=/t',
    );
  });
});
