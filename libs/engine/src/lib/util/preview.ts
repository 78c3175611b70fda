/** At most 100 characters of a content, for events, pushes and the message log. */
export const PREVIEW_MAX_CHARS = 100;

export function contentPreview(content: string, max = PREVIEW_MAX_CHARS): string {
  const chars = Array.from(content);
  return chars.length <= max ? content : chars.slice(0, max).join('');
}
