import {
  execWithSecrets,
  procctlStatus,
  readSecretHandover,
  SECRET_HANDOVER_FD_ENV,
  SERVER_SECRET_ENV_NAMES,
  setDumpable,
} from '@genswarms/procctl';
import type { ExecWithSecretsSpec, ProcctlStatus, SecretHandoverRead } from '@genswarms/procctl';
import type { ServerEnv } from '../config/load-server-config';

/** The process facts needed to re-execute this same server. */
export interface SecretsIo {
  readonly env: ServerEnv;
  readonly execPath: string;
  readonly execArgv: readonly string[];
  /** `process.argv`: [node, entry, ...args]. */
  readonly argv: readonly string[];
}

/** The procctl calls, injectable so the refusal rules are tested with a fake. */
export interface SecretOps {
  status(): ProcctlStatus;
  setDumpable(flag: boolean): void;
  readHandover(env: ServerEnv, names: readonly string[]): Promise<SecretHandoverRead>;
  execWithSecrets(spec: ExecWithSecretsSpec): never;
}

export const PROCCTL_SECRET_OPS: SecretOps = {
  status: procctlStatus,
  setDumpable,
  readHandover: (env, names) => readSecretHandover(env, names),
  execWithSecrets,
};

/** `ready.env` = the environment with the handed-over secrets; `refused` = print `line`, exit `code`. */
export type SecretsBoot = { kind: 'ready'; env: ServerEnv; warning?: string } | { kind: 'refused'; line: string; code: 1 | 2 };

function withoutHandoverFd(env: ServerEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [k, v] of Object.entries(env)) if (k !== SECRET_HANDOVER_FD_ENV) out[k] = v;
  return out;
}

/**
 * First thing at boot (docs/security.md#9-secrecy-and-logs): become non-dumpable, take secrets handed over on
 * `GENSWARMS_SECRETS_FD`, and if any secret is still in the environment re-execute this same server
 * (same pid) with it moved to a pipe, so no secret stays in `/proc/<pid>/environ`. Without the procctl
 * addon a configured secret cannot be protected: refuse (fail-closed); with no secret, only warn.
 */
export async function takeServerSecrets(io: SecretsIo, ops: SecretOps = PROCCTL_SECRET_OPS): Promise<SecretsBoot> {
  const status = ops.status();
  if (status.kind === 'ok') ops.setDumpable(false); // before the read: /proc/<pid>/fd/<handover> closes to same-uid readers
  const handed = await ops.readHandover(io.env, SERVER_SECRET_ENV_NAMES);
  if (handed.kind === 'invalid')
    return { kind: 'refused', line: `genswarms: invalid ${SECRET_HANDOVER_FD_ENV}: ${handed.reason}`, code: 2 };
  const handedSecrets = handed.kind === 'ok' ? handed.secrets : {};
  const inEnv = SERVER_SECRET_ENV_NAMES.filter((name) => io.env[name] !== undefined);
  const configured = [...new Set([...inEnv, ...Object.keys(handedSecrets)])];
  if (status.kind === 'missing') {
    if (configured.length === 0)
      return {
        kind: 'ready',
        env: withoutHandoverFd(io.env),
        warning: `genswarms: warning: ${status.reason}; the server stays dumpable (same-uid processes can read its memory)`,
      };
    return {
      kind: 'refused',
      line: `genswarms: cannot protect ${configured.join(', ')}: ${status.reason}; refusing to start (fail-closed: the secret would stay readable through /proc/<pid>)`,
      code: 1,
    };
  }
  if (inEnv.length > 0) {
    try {
      ops.execWithSecrets({
        file: io.execPath,
        argv: [io.execPath, ...io.execArgv, ...io.argv.slice(1)],
        env: io.env,
        extraSecrets: handedSecrets,
        secretNames: SERVER_SECRET_ENV_NAMES,
      });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      return {
        kind: 'refused',
        line: `genswarms: cannot re-execute without ${inEnv.join(', ')} in the environment: ${typeof code === 'string' ? code : 'error'}; refusing to start (fail-closed)`,
        code: 1,
      };
    }
  }
  return { kind: 'ready', env: { ...withoutHandoverFd(io.env), ...handedSecrets } };
}
