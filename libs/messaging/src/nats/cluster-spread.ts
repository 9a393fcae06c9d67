import { Logger } from '@nestjs/common';
import type { NatsConnection, ReconnectToServerHandler } from '@nats-io/transport-node';

export interface SpreadOptions {
  /** Moves are spread over this long, so a rejoined node is not hit by every client at once. */
  windowMs?: number;
  /** How often the server's cluster list is read (it arrives with the server's INFO updates). */
  everyMs?: number;
  random?: () => number;
  onMove?: (move: { from: string; to: string }) => void;
  /**
   * A move waits for a moment when the connection carried no message for this long (at most
   * `quietMaxMs`), so requests in flight get their replies and acks go out first; 0: no wait.
   */
  quietMs?: number;
  quietMaxMs?: number;
}

/**
 * Spreads client connections over a NATS cluster again after a failover. A client reconnects
 * only when its server goes away, so after nodes are lost every connection sits on the
 * survivors and a node that rejoins gets none; nats-server (2.9, 2.10) does not move clients by
 * itself. Each connection therefore watches the cluster list its server advertises
 * (`connect_urls`); when nodes join, it moves to one of them with probability
 * joined / cluster size, at a random moment within `windowMs`, so that on average every node
 * ends with its share (a lone survivor holding 21 connections: the second node takes about half
 * when it rejoins, the third a third of each). A node joining while a move waits makes the
 * connection draw again among all that joined, as if they had come back together.
 *
 * The move is a forced reconnect (`nc.reconnect()`) steered by `reconnectToServer`, which must be
 * given to the connection's options. It waits for a quiet moment on the connection first (no
 * message either way for `quietMs`), so a request in flight gets its reply; one that outlasts
 * `quietMaxMs` fails as in any reconnect (callers get a 503), and JetStream pulls start over.
 */
export class ClusterSpread {
  private nc?: NatsConnection;
  private target?: string;
  private serverId?: string;
  private known = new Set<string>();
  /** The nodes the pending move was drawn among. */
  private joined: string[] = [];
  private timer?: NodeJS.Timeout;
  private move?: NodeJS.Timeout;
  /** When the last move started (its disconnect and reconnect are logged as planned). */
  private movedAt = Number.NEGATIVE_INFINITY;
  private readonly windowMs: number;
  private readonly everyMs: number;
  private readonly random: () => number;
  private readonly quietMs: number;
  private readonly quietMaxMs: number;

  constructor(private readonly options: SpreadOptions = {}) {
    this.windowMs = options.windowMs ?? 10_000;
    this.quietMs = options.quietMs ?? 250;
    this.quietMaxMs = options.quietMaxMs ?? 5_000;
    this.everyMs = options.everyMs ?? 1_000;
    this.random = options.random ?? Math.random;
  }

  /** Connection option: dials the chosen node during a move, else the library's own choice. */
  readonly reconnectToServer: ReconnectToServerHandler = (pool) => {
    const target = this.target;
    this.target = undefined;
    return (target && pool.find((server) => server.listen === target)) || null;
  };

  /** Starts watching `nc` (until it closes). */
  attach(nc: NatsConnection): void {
    this.stop();
    this.nc = nc;
    this.serverId = undefined;
    this.timer = setInterval(() => this.check(), this.everyMs);
    this.timer.unref();
    void nc.closed().then(() => {
      if (this.nc === nc) this.stop();
    });
  }

  /** How many nodes the connection's server advertised at the last look. */
  get advertised(): number {
    return this.known.size;
  }

  /** True while a move is scheduled or under way. */
  get moving(): boolean {
    return this.move !== undefined || this.target !== undefined;
  }

  /** True during a move and for 10 s after it began: the disconnect it causes is not a failure. */
  get planned(): boolean {
    return this.moving || Date.now() - this.movedAt < 10_000;
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.move);
    this.move = undefined;
  }

  private check(): void {
    const info = this.nc?.info;
    if (!info) return;
    const urls = new Set(info.connect_urls ?? []);
    if (info.server_id !== this.serverId) {
      // A new server (first connect or a reconnect): its list is the baseline, nothing joined.
      this.serverId = info.server_id;
      this.known = urls;
      clearTimeout(this.move);
      this.move = undefined;
      return;
    }
    // Never "move" to the node the connection is on (it may advertise itself anew when it rejoins
    // the cluster): that would be a reconnect for nothing.
    const own = this.nc?.getServer();
    let joined = [...urls].filter((url) => !this.known.has(url) && url !== own);
    this.known = urls;
    if (joined.length === 0) return;
    if (this.move) {
      // Another node joined while a move waits: draw again as if all had joined at once.
      clearTimeout(this.move);
      this.move = undefined;
      joined = [...new Set([...this.joined, ...joined])].filter((url) => urls.has(url) && url !== own);
    }
    this.joined = joined;
    if (this.random() >= joined.length / urls.size) return;
    const to = joined[Math.floor(this.random() * joined.length)];
    const from = info.server_id;
    const still = (nc: NatsConnection | undefined): nc is NatsConnection =>
      !!nc &&
      nc.info?.server_id === from &&
      (nc.info.connect_urls ?? []).includes(to) &&
      nc.getServer() !== to;
    this.move = setTimeout(() => {
      this.movedAt = Date.now();
      const go = () => {
        this.move = undefined;
        const nc = this.nc;
        // Still on the same server, and the node still there: go.
        if (!still(nc)) return;
        this.target = to;
        this.movedAt = Date.now();
        this.options.onMove?.({ from: nc.info?.server_name ?? from, to });
        nc.reconnect().catch(() => (this.target = undefined));
      };
      if (this.quietMs <= 0 || !this.nc) go();
      else void this.quiet(this.nc).then(go);
    }, this.random() * this.windowMs);
    this.move.unref();
  }

  /** Resolves once `nc` carried no message for `quietMs`, or after `quietMaxMs` anyway. */
  private async quiet(nc: NatsConnection): Promise<void> {
    const traffic = () => {
      const stats = nc.stats();
      return stats.inMsgs + stats.outMsgs;
    };
    const deadline = Date.now() + this.quietMaxMs;
    let seen = traffic();
    let since = Date.now();
    while (Date.now() < deadline && Date.now() - since < this.quietMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, this.quietMs)).unref());
      const now = traffic();
      if (now !== seen) {
        seen = now;
        since = Date.now();
      }
    }
  }
}

const spreads = new Map<string, ClusterSpread>();
const logger = new Logger('NatsSpread');

/** Whether one of this process's connections is moving to a rejoined node (or just did). */
export function plannedMoveUnderWay(): boolean {
  return [...spreads.values()].some((spread) => spread.planned);
}

/**
 * The spread of the connection named `name` (`<app>-client`, `-listener`, `-events`): its
 * `reconnectToServer` goes into the connection's options, `attach` follows once it is connected.
 */
export function clusterSpread(name: string): ClusterSpread {
  let spread = spreads.get(name);
  if (!spread) {
    spread = new ClusterSpread({
      onMove: ({ from, to }) =>
        logger.log({ connection: name, from, to }, 'Moving to a NATS node that rejoined'),
    });
    spreads.set(name, spread);
  }
  return spread;
}
