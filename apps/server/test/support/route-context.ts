import type { SwarmService } from '@genswarms/engine';
import type { RouteContext } from '../../src/http/route';
import { createMemoryEventSink, createServerLogger, IR_GATE_VALIDATOR } from '../../src/index';
import { createServerMetrics } from '../../src/metrics/server-metrics';
import { captureStream, testConfig } from './harness';

/** A RouteContext for binding routes outside an app (`engine` undefined: a server without one). */
export function routeContext(dir: string, engine?: SwarmService): RouteContext {
  return {
    config: testConfig(dir),
    engine,
    events: createMemoryEventSink(),
    logger: createServerLogger(captureStream().stream, 'error'),
    validator: IR_GATE_VALIDATOR,
    metrics: createServerMetrics(),
    readiness: () => Promise.resolve(true),
    closing: () => false,
    endpoints: [],
  };
}
