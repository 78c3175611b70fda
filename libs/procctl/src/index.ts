/** @genswarms/procctl: Linux process controls Node lacks, and the secret handover between processes. */
export { procctlStatus, PROCCTL_ADDON_PATH } from './lib/addon/native-addon';
export type { ProcctlStatus } from './lib/addon/native-addon';
export { ProcctlError } from './lib/errors/procctl-error';
export type { ProcctlErrorCode } from './lib/errors/procctl-error';
export { setDumpable, isDumpable, setChildSubreaper, isChildSubreaper } from './lib/prctl/prctl';
export { execve } from './lib/exec/execve';
export { noUtmpLibrary, openNoUtmpLibrary, NO_UTMP_LIBRARY_PATH, NO_UTMP_CHILD_FD, NO_UTMP_PRELOAD } from './lib/utmp/no-utmp';
export type { NoUtmpLibrary, OpenedNoUtmpLibrary } from './lib/utmp/no-utmp';
export { spawnDetached, SpawnFailedError, liveDetachedChildren, SPAWNS_IN_POOL, EXIT_OUTPUT_GRACE_MS } from './lib/spawn/spawn-detached';
export type { DetachedChild, DetachedSpawnSpec } from './lib/spawn/spawn-detached';
export {
  SERVER_SECRET_ENV_NAMES,
  SECRET_HANDOVER_FD_ENV,
  SECRET_HANDOVER_MAX_BYTES,
  SECRET_HANDOVER_TIMEOUT_MS,
  splitSecrets,
} from './lib/handover/secret-names';
export type { SecretMap } from './lib/handover/secret-names';
export { encodeHandover, decodeHandover, HandoverPayloadSchema } from './lib/handover/handover-payload';
export type { HandoverDecode } from './lib/handover/handover-payload';
export { execWithSecrets } from './lib/handover/exec-with-secrets';
export type { ExecWithSecretsSpec } from './lib/handover/exec-with-secrets';
export { readSecretHandover } from './lib/handover/read-secret-handover';
export type { SecretHandoverRead } from './lib/handover/read-secret-handover';
