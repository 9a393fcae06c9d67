import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import type { Span } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
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

// The OpenTelemetry SDK: loaded by ./tracing's startTracing only when tracing is on.

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

/**
 * One provider for the process; each span is exported with the `service.name` of the app it was
 * started in (see `runInApp`), so the embedded default's apps keep their own names.
 * @public loaded with `require` by ./tracing only when tracing is on.
 */
export function startTracerProvider(
  serviceName: string,
  requestIdOf: () => string | undefined,
): { stop(): Promise<void> } {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [
      new RequestIdSpanProcessor(requestIdOf),
      new AppSpanProcessor(),
      new BatchSpanProcessor(new PerAppExporter(new OTLPTraceExporter())),
    ],
  });
  // Registers the W3C trace-context propagator and the AsyncLocalStorage context manager.
  provider.register();
  const stopInstrumentations = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new PgInstrumentation({ requireParentSpan: true })],
  });
  return {
    async stop() {
      stopInstrumentations();
      await provider.shutdown().catch(() => undefined);
    },
  };
}
