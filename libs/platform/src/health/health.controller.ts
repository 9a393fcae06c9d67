import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiExtraModels,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Public, ApiSuccess } from '@media/http';
import { BusHealthIndicator } from './bus.health';
import { DrainHealthIndicator } from './drain.health';
import { EventsHealthIndicator } from './events.health';

export class LiveResponse {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

/** One dependency's state in a readiness report. */
export class DependencyStatus {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: string;

  @ApiPropertyOptional({ description: 'Why it is down' })
  message?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'events only: durable consumers with events pending and no progress (reported, never failing readiness)',
  })
  stalled?: string[];
}

const DEPENDENCIES = {
  type: 'object' as const,
  additionalProperties: { $ref: getSchemaPath(DependencyStatus) },
  example: { database: { status: 'up' }, nats: { status: 'up' }, events: { status: 'up', stalled: [] } },
};

/** Terminus's report: every dependency under `details`, split into `info` (up) and `error` (down). */
export class ReadyResponse {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'] })
  status!: HealthCheckResult['status'];

  @ApiPropertyOptional(DEPENDENCIES)
  info?: HealthCheckResult['info'];

  @ApiPropertyOptional(DEPENDENCIES)
  error?: HealthCheckResult['error'];

  @ApiProperty(DEPENDENCIES)
  details!: HealthCheckResult['details'];
}

/**
 * `GET /<prefix>/health/live` (process up) and `/health/ready` (database and NATS reachable; the
 * event consumers' progress is reported under `events` and never fails it).
 */
@ApiTags('health')
@ApiExtraModels(DependencyStatus)
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(TypeOrmHealthIndicator) private readonly database: TypeOrmHealthIndicator,
    @Inject(BusHealthIndicator) private readonly bus: BusHealthIndicator,
    @Inject(DrainHealthIndicator) private readonly drain: DrainHealthIndicator,
    @Inject(EventsHealthIndicator) private readonly events: EventsHealthIndicator,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiSuccess(LiveResponse, { description: 'Up' })
  live(): LiveResponse {
    return { status: 'ok' };
  }

  /** 200 or 503 with terminus's report of each dependency (not the error shape: probes read it). */
  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database and NATS are reachable' })
  @ApiSuccess(ReadyResponse, { description: 'Every dependency is up' })
  @ApiResponse({ status: 503, type: ReadyResponse, description: 'A dependency is down (the same report)' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    try {
      return await this.health.check(
        // Draining: down at once, whatever the dependencies say.
        this.drain.draining
          ? [() => this.drain.check('shutdown')]
          : [
              () => this.database.pingCheck('database', { timeout: 1500 }),
              () => this.bus.check('nats'),
              () => this.events.check('events'),
            ],
      );
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
