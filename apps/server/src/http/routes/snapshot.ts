import { stringify } from 'yaml';
import { redactSecrets } from '@genswarms/security';
import { parseSnapshotFormat } from '@genswarms/engine';
import type { RouteModule } from '../route-module';
import { handle, nameParam, queryParam } from './route-kit';

export const YAML_CONTENT_TYPE = 'application/yaml; charset=utf-8';

/** `POST /api/swarms/:s/snapshot[?format=yaml]`: the effective config (seed ⊕ overlay), redacted (docs/rest-api.md). */
export const snapshotRoute: RouteModule = {
  name: 'snapshot',
  endpoints: ['POST /api/swarms/:s/snapshot'],
  register(router, ctx): void {
    const engine = ctx.engine;
    if (engine === undefined) return;
    router.post(
      '/api/swarms/:s/snapshot',
      handle(async (req) => {
        const swarm = nameParam(req, 's', 'swarm');
        const format = parseSnapshotFormat(queryParam(req, 'format'));
        const config = redactSecrets((await engine.snapshot(swarm)).document);
        if (format === 'json') return { body: config };
        return { text: stringify(config), contentType: YAML_CONTENT_TYPE };
      }),
    );
  },
};
