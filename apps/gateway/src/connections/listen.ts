import type { Server } from 'node:http';

/** Starts `server` on `port` (0: one the system picks) and `host` (undefined: every interface); the port it got. */
export function listenOn(server: Server, port: number, host: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
