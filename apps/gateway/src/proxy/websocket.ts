import { request as httpRequest, STATUS_CODES, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServiceName } from '@media/contracts';
import type { TrustedProxies } from '@media/core';
import { UpstreamUnavailable } from '@media/core';
import { UpstreamTimeout, writeSocketError } from './errors';
import { upstreamRequestHeaders } from './headers';
import type { PublicOrigin } from './hosts';

/** Hop-by-hop headers of a refused handshake's answer; the gateway closes that connection itself. */
const REFUSAL_DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

function headerBlock(rawHeaders: string[], drop: Set<string>, extra: Record<string, string>): string {
  let block = '';
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (drop.has(name)) continue;
    seen.add(name);
    block += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  }
  for (const [name, value] of Object.entries(extra))
    if (!seen.has(name.toLowerCase())) block += `${name}: ${value}\r\n`;
  return block;
}

export interface UpgradeOptions {
  origin: string;
  app: ServiceName;
  upstreamTimeout: number;
  requestId: string;
  trustedProxies: TrustedProxies;
  /** PUBLIC_URL as X-Forwarded-Proto/-Host, when set. */
  publicOrigin?: PublicOrigin;
  /** Called once with the open tunnel, so shutdown can cut it. */
  onTunnel: (client: Duplex, upstream: Socket) => void;
  /** Called once when the handshake is over (101 or not); the status is for the access log. */
  onSettled: (status: number) => void;
}

/**
 * Proxies a websocket handshake to the upstream and, once it answers 101, splices the two
 * sockets together byte for byte: frames are never decoded, so the gateway adds no per-message
 * cost and is neutral to subprotocols and extensions. A handshake the upstream refuses (401,
 * 404...) is relayed as is.
 */
export function proxyUpgrade(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  options: UpgradeOptions,
): void {
  const target = new URL(options.origin);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstreamReq = send({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    path: req.url,
    method: req.method,
    headers: upstreamRequestHeaders(
      req,
      options.requestId,
      options.trustedProxies,
      true,
      options.publicOrigin,
    ),
    // Upgraded sockets leave any pool, so there is nothing to gain from an agent here.
    agent: false,
    timeout: options.upstreamTimeout,
  });
  let settled = false;
  const settle = (status: number) => {
    if (settled) return;
    settled = true;
    options.onSettled(status);
  };

  const onClientGone = () => upstreamReq.destroy();
  client.once('close', onClientGone);
  client.on('error', () => client.destroy());

  upstreamReq.once('timeout', () =>
    upstreamReq.destroy(Object.assign(new Error('upstream timeout'), { code: 'ETIMEDOUT_GATEWAY' })),
  );

  upstreamReq.once('error', (error: Error & { code?: string }) => {
    if (settled || client.destroyed) return;
    const answer =
      error.code === 'ETIMEDOUT_GATEWAY'
        ? new UpstreamTimeout(options.app)
        : new UpstreamUnavailable(`The ${options.app} service is unavailable.`);
    settle(answer.status);
    writeSocketError(client, answer, options.requestId);
  });

  upstreamReq.once('response', (res: IncomingMessage) => {
    // The upstream refused to switch protocols: relay its answer and close.
    settle(res.statusCode ?? 502);
    const status = res.statusCode ?? 502;
    const extra = { Connection: 'close', 'X-Request-Id': options.requestId };
    client.write(
      `HTTP/1.1 ${status} ${res.statusMessage || STATUS_CODES[status] || ''}\r\n${headerBlock(res.rawHeaders, REFUSAL_DROPPED, extra)}\r\n`,
    );
    res.pipe(client);
  });

  upstreamReq.once('upgrade', (res: IncomingMessage, upstream: Socket, upstreamHead: Buffer) => {
    client.off('close', onClientGone);
    settle(101);
    upstream.setTimeout(0);
    upstream.setNoDelay(true);
    if ('setNoDelay' in client && typeof client.setNoDelay === 'function')
      (client as Socket).setNoDelay(true);
    const extra = { 'X-Request-Id': options.requestId };
    client.write(`HTTP/1.1 101 Switching Protocols\r\n${headerBlock(res.rawHeaders, new Set(), extra)}\r\n`);
    if (upstreamHead.length > 0) client.write(upstreamHead);
    if (head.length > 0) upstream.write(head);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.pipe(client);
    client.pipe(upstream);
    options.onTunnel(client, upstream);
  });

  upstreamReq.end();
}
