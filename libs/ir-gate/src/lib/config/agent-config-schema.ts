import { z } from 'zod';

/** Env names a client may receive (docs/runners.md). */
export const ENV_KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Agent fields that config→IR stores inside `config`; a config may not use them itself. */
export const AGENT_FIELDS_IN_CONFIG = [
  'client',
  'endpoint',
  'endpoint_api',
  'api_key',
  'network',
  'workspace',
  'unsafe_bypass',
  'reply_to',
  'turn_timeout_ms',
  'budget',
  'rate_limit',
] as const;

function isReservedEnvKey(key: string): boolean {
  return key.startsWith('GENSWARMS_') || key.startsWith('SWARM_') || key === 'HOME' || key === 'PATH';
}

const EnvKey = z
  .string()
  .regex(ENV_KEY_RE, 'env names must match ^[A-Za-z_][A-Za-z0-9_]*$')
  .refine((k) => !isReservedEnvKey(k), 'GENSWARMS_*, SWARM_*, HOME and PATH are set by genswarms');
const EnvValue = z.string().refine((v) => !/[\0\r\n]/.test(v), 'env values must not contain NUL or newlines');
const HostPath = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/'), 'must be an absolute path')
  .refine((p) => !p.includes('\0'), 'must not contain NUL');

/** Backend keys are typed; every other key is an opaque domain key. */
export const AgentConfigSchema = z
  .looseObject({
    env: z.record(EnvKey, EnvValue).optional().describe('Extra client env (values are secrets, never logged)'),
    client_source: z.enum(['runtime', 'host_nix']).optional().describe('Where the client binary comes from'),
    nix_package: z
      .string()
      .regex(/^\/nix\/store\/[^/\0]+/, 'must be a /nix/store path')
      .optional()
      .describe('Nix store path of the client (required with host_nix)'),
    memory_limit: z
      .string()
      .regex(/^[0-9]+[kmg]$/, 'must look like 512m or 2g')
      .optional()
      .describe('Memory limit'),
    cpu_limit: z.number().positive().finite().optional().describe('CPU limit (> 0)'),
    pids_limit: z.number().int().min(16).optional().describe('Process limit (integer >= 16)'),
    seccomp: z
      .literal('default')
      .optional()
      .describe('bwrap only: load the genswarms seccomp filter (ptrace, mount, keyrings, bpf, kexec, modules, user namespaces … → EPERM)'),
    extra_ro_binds: z
      .array(z.tuple([HostPath, HostPath]))
      .optional()
      .describe('Host-escape: [[hostPath, sandboxPath]] read-only'),
    extra_rw_binds: z
      .array(z.tuple([HostPath, HostPath]))
      .optional()
      .describe('Host-escape: [[hostPath, sandboxPath]] read-write'),
    extra_path: z.array(HostPath).optional().describe('Host-escape: host dirs bound read-only and appended to PATH'),
    agent_binary_path: HostPath.optional().describe('Host-escape: host path replacing the client executable'),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.client_source === 'host_nix' && cfg.nix_package === undefined) {
      ctx.addIssue({ code: 'custom', path: ['nix_package'], message: 'nix_package is required with client_source host_nix' });
    }
    for (const key of AGENT_FIELDS_IN_CONFIG) {
      if (Object.prototype.hasOwnProperty.call(cfg, key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `config.${key} is reserved; set the agent field instead` });
      }
    }
  })
  .describe('Agent config: backend keys (typed) and domain keys (opaque)');
