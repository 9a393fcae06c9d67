/**
 * Websocket delivery that survives replicas, a NATS outage and reconnects
 * (docs/api/chat-notifications.md, "Reliable delivery"): every frame carries `seq` (per user,
 * across replicas), every socket of the user gets every frame in seq order, `?resume=<seq>`
 * replays what a client missed, and an unknown seq gets `resync`. Two replicas (and a third
 * with a short WS_RESUME_WINDOW, last) on a nats-server this file stops and starts itself. Bob posts
 * and Bob listens, so his frames are exactly his room's `chat.message` frames (the inbox
 * notifications a post makes go to the other members).
 */
import { eventually } from '@media/testing';
import type { Client, Frame } from './support';
import { startReplicaStack, type Replica, type ReplicaStack, type StackUser } from './replica-stack';

let stack: ReplicaStack;
let a: Replica;
let b: Replica;

beforeAll(async () => {
  stack = await startReplicaStack('frames');
  // One replica first (it runs the migrations), then the second.
  a = await stack.boot();
  b = await stack.boot();
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

/** A room of Bob and Alice, made on replica `a`. */
async function bobsRoom(): Promise<{ bob: StackUser; room: string }> {
  const [bob, alice] = [stack.user(), stack.user()];
  return { bob, room: await stack.room(a, bob, [alice]) };
}

/** Waits until `client` has `n` frames (or 30 s passed); answers what it has. */
function framesOf(client: Client, n: number): Promise<Frame[]> {
  return eventually(
    async () => client.frames,
    (frames) => frames.length >= n,
    30_000,
  );
}

/** The frames a user's socket should have for `messages`, from `first` on. */
function expected(messages: Record<string, unknown>[], first: number): Frame[] {
  return messages.map((data, i) => ({ event: 'chat.message', data, seq: first + i }));
}

it('gives the sockets of one user on both replicas the message posted during a NATS outage, in order, with seq', async () => {
  const { bob, room } = await bobsRoom();
  const onA = await stack.socket(a, bob);
  const onB = await stack.socket(b, bob);
  const before = await stack.post(a, room, bob, 'before the outage');
  await framesOf(onA, 1);
  await framesOf(onB, 1);

  await stack.natsDown();
  let during: Record<string, unknown>;
  try {
    during = await stack.post(a, room, bob, 'during the outage');
  } finally {
    await stack.natsUp();
  }
  const after = await stack.post(b, room, bob, 'after the outage');

  const want = expected([before, during, after], 1);
  expect(await framesOf(onA, 3)).toEqual(want);
  expect(await framesOf(onB, 3)).toEqual(want);
}, 120_000);

it('replays exactly the 3 messages a client missed when it reconnects with ?resume=<last seq>', async () => {
  const { bob, room } = await bobsRoom();
  const first = await stack.socket(b, bob);
  const seen = [await stack.post(a, room, bob, 'seen 1'), await stack.post(a, room, bob, 'seen 2')];
  expect(await framesOf(first, 2)).toEqual(expected(seen, 1));
  await first.close();

  const missed = [];
  for (const body of ['missed 1', 'missed 2', 'missed 3']) missed.push(await stack.post(a, room, bob, body));
  const again = await stack.socket(b, bob, 2);
  expect(await framesOf(again, 3)).toEqual(expected(missed, 3));
  // Then live ones, after the replayed ones.
  const live = await stack.post(a, room, bob, 'live');
  expect(await framesOf(again, 4)).toEqual(expected([...missed, live], 3));
}, 120_000);

it('keeps seq strictly increasing without gaps, in the same order on both replicas, under concurrent posts to both', async () => {
  const { bob, room } = await bobsRoom();
  const onA = await stack.socket(a, bob);
  const onB = await stack.socket(b, bob);
  const posted = await Promise.all(
    Array.from({ length: 20 }, (_, i) => stack.post(i % 2 === 0 ? a : b, room, bob, `concurrent ${i}`)),
  );
  const fromA = await framesOf(onA, 20);
  const fromB = await framesOf(onB, 20);
  expect(fromA.map((f) => f.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  expect(fromB).toEqual(fromA);
  // Each message once, and in the order their transactions committed (ids are uuids; bodies tell).
  expect(new Set(fromA.map((f) => f.data.id))).toEqual(new Set(posted.map((m) => m.id)));
  const rows = await stack.query(
    `SELECT f.seq, p.data->>'id' AS id FROM ws_frames f JOIN ws_payloads p ON p.id = f.payload_id
      WHERE f.user_id = $1 ORDER BY f.seq`,
    [bob.id],
  );
  expect(fromA.map((f) => f.data.id)).toEqual(rows.map((r) => r.id));
}, 120_000);

/** The reconnecting client of docs/api (plain JavaScript, loaded as a reader of the docs would). */
interface ReliableSocket {
  readonly lastSeq: number | undefined;
  close(): void;
}
type ReliableSocketOptions = {
  lastSeq?: number;
  url: () => string;
  headers?: () => Promise<Record<string, string>>;
  onFrame: (frame: Frame) => void;
  onResync?: (seq: number) => void;
};
const EXAMPLE = '../../../docs/api/examples/reconnecting-ws-client.mjs';

it("the documented reconnecting client gets every message once, in order, across a replica's drain", async () => {
  const { reliableSocket } = (await import(EXAMPLE)) as {
    reliableSocket: (options: ReliableSocketOptions) => ReliableSocket;
  };
  const draining = await stack.boot();
  const { bob, room } = await bobsRoom();
  // The first connection goes to the replica that will drain, every later one to `a`.
  const targets = [draining, a];
  const seen: Frame[] = [];
  const resyncs: number[] = [];
  const client = reliableSocket({
    url: () => `${(targets.shift() ?? a).url.replace(/^http/, 'ws')}/api/v1/ws`,
    headers: async () => ({ authorization: `Bearer ${bob.token}` }),
    onFrame: (frame) => seen.push(frame),
    onResync: (seq) => resyncs.push(seq),
    // A new user has seen nothing: from seq 0, so that no frame is missed while the socket opens.
    lastSeq: 0,
  });
  try {
    const posted = [await stack.post(a, room, bob, 'before the drain')];
    await eventually(
      async () => seen.length,
      (n) => n === 1,
      30_000,
    );
    await draining.process.stop();
    for (const body of ['while away 1', 'while away 2', 'while away 3'])
      posted.push(await stack.post(a, room, bob, body));
    const frames = await eventually(
      async () => seen,
      (got) => got.length >= 4,
      30_000,
    );
    expect(frames).toEqual(expected(posted, 1));
    expect(client.lastSeq).toBe(4);
    expect(resyncs).toEqual([]);
  } finally {
    client.close();
  }
}, 180_000);

it('answers a resume older than the frames kept, above the last seq, or not a seq with resync at the last seq', async () => {
  // Last in this file: its replica prunes what is older than 1 s, the other tests' frames too.
  const shortWindow = await stack.boot({ WS_RESUME_WINDOW: '1s' });
  const { bob, room } = await bobsRoom();
  const messages = [await stack.post(a, room, bob, 'old 1'), await stack.post(a, room, bob, 'old 2')];
  // The window (1 s on this replica) has passed once the newest payload is older than it.
  const aged = await eventually(
    async () => {
      const [row] = await stack.query(
        `SELECT bool_and(p.created_at < clock_timestamp() - interval '1 second') AS old
           FROM ws_payloads p WHERE p.data->>'id' = ANY($1::text[])`,
        [messages.map((m) => m.id)],
      );
      return row.old as boolean | null;
    },
    (old) => old !== false,
    30_000,
  );
  expect(aged).not.toBe(false);

  const resync: Frame = { event: 'resync', data: null, seq: 2 };
  const tooOld = await stack.socket(shortWindow, bob, 0);
  expect(await framesOf(tooOld, 1)).toEqual([resync]);
  const ahead = await stack.socket(shortWindow, bob, 3);
  expect(await framesOf(ahead, 1)).toEqual([resync]);
  const garbage = await stack.socket(shortWindow, bob, 'x1');
  expect(await framesOf(garbage, 1)).toEqual([resync]);
  // Nothing missed (the last seq itself) is not a resync, and live frames follow the resync.
  const current = await stack.socket(shortWindow, bob, 2);
  const next = await stack.post(a, room, bob, 'new');
  expect(await framesOf(current, 1)).toEqual(expected([next], 3));
  expect(await framesOf(tooOld, 2)).toEqual([resync, ...expected([next], 3)]);
  // The replica with the 1 s window prunes the old frames and their payloads.
  const left = await eventually(
    () =>
      stack.query(
        `SELECT (SELECT count(*)::int FROM ws_frames WHERE user_id = $1 AND seq <= 2) AS frames,
                (SELECT count(*)::int FROM ws_payloads WHERE data->>'id' = ANY($2::text[])) AS payloads`,
        [bob.id, messages.map((m) => m.id)],
      ),
    ([row]) => row.frames === 0 && row.payloads === 0,
    30_000,
  );
  expect(left).toEqual([{ frames: 0, payloads: 0 }]);
}, 120_000);
