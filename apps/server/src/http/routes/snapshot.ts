import { stringify } from 'yaml';
import { redactSecrets } from '@genswarms/security';
import { parseSnapshotFormat } from '@genswarms/engine';
import type { RouteHandlers } from './route-kit';
import { engineRoute, nameParam, queryParam } from './route-kit';

export const YAML_CONTENT_TYPE = 'application/yaml; charset=utf-8';

/** The snapshot, `?format=yaml` for YAML: the effective config (seed ⊕ overlay), redacted (docs/rest-api.md). */
export const SNAPSHOT_HANDLERS = {
  snapshotSwarm: engineRoute(async (req, engine) => {
    const swarm = nameParam(req, 's', 'swarm');
    const format = parseSnapshotFormat(queryParam(req, 'format'));
    const config = redactSecrets((await engine.snapshot(swarm)).document);
    if (format === 'json') return { body: config };
    return { text: stringify(config), contentType: YAML_CONTENT_TYPE };
  }),
} satisfies RouteHandlers;
