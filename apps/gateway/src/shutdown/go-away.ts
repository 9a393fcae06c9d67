import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Ends a websocket tunnel as a server going away would (RFC 6455 close code 1001), so the
 * client reconnects rather than seeing an abnormal 1006: the splice stops, the client gets a
 * close frame (unmasked, server to client), the upstream one from "the client" (masked), and
 * each side closes once it answered, which ends the tunnel at once. The splice is byte for
 * byte, so a frame the upstream was sending at that very moment may be cut short before the
 * close frame; clients then see 1002.
 * A revoked token's tunnel ends the same way with 4401.
 */
export function goAway(client: Duplex, upstream: Socket, closeCode = 1001): void {
  upstream.unpipe(client);
  client.unpipe(upstream);
  // unpipe() pauses both sockets: each side's answering close frame and its end of stream would
  // then sit unread, neither socket would ever close, and the drain would wait for
  // SHUTDOWN_TIMEOUT. Read on and drop what comes (nothing after a close frame matters).
  client.resume();
  upstream.resume();
  const code = Buffer.from([closeCode >> 8, closeCode & 0xff]);
  const mask = randomBytes(4);
  const masked = Buffer.from(code.map((byte, i) => byte ^ mask[i % 4]));
  // The upstream's close ends the tunnel (and destroys the client socket): only once the
  // client's close frame is out.
  client.end(Buffer.concat([Buffer.from([0x88, code.length]), code]), () =>
    upstream.end(Buffer.concat([Buffer.from([0x88, 0x80 | code.length]), mask, masked])),
  );
}
