import { ServerNats } from '@nestjs/microservices';
import { BusServer } from './transport';

/** The protected method under test, called as Nest's server calls it for each message. */
const routeOf = (server: ServerNats, pattern: string): string =>
  (server as unknown as { getRouteFromPattern(p: string): string }).getRouteFromPattern(pattern);

describe('BusServer', () => {
  const options = { servers: ['nats://127.0.0.1:1'] };

  it('routes subjects and JSON patterns as Nest does', () => {
    const nest = new ServerNats(options);
    const bus = new BusServer(options);
    for (const pattern of ['acl.users.get-many', '{"cmd":"sum","role":"math"}', '"quoted"', '42'])
      expect(routeOf(bus, pattern)).toBe(routeOf(nest, pattern));
  });

  it('works a subject out once: no JSON.parse (and its SyntaxError) for later messages', () => {
    const bus = new BusServer(options);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(routeOf(bus, 'acl.users.get-many')).toBe('acl.users.get-many');
      const first = parse.mock.calls.length;
      expect(first).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) expect(routeOf(bus, 'acl.users.get-many')).toBe('acl.users.get-many');
      expect(parse.mock.calls.length).toBe(first);
    } finally {
      parse.mockRestore();
    }
  });
});
