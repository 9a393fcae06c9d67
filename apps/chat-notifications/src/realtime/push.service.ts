import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CHAT_PUSH_SUBJECT, type PushEnvelope, type PushEventName } from '@media/contracts';
import { InjectConfig } from '@media/kernel';
import { isInProcess, natsConnectionOptions, PeriodicJob } from '@media/messaging';
import type { PlatformConfig } from '@media/core';
import type { WebSocket } from 'ws';
import { FramesService, REPLAY_PAGE, type ResumePoint } from './frames.service';

const OPEN = 1;
/**
 * How often a replica compares its sockets with the users' last seqs: the safety net for a push
 * heard by no one (NATS down or a publish dropped), which arrives within two sweeps. After a
 * NATS reconnect it looks at once.
 */
const SWEEP_MS = 2_000;

/** A socket with the seq of the last frame written to it (set when it is attached). */
export type PushSocket = WebSocket & { seq?: number };

/** A frame's text: `{"event", "data", "seq"}`, the event and data serialised once for all users. */
function framer(event: PushEventName, data: unknown): (seq: number) => string {
  let head: string | undefined;
  return (seq) => {
    head ??= `{"event":${JSON.stringify(event)},"data":${JSON.stringify(data ?? null)},"seq":`;
    return `${head}${seq}}`;
  };
}

/**
 * Websocket delivery (docs/api/chat-notifications.md, "Reliable delivery"). Frames are recorded
 * in the database by the transaction that produces them (FramesService), each with a `seq` per
 * user; this service writes them to the sockets open on this replica, each socket's frames in
 * seq order, none twice, none skipped:
 * - live: once the transaction committed, the producing replica writes the frames to its own
 *   sockets and publishes them on core NATS (CHAT_PUSH_SUBJECT, `noEcho`) for the others;
 * - catch-up: a frame whose seq is past the next one a socket expects means that socket missed
 *   some (a publish lost while NATS was down): the user's frames are read back from the
 *   database in order. The same read serves `?resume=` and the periodic sweep that finds
 *   sockets behind their user's last seq when nothing else would (NATS back, nothing new said).
 */
