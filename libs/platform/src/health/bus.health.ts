import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { NatsConnection } from '@nats-io/transport-node';
import { NATS_CLIENT } from '../nats/transport';
import { InProcessClient } from '../nats/in-process';

/** Ready only while the NATS connection is open and answers a round trip. */
@Injectable()
export class BusHealthIndicator {
  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject(HealthIndicatorService) private readonly indicator: HealthIndicatorService,
  ) {}

  async check(key: string) {
    const check = this.indicator.check(key);
    if (this.client instanceof InProcessClient) return check.up({ transport: 'in-process' });
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
      return check.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }
}
