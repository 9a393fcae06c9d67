import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/decorators';
import { BusHealthIndicator } from './bus.health';
import { DrainHealthIndicator } from './drain.health';

/** `GET /<prefix>/health/live` (process up) and `/health/ready` (database and NATS reachable). */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(TypeOrmHealthIndicator) private readonly database: TypeOrmHealthIndicator,
    @Inject(BusHealthIndicator) private readonly bus: BusHealthIndicator,
    @Inject(DrainHealthIndicator) private readonly drain: DrainHealthIndicator,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /** 200 or 503 with terminus's report of each dependency (not the error shape: probes read it). */
  @Get('ready')
  @HealthCheck()
  async ready(@Res({ passthrough: true }) res: Response) {
    try {
      return await this.health.check(
        // Draining: down at once, whatever the dependencies say.
        this.drain.draining
          ? [() => this.drain.check('shutdown')]
          : [() => this.database.pingCheck('database', { timeout: 1500 }), () => this.bus.check('nats')],
      );
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse();
    }
  }
}
