import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/decorators';
import { BusHealthIndicator } from './bus.health';

/** `GET /<prefix>/health/live` (process up) and `/health/ready` (database and NATS reachable). */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(TypeOrmHealthIndicator) private readonly database: TypeOrmHealthIndicator,
    @Inject(BusHealthIndicator) private readonly bus: BusHealthIndicator,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: 1500 }),
      () => this.bus.check('nats'),
    ]);
  }
}
