import type { IncomingMessage } from 'node:http';
import { parseTrustedProxies } from '@media/core';
import { clientAddress, upstreamRequestHeaders } from './headers';

function request(peer: string, headers: Record<string, string>): IncomingMessage {
  return {
    headers: { host: 'gw.example:3000', ...headers },
    socket: { remoteAddress: peer },
  } as unknown as IncomingMessage;
}

const loopbackOnly = parseTrustedProxies('loopback');
const ingress = parseTrustedProxies('10.0.0.0/24, fd00::/8');

describe('TRUSTED_PROXIES (configured, not guessed)', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.1.2.3', false],
    ['192.168.1.1', false],
    ['172.16.0.1', false],
    ['fd12:3456::1', false],
    ['203.0.113.9', false],
  ])('trusts %s by default: %s', (address, trusted) => expect(loopbackOnly(address)).toBe(trusted));

  it.each([
    ['10.0.0.7', true],
    ['10.0.1.7', false],
    ['fd12::1', true],
    ['fe80::1', false],
    ['127.0.0.1', false],
  ])('trusts %s under "10.0.0.0/24, fd00::/8": %s', (address, trusted) =>
    expect(ingress(address)).toBe(trusted),
  );

  it('refuses a malformed entry instead of trusting nobody or everybody', () => {
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/10.0.0.0\/33/);
    expect(() => parseTrustedProxies('gateway')).toThrow(/gateway/);
  });

  it('keeps X-Forwarded-Proto/Host set by a trusted proxy', () => {
    const headers = upstreamRequestHeaders(
      request('10.0.0.7', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'media.example.com' }),
      'rid',
      ingress,
    );
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(headers['x-forwarded-host']).toBe('media.example.com');
  });

  it('overwrites X-Forwarded-* from a private address that is not a configured proxy', () => {
    const headers = upstreamRequestHeaders(
      request('10.9.9.9', {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-for': '1.2.3.4',
      }),
      'rid',
      loopbackOnly,
    );
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe('gw.example:3000');
    expect(headers['x-forwarded-for']).toBe('10.9.9.9');
    expect(headers['x-request-id']).toBe('rid');
  });

  it('rate-limits an untrusted client by its own address, whatever X-Forwarded-For it claims', () => {
    expect(clientAddress(request('10.9.9.9', { 'x-forwarded-for': '1.2.3.4' }), loopbackOnly)).toBe(
      '10.9.9.9',
    );
  });

  it("rate-limits behind a trusted proxy by the proxy's right-most X-Forwarded-For entry", () => {
    expect(clientAddress(request('10.0.0.7', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4' }), ingress)).toBe(
      '198.51.100.4',
    );
  });
});
