import { z } from 'zod';
import { ProcctlError } from '../errors/procctl-error';
import type { SecretMap } from './secret-names';
import { SECRET_HANDOVER_MAX_BYTES } from './secret-names';

/** What travels through the handover descriptor: JSON, read once, then the descriptor is closed. */
export const HandoverPayloadSchema = z
  .object({
    version: z.literal(1).describe('payload format version'),
    secrets: z
      .record(
        z
          .string()
          .regex(/^[A-Z][A-Z0-9_]{0,127}$/)
          .describe('variable name'),
        z.string().describe('secret value'),
      )
      .describe('variable name → value'),
  })
  .strict();

/** Encodes the payload; `handover_too_large` over SECRET_HANDOVER_MAX_BYTES (never truncated). */
export function encodeHandover(secrets: SecretMap): Buffer {
  const bytes = Buffer.from(JSON.stringify({ version: 1, secrets: { ...secrets } }), 'utf8');
  if (bytes.length > SECRET_HANDOVER_MAX_BYTES)
    throw new ProcctlError('handover_too_large', `secret handover is ${bytes.length} bytes (max ${SECRET_HANDOVER_MAX_BYTES})`);
  return bytes;
}

export type HandoverDecode = { kind: 'ok'; secrets: SecretMap } | { kind: 'invalid'; reason: string };

/** Parses a payload, accepting only `names`; `reason` holds key paths, never values. */
export function decodeHandover(bytes: Buffer, names: readonly string[]): HandoverDecode {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    // expected: a malformed payload is reported as `invalid` (the parser's message may quote it).
    return { kind: 'invalid', reason: 'payload is not JSON' };
  }
  const parsed = HandoverPayloadSchema.safeParse(raw);
  if (!parsed.success)
    return { kind: 'invalid', reason: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  const secrets: Record<string, string> = Object.create(null) as Record<string, string>;
  // The raw keys, not zod's output: zod drops an own `__proto__` key instead of rejecting it.
  for (const name of Object.keys((raw as { secrets: object }).secrets)) {
    const value = parsed.data.secrets[name];
    if (!names.includes(name) || value === undefined)
      return { kind: 'invalid', reason: `secrets.${JSON.stringify(name)}: not a secret this process takes` };
    secrets[name] = value;
  }
  return { kind: 'ok', secrets };
}
