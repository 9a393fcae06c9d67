import type { IncomingMessage } from 'node:http';

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** The peer's address, IPv4-mapped IPv6 shown as plain IPv4. */
export function peerAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}
