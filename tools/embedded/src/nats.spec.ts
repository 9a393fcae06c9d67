import { findOnPath } from './nats';

describe('findOnPath', () => {
  const present = new Set(['/opt/nats/bin/nats-server', '/usr/sbin/nats-server']);
  const isExecutable = (file: string) => present.has(file);

  it('returns the first executable along PATH', () => {
    expect(findOnPath('nats-server', '/usr/bin:/opt/nats/bin:/usr/sbin', isExecutable)).toBe(
      '/opt/nats/bin/nats-server',
    );
  });

  it('skips empty and relative entries and answers undefined when there is none', () => {
    expect(findOnPath('nats-server', ':bin:/usr/sbin', isExecutable)).toBe('/usr/sbin/nats-server');
    expect(findOnPath('nats-server', '/usr/bin:/bin', isExecutable)).toBeUndefined();
    expect(findOnPath('nats-server', '', isExecutable)).toBeUndefined();
  });
});
