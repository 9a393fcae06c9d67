/**
 * A websocket client of chat-notifications that loses nothing across reconnects (see
 * "Reliable delivery" in ../chat-notifications.md). It remembers the `seq` of the last frame it
 * handled and reconnects with `?resume=<seq>`, so the server first replays what it missed; a
 * `resync` frame means the gap cannot be filled, and the application reloads from the REST API.
 *
 *   const client = reliableSocket({
 *     url: () => 'wss://backoffice.example.com/api/v1/ws',
 *     headers: async () => ({ authorization: `Bearer ${await currentToken()}` }),
 *     onFrame: (frame) => render(frame),
 *     onResync: () => reloadFromApi(),
 *   });
 *
 * Node with the `ws` package; a browser passes `?ticket=` (POST /api/v1/ws/tickets) in `url()`
 * instead of headers. Run by apps/chat-notifications/test/reliable-delivery.e2e-spec.ts.
 */
import WebSocket from 'ws';

/**
 * @param {object} options
 * @param {() => string} options.url the socket's URL, asked before every connection (any replica)
 * @param {() => Promise<Record<string, string>>} [options.headers] headers of each upgrade (a fresh token)
 * @param {(frame: {event: string, data: unknown, seq: number}) => void} options.onFrame each frame, once, in order
 * @param {(seq: number) => void} [options.onResync] frames were lost: reload state from the REST API
 * @param {number} [options.lastSeq] where a previous session stopped (e.g. kept in storage)
 */
export function reliableSocket({ url, headers = async () => ({}), onFrame, onResync = () => {}, lastSeq }) {
  let last = lastSeq;
  let socket;
  let closed = false;
  let attempt = 0;

  async function open() {
    const target = new URL(url());
    if (last !== undefined) target.searchParams.set('resume', String(last));
    socket = new WebSocket(target, { headers: await headers() });
    socket.on('open', () => (attempt = 0));
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (frame.event === 'resync') {
        last = frame.seq;
        onResync(frame.seq);
        return;
      }
      // A frame already handled (never sent twice on one socket; a guard across reconnects).
      if (last !== undefined && frame.seq <= last) return;
      last = frame.seq;
      onFrame(frame);
    });
    socket.on('error', () => {});
    socket.on('close', retry);
  }

  /** After a close (1001 from a draining replica, a network drop) or a failed attempt: back off, resume. */
  function retry() {
    if (closed) return;
    const delay = Math.min(100 * 2 ** attempt++, 5_000) * (0.5 + Math.random() / 2);
    setTimeout(() => open().catch(retry), delay);
  }

  open().catch(retry);
  return {
    /** The seq of the last frame handled: what to resume from. */
    get lastSeq() {
      return last;
    },
    close() {
      closed = true;
      socket?.close();
    },
  };
}
