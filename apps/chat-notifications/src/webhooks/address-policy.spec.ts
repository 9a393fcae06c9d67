import { guardedLookup, isForbiddenAddress, urlProblem } from './address-policy';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('checks the scheme, credentials and length of a URL', () => {
    const strict = { allowHttp: false, allowPrivate: false };
    expect(urlProblem('https://hooks.example.com/x', strict)).toBeUndefined();
    expect(urlProblem('http://hooks.example.com/x', strict)).toBe('must be an https:// URL');
    expect(urlProblem('http://hooks.example.com/x', { ...strict, allowHttp: true })).toBeUndefined();
    expect(urlProblem('ftp://hooks.example.com/x', { ...strict, allowHttp: true })).toBe(
      'must be an http:// or https:// URL',
    );
    expect(urlProblem('https://u:p@hooks.example.com/', strict)).toBe('must not carry credentials');
    expect(urlProblem('hooks', strict)).toBe('must be an absolute URL');
    expect(urlProblem(`https://a.example/${'x'.repeat(2048)}`, strict)).toBe(
      'must be at most 2048 characters',
    );
  });

  it('refuses a connection when the resolver (a fake) answers a private address, and passes a public one', async () => {
    const rules = { allowHttp: true, allowPrivate: false };
    const lookup = guardedLookup(rules, (host) =>
      Promise.resolve([{ address: host === 'inside.test' ? '10.1.2.3' : '93.184.215.14', family: 4 }]),
    );
    const ask = (host: string) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        lookup(host, { all: true }, (error, address) => resolve({ error, address })),
      );
    const inside = await ask('inside.test');
    expect(inside.error?.code).toBe('EADDRNOTALLOWED');
    expect((await ask('outside.test')).address).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect((await ask('[::1]')).error?.code).toBe('EADDRNOTALLOWED');
  });
});
