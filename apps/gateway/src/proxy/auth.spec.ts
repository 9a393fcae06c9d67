import { queryTicket, redactUrl } from './auth';

describe('websocket ticket in the upgrade URL', () => {
  it('reads ?ticket= and nothing else', () => {
    expect(queryTicket('/api/v1/ws?ticket=abc')).toBe('abc');
    expect(queryTicket('/api/v1/ws?x=1&ticket=a%2Bb')).toBe('a+b');
    expect(queryTicket('/api/v1/ws?access_token=t')).toBeUndefined();
    expect(queryTicket('/api/v1/ws')).toBeUndefined();
  });

  it('redacts tickets and stray access tokens from logged URLs', () => {
    expect(redactUrl('/api/v1/ws?ticket=secret&x=1')).toBe('/api/v1/ws?ticket=[redacted]&x=1');
    expect(redactUrl('/api/v1/ws?x=1&access_token=secret')).toBe('/api/v1/ws?x=1&access_token=[redacted]');
    expect(redactUrl('/content/api/v1/lineup?page_size=2')).toBe('/content/api/v1/lineup?page_size=2');
  });
});
