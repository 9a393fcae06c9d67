import {
  BaseRpcContext,
  ClientProxy,
  Server,
  type CustomTransportStrategy,
  type MessageHandler,
  type ReadPacket,
  type WritePacket,
} from '@nestjs/microservices';
import { isObservable, lastValueFrom, type Observable } from 'rxjs';

/**
 * The in-process stand-in for NATS, used only when all apps run in one process (the embedded
 * default without a nats-server). It carries the same subjects: a request goes to one app that
 * handles the subject (like a queue group), an event goes to every app that listens to it.
 */
class InProcessBus {
  private readonly servers = new Set<InProcessServer>();
  private turn = 0;

  attach(server: InProcessServer): void {
    this.servers.add(server);
  }

  detach(server: InProcessServer): void {
    this.servers.delete(server);
  }

  responderFor(pattern: string): InProcessServer | undefined {
    const candidates = [...this.servers].filter((s) => s.handles(pattern, false));
    if (candidates.length === 0) return undefined;
    return candidates[this.turn++ % candidates.length];
  }

  listenersOf(pattern: string): InProcessServer[] {
    return [...this.servers].filter((s) => s.handles(pattern, true));
  }
}

export const inProcessBus = new InProcessBus();

async function settle(result: unknown): Promise<unknown> {
  const value = await result;
  return isObservable(value)
    ? lastValueFrom(value as Observable<unknown>, { defaultValue: undefined })
    : value;
}

export class InProcessServer extends Server implements CustomTransportStrategy {
  constructor(readonly app: string) {
    super();
  }

  handles(pattern: string, event: boolean): boolean {
    const handler = this.messageHandlers.get(pattern);
    return handler !== undefined && handler.isEventHandler === event;
  }

  async request(pattern: string, data: unknown): Promise<unknown> {
    const handler = this.getHandlerByPattern(pattern) as MessageHandler;
    return settle(handler(data, new BaseRpcContext([pattern, this.app])));
  }

  async event(pattern: string, data: unknown): Promise<void> {
    await this.handleEvent(pattern, { pattern, data }, new BaseRpcContext([pattern, this.app]));
  }

  listen(callback: () => void): void {
    inProcessBus.attach(this);
    callback();
  }

  close(): void {
    inProcessBus.detach(this);
  }

  on(): void {
    /* no connection events: the bus cannot disconnect */
  }

  unwrap<T>(): T {
    return inProcessBus as T;
  }
}

export class InProcessClient extends ClientProxy {
  async connect(): Promise<void> {}

  async close(): Promise<void> {}

  override on(): void {}

  unwrap<T>(): T {
    return inProcessBus as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = this.normalizePattern(packet.pattern);
    const responder = inProcessBus.responderFor(pattern);
    if (!responder) {
      callback({ err: new Error(`no responders for ${pattern}`), isDisposed: true });
      return () => undefined;
    }
    let cancelled = false;
    setImmediate(() => {
      responder.request(pattern, packet.data).then(
        (response) => !cancelled && callback({ response, isDisposed: true }),
        (err: unknown) => !cancelled && callback({ err, isDisposed: true }),
      );
    });
    return () => (cancelled = true);
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const pattern = this.normalizePattern(packet.pattern);
    await Promise.all(inProcessBus.listenersOf(pattern).map((s) => s.event(pattern, packet.data)));
    return undefined as T;
  }
}
