/** Extracts the text of the last `role: "user"` message of an OpenAI chat request body ('' if none). */
export function lastUserMessage(body: unknown): string {
  if (!isRecord(body) || !Array.isArray(body['messages'])) return '';
  const messages: unknown[] = body['messages'];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (isRecord(m) && m['role'] === 'user') return contentText(m['content']);
  }
  return '';
}

/** `content` is a string or an array of parts `{type: "text", text}`; other parts are ignored. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** The `model` field when it is a non-empty string, else the mock's own model id. */
export function requestedModel(body: unknown, fallback: string): string {
  return isRecord(body) && typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : fallback;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
