/** Human output helpers shared by the read commands. */

/** Control characters (a terminal escape from untrusted text) shown as `?`, newlines as `⏎`. */
export function oneLine(text: string, max = 200): string {
  // eslint-disable-next-line no-control-regex -- the point is to neutralise control characters from agents
  const clean = text.replace(/\r?\n/g, ' ⏎ ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Keeps newlines and tabs, replaces every other control character (agents write these lines). */
export function safeText(text: string): string {
  // eslint-disable-next-line no-control-regex -- the point is to neutralise control characters from agents
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

interface EventLike {
  id?: unknown;
  timestamp?: unknown;
  level?: unknown;
  category?: unknown;
  swarm?: unknown;
  agent?: unknown;
  event_type?: unknown;
  message?: unknown;
}

/** One line per event / log entry: `<timestamp> <level> <swarm>/<agent> <event_type>: <message>`. */
export function formatEvent(e: EventLike): string {
  const where = [e.swarm, e.agent].filter((v) => typeof v === 'string').join('/') || '-';
  const message = typeof e.message === 'string' ? oneLine(e.message, 400) : '';
  return `${String(e.timestamp)}  ${String(e.level).padEnd(7)}  ${where}  ${String(e.event_type)}: ${message}`;
}
