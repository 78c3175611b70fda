import type { ServerResponse } from 'node:http';

/** One server-sent event: an optional `event:` name and a JSON `data:` line. */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

/** Writes a complete `text/event-stream` answer (status 200) and ends it; `[DONE]` is sent verbatim. */
export function sendSse(res: ServerResponse, events: readonly SseEvent[], extra: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return;
  res.writeHead(200, { ...extra, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) {
    const data = e.data === '[DONE]' ? '[DONE]' : JSON.stringify(e.data);
    res.write(`${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${data}\n\n`);
  }
  res.end();
}

/** Splits `text` into at most `parts` pieces (a stream with several deltas, as real servers send). */
export function chunkText(text: string, parts = 3): string[] {
  if (text.length === 0) return [''];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
