/** docs/observability.md: the closed table of event types, their categories and the level rule. */
import type { EventCategory, EventLevel } from '../store/store';

export const EVENT_CATEGORIES = {
  swarm_started: 'swarm',
  swarm_stopped: 'swarm',
  swarm_start_failed: 'swarm',
  overlay_cleared: 'swarm',
  agent_started: 'agent',
  agent_ready: 'agent',
  agent_stopped: 'agent',
  agent_failed: 'agent',
  agent_added: 'agent',
  agent_removed: 'agent',
  agent_restarted: 'agent',
  agent_needs_attention: 'agent',
  agent_resumed: 'agent',
  task_sent: 'agent',
  message_delivered: 'agent',
  inbox_full: 'agent',
  inbox_dropped: 'agent',
  api_key_withheld: 'agent',
  unsafe_bypass_enabled: 'agent',
  ssh_host_key_unverified: 'agent',
  network_unfiltered: 'agent',
  turn_started: 'agent',
  turn_completed: 'agent',
  turn_failed: 'agent',
  turn_timeout: 'agent',
  receipt_rejected: 'agent',
  receipt_push_lost: 'agent',
  git_changes: 'agent',
  object_started: 'object',
  object_stopped: 'object',
  object_error: 'object',
  object_added: 'object',
  object_removed: 'object',
  object_config_updated: 'object',
  message_routed: 'routing',
  message_broadcast: 'routing',
  invalid_route: 'routing',
  target_not_found: 'routing',
  outbox_rejected: 'routing',
  no_final_text: 'routing',
  auto_deliver_failed: 'routing',
  auto_deliver_skipped: 'routing',
  egress_started: 'backend',
  egress_stopped: 'backend',
  egress_failed: 'backend',
  budget_exhausted: 'agent',
  rate_limited: 'agent',
  runner_error: 'backend',
  auth_denied: 'system',
  server_started: 'system',
  server_stopping: 'system',
  engine_error: 'system',
  storage_full: 'system',
  storage_recovered: 'system',
} as const satisfies Record<string, EventCategory>;

export type EventType = keyof typeof EVENT_CATEGORIES;

export const EVENT_LEVELS: readonly EventLevel[] = ['debug', 'info', 'warning', 'error'];
export const EVENT_CATEGORY_NAMES: readonly EventCategory[] = ['swarm', 'agent', 'object', 'routing', 'backend', 'system'];

const ERROR_WORDS = ['error', 'failed'];
const WARNING_WORDS = [
  'invalid',
  'not_found',
  'full',
  'denied',
  'rejected',
  'timeout',
  'needs_attention',
  'withheld',
  'dropped',
  'unsafe',
  'unverified',
  'unfiltered',
  'exhausted',
  'rate_limited',
  'push_lost',
];

/** Level from the event type, first match wins: error words, then warning words, else info. */
export function levelForEventType(eventType: string): EventLevel {
  if (ERROR_WORDS.some((w) => eventType.includes(w))) return 'error';
  if (WARNING_WORDS.some((w) => eventType.includes(w))) return 'warning';
  return 'info';
}

export function categoryForEventType(eventType: EventType): EventCategory {
  return EVENT_CATEGORIES[eventType];
}

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_CATEGORIES, value);
}
