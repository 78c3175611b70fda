/**
 * The typed section of docs/websocket.md, rendered from the OpenAPI document's `x-socketio` section
 * (the same zod schemas as the REST answers): one row per event with its payload and success ack, one
 * per push with its payload, as TypeScript types.
 */
import type { ApiDocument } from './generate-types';
import { toTsType } from './json-schema-to-ts';
import type { JsonSchema } from './json-schema-to-ts';

export const SECTION_BEGIN = '<!-- BEGIN GENERATED: socket.io types (npm run gen-types -w @genswarms/client) -->';
export const SECTION_END = '<!-- END GENERATED: socket.io types -->';

const REF_PREFIX = '#/components/schemas/';

/** One line of TypeScript for a table cell: the component expanded one level, nested ones by name. */
function cell(schema: JsonSchema, doc: ApiDocument): string {
  const target = schema['$ref'];
  const resolved = typeof target === 'string' ? (doc.components.schemas[target.slice(REF_PREFIX.length)] ?? schema) : schema;
  const text = toTsType(resolved, (name) => name)
    .replace(/\/\*\*.*?\*\/\n?/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/;\s*}/g, ' }');
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

function successAck(ack: JsonSchema): JsonSchema {
  const options = (ack['oneOf'] ?? []) as JsonSchema[];
  return options[0] ?? ack;
}

/** The generated section, markers included. */
export function renderSocketSection(doc: ApiDocument): string {
  const socket = doc['x-socketio'];
  const events = Object.entries(socket.events).map(
    ([event, e]) => `| \`${event}\` | ${cell(e.payload, doc)} | ${cell(successAck(e.ack), doc)} |`,
  );
  const pushes = Object.entries(socket.pushes).map(([push, p]) => `| \`${push}\` | ${cell(p.payload, doc)} |`);
  return [
    SECTION_BEGIN,
    '',
    "Generated from the `x-socketio` section of [openapi.json](openapi.json) (the engine's zod schemas); a failure",
    'ack is always `{ ok: false, error, message, ...details }`. Nested types are components of that document.',
    '',
    '| Event | Payload | Success ack |',
    '|---|---|---|',
    ...events,
    '',
    '| Push | Payload |',
    '|---|---|',
    ...pushes,
    '',
    SECTION_END,
  ].join('\n');
}

/** `markdown` with its generated section replaced (appended when it has none). */
export function replaceSocketSection(markdown: string, section: string): string {
  const begin = markdown.indexOf(SECTION_BEGIN);
  const end = markdown.indexOf(SECTION_END);
  if (begin < 0 || end < begin) return `${markdown.trimEnd()}\n\n## Typed events and pushes\n\n${section}\n`;
  return `${markdown.slice(0, begin)}${section}${markdown.slice(end + SECTION_END.length)}`;
}