@Injectable()
export class PushService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Push');
  private readonly sockets = new Map<string, Set<PushSocket>>();
  /** Users whose catch-up is running, and whether another was asked for meanwhile. */
  private readonly catchingUp = new Map<string, { again: boolean; done: Promise<void> }>();
  private connection?: NatsConnection;
  /** Each local user's last seq as the previous sweep read it. */
  private previousSweep = new Map<string, number>();
  /** The NATS connection came back since the last sweep. */
  private reconnected = false;
  private readonly sweep = new PeriodicJob({
    name: 'PushSweep',
    every: SWEEP_MS,
    jitter: 0.2,
    run: () => this.sweepOnce(),
  });

  constructor(
    @InjectConfig() private readonly config: PlatformConfig,
    @Inject(FramesService) private readonly frames: FramesService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (isInProcess(this.config.nats)) return;
    this.connection = await connect({
      ...natsConnectionOptions(this.config.nats.url, this.config.nats),
      name: 'chat-notifications-push',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      waitOnFirstConnect: true,
      noEcho: true,
    });
    this.connection.subscribe(CHAT_PUSH_SUBJECT, {
      callback: (error, message) => {
        if (error) return;
        try {
          this.deliver(message.json<PushEnvelope>());
        } catch (failure) {
          this.logger.warn({ err: String(failure) }, 'Malformed push dropped');
        }
      },
    });
    const connection = this.connection;
    void (async () => {
      // Pushes published while this replica was cut off never reach it: look in the database.
      for await (const status of connection.status()) {
        if (status.type !== 'reconnect') continue;
        this.reconnected = true;
        this.sweep.soon(0);
      }
    })();
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweep.stop();
    await this.connection?.drain().catch(() => undefined);
  }

  /**
   * Sends recorded frames (FramesService.record) to their users' sockets on every replica; call
   * it once their transaction committed.
   */
  publish(envelopes: PushEnvelope[]): void {
    for (const envelope of envelopes) {
      this.connection?.publish(CHAT_PUSH_SUBJECT, JSON.stringify(envelope));
    }
    // After the caller's answer is written (its microtasks run first).
    setImmediate(() => envelopes.forEach((envelope) => this.deliver(envelope)));
  }

  /**
   * Takes a new socket of `userId` starting after `start.seq` (read at the upgrade, before the
   * client saw it open), after a `resync` frame when its resume could not be served; the frames
   * since are read back, then live ones follow.
   */
  attach(userId: string, socket: PushSocket, start: ResumePoint): void {
    const set = this.sockets.get(userId) ?? new Set<PushSocket>();
    set.add(socket);
    this.sockets.set(userId, set);
    if (start.resync) this.send(socket, framer('resync', null)(start.seq));
    socket.seq = start.seq;
    void this.catchUp(userId).catch((error: unknown) => this.catchUpFailed(userId, error));
  }

  detach(userId: string, socket: PushSocket): void {
    const set = this.sockets.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.sockets.delete(userId);
  }

  /** Sockets open on this replica (health and tests). */
  get localConnections(): number {
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }

  private deliver(envelope: PushEnvelope): void {
    const text = framer(envelope.event, envelope.data);
    envelope.user_ids.forEach((userId, index) => {
      if (this.sockets.has(userId)) this.offer(userId, envelope.seqs[index], text);
    });
  }

  /** Writes the frame `seq` to each socket of the user expecting it next; a gap starts a catch-up. */
  private offer(userId: string, seq: number, text: (seq: number) => string): void {
    let gap = false;
    for (const socket of this.sockets.get(userId) ?? []) {
      if (socket.seq === undefined || seq <= socket.seq) continue;
      if (seq === socket.seq + 1) {
        this.send(socket, text(seq));
        socket.seq = seq;
      } else gap = true;
    }
    if (gap) void this.catchUp(userId).catch((error: unknown) => this.catchUpFailed(userId, error));
  }

  /**
   * Reads the user's frames after the earliest seq one of its sockets has, in order, and offers
   * them. One at a time per user: asked for while one runs, it runs once more after it.
   */
  private catchUp(userId: string): Promise<void> {
    const running = this.catchingUp.get(userId);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await this.readBack(userId);
        } while (state.again);
      } finally {
        this.catchingUp.delete(userId);
      }
    })();
    this.catchingUp.set(userId, state);
    return state.done;
  }

  private async readBack(userId: string): Promise<void> {
    for (;;) {
      const started = [...(this.sockets.get(userId) ?? [])].filter((s) => s.seq !== undefined);
      if (started.length === 0) return;
      const from = Math.min(...started.map((s) => s.seq ?? 0));
      const frames = await this.frames.after(userId, from);
      if (frames.length === 0) return;
      if (frames[0].seq > from + 1) {
        // Frames this socket missed were pruned (behind for longer than the window): resync.
        const last = frames[frames.length - 1].seq;
        for (const socket of started) {
          if ((socket.seq ?? 0) + 1 < frames[0].seq) {
            this.send(socket, framer('resync', null)(last));
            socket.seq = last;
          }
        }
      }
      for (const frame of frames) this.offer(userId, frame.seq, framer(frame.event, frame.data));
      if (frames.length < REPLAY_PAGE) return;
    }
  }

  /**
   * Catches up every local user with a socket behind the last seq the previous sweep saw (a
   * frame committed since may still be on its way live, and reading it back would only cost a
   * query per user); after a NATS reconnect, behind the last seq now.
   */
  private async sweepOnce(): Promise<number> {
    const users = [...this.sockets.keys()];
    const now = await this.frames.lastSeqs(users);
    const target = this.reconnected ? now : this.previousSweep;
    this.reconnected = false;
    this.previousSweep = now;
    let behind = 0;
    for (const userId of users) {
      const seq = target.get(userId) ?? 0;
      const sockets = [...(this.sockets.get(userId) ?? [])];
      if (sockets.some((s) => s.seq !== undefined && s.seq < seq)) {
        behind++;
        await this.catchUp(userId).catch((error: unknown) => this.catchUpFailed(userId, error));
      }
    }
    if (behind > 0) this.logger.log({ users: behind }, 'websockets caught up from the database');
    return behind;
  }

  private catchUpFailed(userId: string, error: unknown): void {
    // The next sweep tries again.
    this.logger.warn({ err: String(error), user_id: userId }, 'websocket catch-up failed');
  }

  private send(socket: PushSocket, text: string): void {
    if (socket.readyState === OPEN) socket.send(text);
  }
}
