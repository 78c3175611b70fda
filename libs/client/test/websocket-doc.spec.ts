/**
 * docs/websocket.md carries a typed table of every socket.io event, ack and push rendered from
 * docs/openapi.json (regenerate: `npm run gen-types -w @genswarms/client`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiDocument } from '../codegen/generate-types';
import { renderSocketSection, replaceSocketSection } from '../codegen/websocket-section';

const DOCUMENT = resolve(__dirname, '../../../docs/openapi.json');
const WEBSOCKET_DOC = resolve(__dirname, '../../../docs/websocket.md');

it('docs/websocket.md has the typed socket.io section of docs/openapi.json (no drift)', () => {
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as ApiDocument;
  const current = readFileSync(WEBSOCKET_DOC, 'utf8');
  const wanted = replaceSocketSection(current, renderSocketSection(doc));
  if (process.env['GENSWARMS_UPDATE_CLIENT'] === '1') writeFileSync(WEBSOCKET_DOC, wanted);
  if (readFileSync(WEBSOCKET_DOC, 'utf8') !== wanted)
    throw new Error('docs/websocket.md is stale: run `npm run gen-types -w @genswarms/client`');
});

it('names every event the server serves and every push', () => {
  const section = renderSocketSection(JSON.parse(readFileSync(DOCUMENT, 'utf8')) as ApiDocument);
  for (const name of ['join', 'send_task', 'get_status', 'subscribe_logs', 'subscribe_events', 'agent_output', 'event', 'log_entry']) {
    expect(section).toContain(`| \`${name}\` |`);
  }
});
