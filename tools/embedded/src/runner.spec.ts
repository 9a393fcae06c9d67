import { APPS, type AppName } from '@media/contracts';
import { checkAppPorts } from './runner';

const ports = Object.fromEntries(Object.entries(APPS).map(([app, { port }]) => [app, port])) as Record<
  AppName,
  number
>;

describe('checkAppPorts (with a fake port probe)', () => {
  it('names every busy port at once, with a line of free ports to start with instead', async () => {
    const busy = new Set([ports.gateway, ports.content]);
    let next = 45_000;
    const check = checkAppPorts(
      ports,
      0,
      (port) => Promise.resolve(!busy.has(port)),
      () => Promise.resolve(next++),
    );
    await expect(check).rejects.toThrow(
      `2 ports are in use: ${ports.gateway} (gateway, GATEWAY_PORT), ${ports.content} (content, CONTENT_PORT). ` +
        'Free ones now:\n  GATEWAY_PORT=45000 CONTENT_PORT=45001 npm start',
    );
  });

  it('passes when every port is free', async () => {
    await expect(checkAppPorts(ports, 9464, () => Promise.resolve(true))).resolves.toBeUndefined();
  });

  it("names the gateway's metrics port too", async () => {
    const check = checkAppPorts(
      ports,
      9464,
      (port) => Promise.resolve(port !== 9464),
      () => Promise.resolve(45_000),
    );
    await expect(check).rejects.toThrow(
      "a port is in use: 9464 (the gateway's metrics, GATEWAY_METRICS_PORT). " +
        'Free ones now:\n  GATEWAY_METRICS_PORT=45000 npm start',
    );
  });
});
