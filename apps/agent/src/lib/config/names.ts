/** A Name (docs/configuration.md) = ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$ (swarms, agents, objects). */
export const NAME_RE = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
/** docs/receipts.md: engine-made turn ids. They become a path component, so nothing else is accepted. */
export const TURN_ID_RE = /^[a-z0-9_-]{1,64}$/;
/** Sender of operator tasks (docs/messaging.md#sending-messages); no Name can take it. */
export const OPERATOR_SENDER = '_operator';

export function isName(value: string): boolean {
  return NAME_RE.test(value);
}

/** "Unset" (README Configuration): absent, "" or whitespace only → undefined; anything else verbatim. */
export function unsetToUndefined(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : raw;
}
