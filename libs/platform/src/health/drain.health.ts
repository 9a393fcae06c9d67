import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';

/**
 * Down once the app's HTTP server drains (SIGTERM): readiness then answers 503, so Kubernetes
 * (and the gateway) stop sending new requests while the ones in flight are finished.
 */
@Injectable()
export class DrainHealthIndicator {
  private probe: () => boolean = () => false;

  constructor(@Inject(HealthIndicatorService) private readonly indicator: HealthIndicatorService) {}

  /** `createApp` points it at the HTTP server's connection manager. */
  follow(probe: () => boolean): void {
    this.probe = probe;
  }

  get draining(): boolean {
    return this.probe();
  }

  check(key: string) {
    const check = this.indicator.check(key);
    return this.draining ? check.down({ message: 'draining' }) : check.up();
  }
}
