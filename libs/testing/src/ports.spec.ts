import { readFileSync } from 'node:fs';
import { freePort } from './ports';

describe('freePort', () => {
  // 500 random picks among ~22,800 ports repeat one with a chance of 1 - e^-5.5 (99.6 %), and a port
  // repeated to two runs side by side is one of their apps failing to listen.
  it('hands out no port twice, though the random pick repeats some', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 500; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  // An outgoing connection may take a port of the ephemeral range as its own before the app that
  // was handed it binds it.
  it('hands out ports below the range outgoing connections take theirs from', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports)
      expect({ port, below: port < low, fromTenThousand: port >= 10_000 }).toEqual({
        port,
        below: true,
        fromTenThousand: true,
      });
  });
});
