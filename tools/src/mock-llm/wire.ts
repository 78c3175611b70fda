/** Small readers shared by the wire protocols: request bodies are untrusted JSON of any shape. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `content` as a string, or the `text` of its parts whose type is a text type (`text`, `input_text`, `output_text`). */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && isTextPart(part['type']) && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('');
}

function isTextPart(type: unknown): boolean {
  return type === undefined || type === 'text' || type === 'input_text' || type === 'output_text';
}

/** The `model` field when it is a non-empty string, else `fallback`. */
export function requestedModel(body: unknown, fallback: string): string {
  return isRecord(body) && typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : fallback;
}

/** True when the body asks for a streamed answer (`stream: true`). */
export function wantsStream(body: unknown): boolean {
  return isRecord(body) && body['stream'] === true;
}
