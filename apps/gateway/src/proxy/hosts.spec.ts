import { hostName, parseAllowedHosts } from './hosts';

describe('hostName', () => {
  it('drops the port and a trailing dot, lower-cases, and keeps IPv6 brackets', () => {
    expect(hostName('Example.COM:3000')).toBe('example.com');
    expect(hostName('example.com.')).toBe('example.com');
    expect(hostName('[::1]:3000')).toBe('[::1]');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
    expect(hostName('')).toBeUndefined();
    expect(hostName(undefined)).toBeUndefined();
  });
});

describe('parseAllowedHosts', () => {
  it('reads names, addresses, bracketed or bare IPv6, .domain and *', () => {
    expect(parseAllowedHosts(' API.example.com, 10.0.0.5, ::1, [fe80::1], .example.org, * ')).toEqual([
      'api.example.com',
      '10.0.0.5',
      '[::1]',
      '[fe80::1]',
      '.example.org',
      '*',
    ]);
    expect(parseAllowedHosts('')).toEqual([]);
  });

  it('refuses an entry with a port, a scheme or a path, naming it', () => {
    expect(() => parseAllowedHosts('localhost,example.com:443')).toThrow('"example.com:443"');
    expect(() => parseAllowedHosts('https://example.com')).toThrow('"https://example.com"');
    expect(() => parseAllowedHosts('example.com/x')).toThrow('"example.com/x"');
  });
});
