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
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import type { ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { requestContext } from '../http/request-context';
import { currentApp } from './app-context';

export { SpanKind };
export type { Span };

/** Puts the request id (and caller) of the request being served on every span it starts. */
class RequestIdSpanProcessor implements SpanProcessor {
  constructor(private readonly requestIdOf: () => string | undefined) {}
  onStart(span: Span): void {
    const request = requestContext.getStore();
    const id = request?.request_id ?? this.requestIdOf();
    if (id) span.setAttribute('request_id', id);
    if (request?.user_id) span.setAttribute('enduser.id', request.user_id);
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The app each span was started in (the embedded default has one provider for all apps). */
const appOfSpan = new WeakMap<object, string>();
const resources = new Map<string, Resource>();

function resourceOf(app: string): Resource {
  let resource = resources.get(app);
  if (!resource) {
    resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: app });
    resources.set(app, resource);
  }
  return resource;
}

/** Notes the app a span starts in (from the async context of the work that starts it). */
class AppSpanProcessor implements SpanProcessor {
  onStart(span: Span): void {
    const app = currentApp()?.app;
    if (app) appOfSpan.set(span, app);
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Exports each span under its own app's `service.name`: a process has one tracer provider, and
 * with it one resource, but the embedded default runs nine services in it.
 */
class PerAppExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const own = spans.map((span) => {
      const app = appOfSpan.get(span);
      return app ? (Object.create(span, { resource: { value: resourceOf(app) } }) as ReadableSpan) : span;
    });
    this.inner.export(own, done);
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

let provider: NodeTracerProvider | undefined;
let stopInstrumentations: (() => void) | undefined;

/**
 * Starts OpenTelemetry tracing for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (off
 * otherwise: every span below is then a no-op). The exporter (OTLP/HTTP), sampler
 * (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`) and batching (`OTEL_BSP_*`) follow the
 * standard OTEL_* variables; only traces are exported (metrics are Prometheus'). SQL spans come
 * from the pg instrumentation, so this runs before the first database connection. One provider
 * per process; each span is exported with the `service.name` of the app it was started in (see
 * `runInApp`), so the embedded default's apps keep their own names.
 */
export function startTracing(
  serviceName: string,
  endpoint: string | undefined,
  requestIdOf: () => string | undefined = () => undefined,
): boolean {
  if (!endpoint) return false;
  if (provider) return true;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [
      new RequestIdSpanProcessor(requestIdOf),
      new AppSpanProcessor(),
      new BatchSpanProcessor(new PerAppExporter(new OTLPTraceExporter())),
    ],
  });
  // Registers the W3C trace-context propagator and the AsyncLocalStorage context manager.
  provider.register();
  stopInstrumentations = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new PgInstrumentation({ requireParentSpan: true })],
  });
  return true;
}

/** Flushes and stops the exporter (at shutdown, so the last spans are not lost). */
export async function stopTracing(): Promise<void> {
  const running = provider;
  provider = undefined;
  stopInstrumentations?.();
  await running?.shutdown().catch(() => undefined);
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
