import { ACK_SCHEMAS, AckFailureSchema, COMMAND_SCHEMAS, PUSH_SCHEMAS } from '@genswarms/engine';
import type { SchemaComponents } from './json-schema';

/** The payload schema of each client → server event on `/swarm` (as swarm-handlers.ts parses them). */
const SOCKET_COMMANDS: Readonly<Record<keyof typeof ACK_SCHEMAS, keyof typeof COMMAND_SCHEMAS>> = {
  join: 'JoinCommand',
  send_task: 'SocketTaskCommand',
  get_status: 'EmptyCommand',
  subscribe_logs: 'LogsCommand',
  unsubscribe_logs: 'LogsCommand',
  subscribe_events: 'EventsCommand',
  unsubscribe_events: 'EmptyCommand',
};

const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

/**
 * The `x-socketio` extension of the document: every socket.io event with the components of its payload
 * and ack, and every push with its payload (docs/websocket.md is generated from this section).
 */
export function socketSection(components: SchemaComponents): Record<string, unknown> {
  components.ref(AckFailureSchema, 'output', 'AckFailure');
  const events: Record<string, unknown> = {};
  for (const [event, command] of Object.entries(SOCKET_COMMANDS) as [keyof typeof ACK_SCHEMAS, keyof typeof COMMAND_SCHEMAS][]) {
    const ackName = `SocketAck_${event}`;
    components.ref(COMMAND_SCHEMAS[command], 'input', command);
    components.ref(ACK_SCHEMAS[event], 'output', ackName);
    events[event] = { payload: ref(command), ack: { oneOf: [ref(ackName), ref('AckFailure')] } };
  }
  const pushes: Record<string, unknown> = {};
  for (const [push, schema] of Object.entries(PUSH_SCHEMAS)) {
    const name = `SocketPush_${push}`;
    components.ref(schema, 'output', name);
    pushes[push] = { payload: ref(name) };
  }
  return { path: '/socket.io', namespace: '/swarm', transports: ['websocket'], events, pushes };
}
