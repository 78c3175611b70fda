/**
 * The seccomp profile of a none/isolated container (docs/runners.md "Seccomp"): the engine's own default profile,
 * as captured from the engine for a container without capabilities (assets/docker-default-seccomp.json, written by
 * tools/docker/capture-docker-seccomp.cjs), plus the network denies — io_uring_setup/enter/register, socketcall
 * (the i386 multiplexer, whose arguments sit behind a pointer) and socket/socketpair of any family but
 * AF_UNIX/AF_INET/AF_INET6 fall to the profile's default action (EPERM). Names are only ever removed from the
 * engine's allow rules, so the result never allows what the engine's default refuses.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { ALLOWED_SOCKET_FAMILIES } from '../seccomp/default-filter';

/** The captured default profile (constant bytes; regenerate with the capture tool, never edit by hand). */
export const DOCKER_DEFAULT_SECCOMP_PATH: string = path.resolve(__dirname, '..', '..', '..', 'assets', 'docker-default-seccomp.json');
/** Calls a none/isolated container loses outright. */
export const DOCKER_NETWORK_DENIED: readonly string[] = ['io_uring_setup', 'io_uring_enter', 'io_uring_register', 'socketcall'];
/** Calls a none/isolated container keeps only for the allowed families (args[0]). */
export const DOCKER_FAMILY_CHECKED: readonly string[] = ['socket', 'socketpair'];

export interface SeccompArg {
  readonly index: number;
  readonly value: number;
  readonly valueTwo?: number;
  readonly op: string;
}
export interface SeccompRule {
  readonly names: readonly string[];
  readonly action: string;
  readonly args?: readonly SeccompArg[];
  readonly errnoRet?: number;
}
/** The OCI `linux.seccomp` subset the engine produced here; anything else is refused (a capture this code does not know). */
export interface SeccompProfile {
  readonly defaultAction: 'SCMP_ACT_ERRNO';
  readonly architectures: readonly string[];
  readonly syscalls: readonly SeccompRule[];
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Obj, keys: readonly string[]): boolean => Object.keys(o).every((k) => keys.includes(k));
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isU64 = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function isArg(v: unknown): boolean {
  return (
    isObj(v) && onlyKeys(v, ['index', 'value', 'valueTwo', 'op']) && isU64(v['index']) && isU64(v['value']) && typeof v['op'] === 'string'
  );
}

function isRule(v: unknown): boolean {
  if (!isObj(v) || !onlyKeys(v, ['names', 'action', 'args', 'errnoRet'])) return false;
  const args = v['args'];
  return (
    isStrings(v['names']) &&
    typeof v['action'] === 'string' &&
    (args === undefined || (Array.isArray(args) && args.every(isArg))) &&
    (v['errnoRet'] === undefined || isU64(v['errnoRet']))
  );
}

/** The capture file read back: `{version: 1, engine, arch, capabilities: [], profile}`, else why not (key paths only). */
export function parseDockerCapture(raw: unknown): { kind: 'ok'; profile: SeccompProfile } | { kind: 'invalid'; reason: string } {
  if (!isObj(raw) || raw['version'] !== 1) return { kind: 'invalid', reason: 'version is not 1' };
  const p = raw['profile'];
  if (!isObj(p) || !onlyKeys(p, ['defaultAction', 'architectures', 'syscalls']))
    return { kind: 'invalid', reason: 'profile: unknown keys' };
  // a default other than ERRNO(EPERM) would turn the removed names into something else than a refusal
  if (p['defaultAction'] !== 'SCMP_ACT_ERRNO') return { kind: 'invalid', reason: 'profile.defaultAction is not SCMP_ACT_ERRNO' };
  if (!isStrings(p['architectures'])) return { kind: 'invalid', reason: 'profile.architectures' };
  const rules = p['syscalls'];
  if (!Array.isArray(rules) || !rules.every(isRule)) return { kind: 'invalid', reason: 'profile.syscalls' };
  // a socket rule with its own conditions would need merging with the family rule: not a shape this code knows
  const conditional = (rules as SeccompRule[]).some((r) => r.args !== undefined && r.names.some((n) => DOCKER_FAMILY_CHECKED.includes(n)));
  if (conditional) return { kind: 'invalid', reason: 'profile.syscalls: a conditional socket or socketpair rule' };
  return { kind: 'ok', profile: p as unknown as SeccompProfile };
}

/** libseccomp's name of the server's own architecture (the only ABI a none/isolated container keeps). */
export const SCMP_NATIVE_ARCH: Readonly<Record<string, string>> = { x64: 'SCMP_ARCH_X86_64', arm64: 'SCMP_ARCH_AARCH64' };

/**
 * Pure: the engine's profile with the network denies (see the file comment), for `nativeArch` only: the engine's
 * default also admits the i386 and x32 ABIs, where libseccomp rewrites socket rules onto the socketcall
 * multiplexer (whose family sits behind a pointer) — measured: an i386 socketcall opened AF_VSOCK.
 */
export function withNetworkDenies(base: SeccompProfile, nativeArch: string): SeccompProfile {
  const removed = new Set([...DOCKER_NETWORK_DENIED, ...DOCKER_FAMILY_CHECKED]);
  const kept: SeccompRule[] = [];
  for (const rule of base.syscalls) {
    // only allow rules lose names; an ERRNO rule for a removed name (none today) keeps refusing it
    const names = rule.action === 'SCMP_ACT_ALLOW' ? rule.names.filter((n) => !removed.has(n)) : [...rule.names];
    if (names.length > 0) kept.push({ ...rule, names });
  }
  const allowedBefore = new Set(base.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && r.args === undefined).flatMap((r) => r.names));
  for (const name of DOCKER_FAMILY_CHECKED) {
    if (!allowedBefore.has(name)) continue; // never allow what the engine's default did not
    for (const family of ALLOWED_SOCKET_FAMILIES)
      kept.push({ names: [name], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: family, op: 'SCMP_CMP_EQ' }] });
  }
  return { defaultAction: base.defaultAction, architectures: [nativeArch], syscalls: kept };
}

/**
 * `seccomp=<profile JSON>` for HostConfig.SecurityOpt of a none/isolated container, and its sha256 (what the
 * isolation check compares with the engine's inspect). Fail-closed: a missing or unknown capture → `seccomp_unsupported`.
 */
export function dockerNetworkSecurityOpt(
  agent: string,
  file: string = DOCKER_DEFAULT_SECCOMP_PATH,
  nodeArch: string = process.arch,
): { opt: string; sha256: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RunnerError(
      'seccomp_unsupported',
      `the engine's captured seccomp profile is unreadable (${file}): the container is not created`,
      {
        agent,
        cause: err,
      },
    );
  }
  const parsed = parseDockerCapture(raw);
  if (parsed.kind !== 'ok') {
    throw new RunnerError(
      'seccomp_unsupported',
      `the engine's captured seccomp profile is not usable (${parsed.reason}): the container is not created`,
      {
        agent,
      },
    );
  }
  const native = SCMP_NATIVE_ARCH[nodeArch];
  if (native === undefined) {
    throw new RunnerError('seccomp_unsupported', `no seccomp architecture for ${nodeArch}: the container is not created`, { agent });
  }
  const json = JSON.stringify(withNetworkDenies(parsed.profile, native));
  return { opt: `seccomp=${json}`, sha256: createHash('sha256').update(json).digest('hex') };
}
