import { freePort } from './ports';

describe('freePort', () => {
  // Linux picks among ~14,000 ports at random: 300 picks repeat one almost surely (1 - e^-3.2),
  // and a port repeated to two runs side by side is one of their apps failing to listen.
  it('hands out no port twice, though the OS offers some again', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port).toBeGreaterThan(0);
  });
});
