/**
 * Every environment variable the server treats as a secret (README "Configuration"). None of them
 * may stay in the initial environment of a long-lived process: see docs/security.md#9-secrecy-and-logs.
 */
export const SERVER_SECRET_ENV_NAMES: readonly string[] = Object.freeze([
  'GENSWARMS_API_TOKEN',
  'GENSWARMS_CONFIG_API_TOKEN',
  'GENSWARMS_LLM_API_KEY',
]);

/** Names the inherited descriptor that carries the handed-over secrets (a number, never a secret). */
export const SECRET_HANDOVER_FD_ENV = 'GENSWARMS_SECRETS_FD';

/** Payload cap: far above three tokens, and below the 64 KiB a Linux pipe buffers without a reader. */
export const SECRET_HANDOVER_MAX_BYTES = 32 * 1024;

/** How long the receiver waits for the writer to close its end. */
export const SECRET_HANDOVER_TIMEOUT_MS = 10_000;

export type SecretMap = Readonly<Record<string, string>>;

/** Splits `env` into the variables without `names` and the secrets found (null-prototype maps). */
export function splitSecrets(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): { clean: Record<string, string>; secrets: Record<string, string> } {
  const clean: Record<string, string> = Object.create(null) as Record<string, string>;
  const secrets: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (names.includes(name)) secrets[name] = value;
    else clean[name] = value;
  }
  return { clean, secrets };
}
