import type { LaunchPlan, RunnerHandle } from '../port';
import type { ContainerHostFacts, DockerPort } from '../docker/docker-port';
import { createHash } from 'node:crypto';
import { DEFAULT_PIDS_LIMIT, networkModeFor } from '../docker/container-spec';
import { dockerNetworkSecurityOpt } from '../docker/docker-seccomp';
import { isNetworkClosed } from '../seccomp/seccomp-plan';
import type { IsolationDifference, IsolationReport } from './isolation-report';
import { expectedIsolation, type ExpectedIsolation } from './expected-isolation';
import { ISOLATION_FIND_TIMEOUT_MS, isolationCheckOf, reportFor, type IsolationCheck } from './inspect-isolation';
import { checkShapeOf } from './check-shape';
import { inspectProc } from './proc-isolation';

/** How often a container not yet running is inspected again (ms). */
const INSPECT_POLL_MS = 100;

/**
 * Pure: what a docker plan promises about the container's init process — own ipc/mnt/net/pid/uts namespaces,
 * `loopback` for none/isolated and `own` (a bridge or named network) otherwise, NoNewPrivs, a seccomp filter for
 * none/isolated (the engine's profile plus the network denies; open keeps whatever the engine applies), the pids limit
 * (512 unless set) with the requested memory and cpu, workspace and `/root` rw, the host root hidden.
 */
export function expectedDockerIsolation(plan: LaunchPlan): ExpectedIsolation {
  const base = expectedIsolation({
    ...plan,
    spec: { ...plan.spec, backend: 'bwrap', config: { ...plan.spec.config, seccomp: undefined } },
  });
  const net = plan.spec.network === 'none' || plan.spec.network === 'isolated';
  return {
    ...base,
    namespaces: ['ipc', 'mnt', 'net', 'pid', 'uts'],
    network: net ? 'loopback' : 'own',
    limits: { ...base.limits, pids: plan.spec.config.pids_limit ?? DEFAULT_PIDS_LIMIT },
  };
}

/** A docker session's check: the process promises plus the NetworkMode (and none/isolated: the seccomp profile) the engine must have applied. */
export interface DockerIsolationCheck extends IsolationCheck {
  readonly networkMode: string;
  /** none/isolated: sha256 of the profile JSON in `seccomp=<json>` (absent in checks stored before it existed). */
  readonly seccompProfile?: string;
}

/** Pure but for reading the constant captured profile: the check of a docker plan (stored in its session description for re-attach). */
export function dockerIsolationCheckOf(plan: LaunchPlan): DockerIsolationCheck {
  return {
    ...isolationCheckOf(plan, expectedDockerIsolation(plan)),
    networkMode: networkModeFor(plan.spec.network),
    ...(isNetworkClosed(plan.spec) ? { seccompProfile: dockerNetworkSecurityOpt(plan.spec.agent).sha256 } : {}),
  };
}

/** A stored docker check read back (re-attach): the exact shape this build writes, else undefined. */
export function dockerIsolationCheckFrom(stored: unknown): DockerIsolationCheck | undefined {
  return checkShapeOf<DockerIsolationCheck>(stored, ['networkMode'], ['seccompProfile']);
}

const SECCOMP_OPT = 'seccomp=';
/** `seccomp=<json>` → `seccomp=sha256:<hex>` (the report shows which profile, not 15 KB of it). */
export function summarizeSecurityOpt(opts: readonly string[]): string[] {
  return opts.map((o) => (o.startsWith(SECCOMP_OPT) ? `${SECCOMP_OPT}sha256:${sha256Of(o.slice(SECCOMP_OPT.length))}` : o));
}

function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The engine's own settings against the check (docs/runners.md docker); `seccompProfile` as in the check. */
export function dockerDifferences(want: string, host: ContainerHostFacts, seccompProfile?: string): IsolationDifference[] {
  const out: IsolationDifference[] = [];
  if (host.networkMode !== want) out.push({ field: 'docker.network_mode', expected: want, actual: host.networkMode || 'unset' });
  if (seccompProfile !== undefined) {
    const applied = host.securityOpt.filter((o) => o.startsWith(SECCOMP_OPT)).map((o) => sha256Of(o.slice(SECCOMP_OPT.length)));
    if (!applied.includes(seccompProfile))
      out.push({
        field: 'docker.seccomp',
        expected: `sha256:${seccompProfile}`,
        actual: applied.map((h) => `sha256:${h}`).join(',') || 'the engine default',
      });
  }
  if (!host.capDrop.map((c) => c.toUpperCase()).includes('ALL'))
    out.push({ field: 'docker.cap_drop', expected: 'ALL', actual: host.capDrop.join(',') || 'none' });
  if (!host.securityOpt.some((o) => /^no-new-privileges(:true|=true)?$/.test(o)))
    out.push({ field: 'docker.security_opt', expected: 'no-new-privileges', actual: host.securityOpt.join(',') || 'none' });
  if (!host.readonlyRootfs) out.push({ field: 'docker.readonly_rootfs', expected: 'true', actual: 'false' });
  return out;
}

/** Reads a container's isolation: its init process from /proc plus the engine's inspect facts, against `check`. */
export function dockerIsolationReader(check: DockerIsolationCheck, port: DockerPort, containerId: string): () => Promise<IsolationReport> {
  return async () => {
    // tmux+docker: the pane starts the container a moment after the handle exists
    const deadline = Date.now() + ISOLATION_FIND_TIMEOUT_MS;
    let state = await port.inspect(containerId);
    while ((state?.pid === undefined || state.host === undefined) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, INSPECT_POLL_MS));
      state = await port.inspect(containerId);
    }
    if (state?.pid === undefined || state.host === undefined) {
      throw new Error('the container is not running: no process to read its isolation from');
    }
    const report = reportFor(inspectProc(state.pid), check);
    const h = state.host;
    return {
      ...report,
      docker: {
        network_mode: h.networkMode,
        cap_drop: h.capDrop,
        security_opt: summarizeSecurityOpt(h.securityOpt),
        readonly_rootfs: h.readonlyRootfs,
      },
      differences: [...report.differences, ...dockerDifferences(check.networkMode, h, check.seccompProfile)],
    };
  };
}

/** Adds `isolation()` to a docker handle (in place: class handles keep their prototype). */
export function attachDockerIsolation<H extends RunnerHandle>(
  handle: H,
  check: DockerIsolationCheck | undefined,
  port: DockerPort,
  containerId: string,
): H {
  return check === undefined ? handle : Object.assign(handle, { isolation: dockerIsolationReader(check, port, containerId) });
}
