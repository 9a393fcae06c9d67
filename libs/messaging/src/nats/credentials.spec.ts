import { natsConnectionOptions, parseNatsUrl } from './credentials';

describe('natsConnectionOptions', () => {
  it('takes user and password out of the URL', () => {
    expect(natsConnectionOptions('nats://content:s%40cret@nats:4222')).toEqual({
      servers: ['nats:4222'],
      noAsyncTraces: true,
      user: 'content',
      pass: 's@cret',
    });
  });

  it('reads a lone user part as a token', () => {
    expect(natsConnectionOptions('nats://t0ken@nats:4222')).toEqual({
      servers: ['nats:4222'],
      noAsyncTraces: true,
      token: 't0ken',
    });
  });

  it('keeps several servers and a default port, without credentials when none are given', () => {
    expect(natsConnectionOptions('nats://a:4222, nats://b')).toEqual({
      servers: ['a:4222', 'b:4222'],
      noAsyncTraces: true,
    });
  });

  it('turns TLS on for tls:// URLs and for CA or client certificate files', () => {
    expect(natsConnectionOptions('tls://nats:4222').tls).toEqual({});
    expect(natsConnectionOptions('nats://nats:4222', { tls: { caFile: '/ca.pem' } }).tls).toEqual({
      caFile: '/ca.pem',
    });
    expect(
      natsConnectionOptions('nats://nats:4222', { tls: { certFile: '/c.pem', keyFile: '/k.pem' } }).tls,
    ).toEqual({ certFile: '/c.pem', keyFile: '/k.pem' });
    expect(natsConnectionOptions('nats://nats:4222').tls).toBeUndefined();
  });

  it('authenticates with a creds file when NATS_CREDS_FILE is set', () => {
    const options = natsConnectionOptions('nats://nats:4222', { credsFile: '/run/secrets/app.creds' });
    expect(typeof options.authenticator).toBe('function');
  });

  it('parses IPv6 hosts', () => {
    expect(parseNatsUrl('nats://[::1]:4333')).toEqual([
      { server: '[::1]:4333', user: undefined, pass: undefined, tls: false },
    ]);
  });
});
