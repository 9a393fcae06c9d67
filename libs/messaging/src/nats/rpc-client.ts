import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { MessageMeta, RpcEnvelope, RpcReply, RpcRequest, RpcSubject } from '@media/contracts';
import { firstValueFrom, timeout } from 'rxjs';
import type { PlatformConfig } from '@media/core';
import { InjectConfig } from '@media/kernel';
import {
  errorFromPayload,
  isRpcErrorPayload,
  UpstreamUnavailable,
  currentContext,
  AppMetrics,
  inSpan,
  SpanKind,
  traceparentOf,
} from '@media/core';
import { NATS_CLIENT } from './transport';

/**
 * Typed request/reply over NATS with a deadline. An error the responder threw comes back as the
 * same domain error; anything else (no responder, timeout, broker down) is 503
 * `upstream_unavailable` (docs/api/contract.md §5).
 */
@Injectable()
export class RpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger('RpcClient');
  private readonly deadlineMs: number;

  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @InjectConfig() config: PlatformConfig,
    @Inject(AppMetrics) private readonly metrics: AppMetrics,
  ) {
    this.deadlineMs = config.nats.requestTimeout;
  }

  async send<S extends RpcSubject>(
    subject: S,
    data: RpcRequest<S>,
    deadlineMs = this.deadlineMs,
  ): Promise<RpcReply<S>> {
    return this.metrics.timeRpc(
      this.metrics.rpcClient,
      subject,
      () =>
        inSpan(
          `nats request ${subject}`,
          SpanKind.CLIENT,
          { 'messaging.system': 'nats', 'messaging.destination.name': subject },
          () => this.request(subject, data, deadlineMs),
        ),
      (error) => (error instanceof UpstreamUnavailable ? 'unavailable' : 'error'),
    );
  }

  private async request<S extends RpcSubject>(
    subject: S,
    data: RpcRequest<S>,
    deadlineMs: number,
  ): Promise<RpcReply<S>> {
    const envelope: RpcEnvelope<RpcRequest<S>> = { data, meta: this.meta() };
    try {
      return await firstValueFrom(this.client.send<RpcReply<S>>(subject, envelope).pipe(timeout(deadlineMs)));
    } catch (error) {
      if (isRpcErrorPayload(error)) throw errorFromPayload(error);
      this.logger.warn(
        { subject, err: error instanceof Error ? error.message : String(error) },
        'NATS request failed',
      );
      throw new UpstreamUnavailable(`The service behind '${subject}' did not answer.`);
    }
  }

  private meta(): MessageMeta {
    const { request_id, user_id, user_ver } = currentContext();
    return { request_id, user_id, user_ver, traceparent: traceparentOf() };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
