import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

export { SpanKind };
export type { Span };

type TracingSdk = typeof import('./tracing-sdk');
let running: ReturnType<TracingSdk['startTracerProvider']> | undefined;

/**
 * Starts OpenTelemetry tracing for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (off
 * otherwise: every span below is then a no-op). The exporter (OTLP/HTTP), sampler
 * (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`) and batching (`OTEL_BSP_*`) follow the
 * standard OTEL_* variables; only traces are exported (metrics are Prometheus'). SQL spans come
 * from the pg instrumentation, so this runs before the first database connection. One provider
 * per process (see ./tracing-sdk). The SDK is loaded here, only when tracing is on: its
 * exporter and instrumentation are a good part of an app's start-up otherwise.
 */
export function startTracing(
  serviceName: string,
  endpoint: string | undefined,
  requestIdOf: () => string | undefined = () => undefined,
): boolean {
  if (!endpoint) return false;
  if (running) return true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as TracingSdk;
  running = sdk.startTracerProvider(serviceName, requestIdOf);
  return true;
}

/** Flushes and stops the exporter (at shutdown, so the last spans are not lost). */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  running = undefined;
  await stopping?.stop();
}

const tracer = () => trace.getTracer('media-backoffice');

/** The W3C `traceparent` of a context (the active one by default), to carry across a hop. */
export function traceparentOf(ctx: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** The context a carried `traceparent` (HTTP headers, a message's meta) continues. */
export function contextFrom(carrier: { traceparent?: string | string[] } | undefined): Context {
  const traceparent = Array.isArray(carrier?.traceparent) ? carrier.traceparent[0] : carrier?.traceparent;
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** Starts a span (child of `parent`) that the caller ends; `run` executes inside its context. */
export function openSpan(
  name: string,
  kind: SpanKind,
  parent: Context,
  attributes: Attributes = {},
): { span: Span; context: Context; run<T>(work: () => T): T } {
  const span = tracer().startSpan(name, { kind, attributes }, parent);
  const ctx = trace.setSpan(parent, span);
  return { span, context: ctx, run: (work) => context.with(ctx, work) };
}

/** Runs `work` in a span, recording an error status when it throws. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  const { span, run } = openSpan(name, kind, parent, attributes);
  try {
    return await run(() => work(span));
  } catch (error) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span of an HTTP answer: error status for 5xx, as the OTel HTTP conventions do. */
export function endHttpSpan(span: Span, route: string, method: string, status: number): void {
  span.updateName(`${method} ${route}`);
  span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
