import { stringify } from 'yaml';
import { redactSecrets } from '@genswarms/security';
import type { RouteModule } from '../route-module';
import { handle, invalidQuery, nameParam, queryParam } from './route-kit';

export const YAML_CONTENT_TYPE = 'application/yaml; charset=utf-8';

function formatOf(raw: string | undefined): 'json' | 'yaml' {
  if (raw === undefined || raw === 'json') return 'json';
  if (raw === 'yaml') return 'yaml';
  throw invalidQuery('format', 'expected json or yaml');
}

/** `POST /api/swarms/:s/snapshot[?format=yaml]`: the effective config (seed ⊕ overlay), redacted (CONTRACT §15). */
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
        const format = formatOf(queryParam(req, 'format'));
        const config = redactSecrets(await engine.snapshot(swarm));
        if (format === 'json') return { body: config };
        return { text: stringify(config), contentType: YAML_CONTENT_TYPE };
      }),
    );
  },
};
