import type { IncomingMessage } from 'node:http';
import { clientAddress, isTrustedPeer, upstreamRequestHeaders } from './headers';

function request(peer: string, headers: Record<string, string>): IncomingMessage {
  return {
    headers: { host: 'gw.example:3000', ...headers },
    socket: { remoteAddress: peer },
  } as unknown as IncomingMessage;
}

describe('X-Forwarded-* trust', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['::1', true],
    ['fd12:3456::1', true],
    ['203.0.113.9', false],
    ['8.8.8.8', false],
  ])('treats %s as a trusted proxy: %s', (address, trusted) => expect(isTrustedPeer(address)).toBe(trusted));

  it('keeps X-Forwarded-Proto/Host set by a proxy on a private address', () => {
    const headers = upstreamRequestHeaders(
      request('10.0.0.7', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'media.example.com' }),
      'rid',
    );
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(headers['x-forwarded-host']).toBe('media.example.com');
  });

  it('overwrites X-Forwarded-Proto/Host a public client made up', () => {
    const headers = upstreamRequestHeaders(
      request('203.0.113.9', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' }),
      'rid',
    );
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe('gw.example:3000');
    expect(headers['x-request-id']).toBe('rid');
  });

  it('rate-limits a public client by its own address, whatever X-Forwarded-For it claims', () => {
    expect(clientAddress(request('203.0.113.9', { 'x-forwarded-for': '1.2.3.4' }))).toBe('203.0.113.9');
  });

  it("rate-limits behind a trusted proxy by the proxy's right-most X-Forwarded-For entry", () => {
    expect(clientAddress(request('10.0.0.7', { 'x-forwarded-for': '6.6.6.6, 198.51.100.4' }))).toBe(
      '198.51.100.4',
    );
  });
});
