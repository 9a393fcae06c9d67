import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Observable } from 'rxjs';
import { plannedMoveUnderWay, NATS_CLIENT, InProcessClient } from '@media/messaging';

/**
 * Ready only while both NATS connections are up: the listener's (else requests to this app find
 * no responder) and the client's, which must also answer a round trip.
 */
@Injectable()
export class BusHealthIndicator {
  /** The listener's last status; `createApp` feeds it from the microservice. */
  private listener = 'connecting';

  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject(HealthIndicatorService) private readonly indicator: HealthIndicatorService,
  ) {}

  watchListener(status: Observable<string>): void {
    status.subscribe((value) => (this.listener = value));
  }

  async check(key: string) {
    const check = this.indicator.check(key);
    if (this.client instanceof InProcessClient) return check.up({ transport: 'in-process' });
    // A planned move to a node that rejoined (cluster-spread) reconnects within a moment: the pod
    // stays in service rather than blinking out of it.
    if (this.listener !== 'connected')
      return plannedMoveUnderWay()
        ? check.up({ transport: 'nats', moving: true })
        : check.down({ listener: this.listener });
    try {
      await this.client.connect();
      const connection = this.client.unwrap<NatsConnection>();
      if (connection.isClosed()) return check.down({ message: 'closed' });
      await Promise.race([
        connection.flush(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('flush timed out')), 1500).unref()),
      ]);
      return check.up({ transport: 'nats' });
    } catch (error) {
      if (plannedMoveUnderWay()) return check.up({ transport: 'nats', moving: true });
      return check.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }
}
