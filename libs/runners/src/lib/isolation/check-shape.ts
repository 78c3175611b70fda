import type { ExpectedIsolation } from './expected-isolation';
import { NAMESPACE_KINDS, type IsolationLimits } from './isolation-report';

/**
 * A stored `isolationCheck` read back from the session row: accepted only with exactly the shape this build
 * writes (unknown keys, wrong types or values → undefined, and the re-attached handle simply has no check).
 */
type Obj = Readonly<Record<string, unknown>>;
const NETWORKS: readonly string[] = ['host', 'loopback', 'none', 'own'];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (o: Obj, allowed: readonly string[]): boolean => Object.keys(o).every((k) => allowed.includes(k));
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optNum = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v) && v > 0);

function limitsOf(v: unknown): IsolationLimits | undefined {
  if (!isObj(v) || !onlyKeys(v, ['memory_bytes', 'pids', 'cpu'])) return undefined;
  return optNum(v['memory_bytes']) && optNum(v['pids']) && optNum(v['cpu']) ? (v as IsolationLimits) : undefined;
}

function expectedOf(v: unknown): ExpectedIsolation | undefined {
  const keys = [
    'namespaces',
    'network',
    'no_new_privs',
    'seccomp',
    'limits',
    'workspace',
    'stateDir',
    'host_root_visible',
    'bypassAllowed',
  ];
  if (!isObj(v) || !onlyKeys(v, keys)) return undefined;
  const ns = v['namespaces'];
  const ok =
    Array.isArray(ns) &&
    ns.every((n) => (NAMESPACE_KINDS as readonly unknown[]).includes(n)) &&
    NETWORKS.includes(v['network'] as string) &&
    (v['no_new_privs'] === undefined || v['no_new_privs'] === true) &&
    (v['seccomp'] === undefined || v['seccomp'] === 'filter') &&
    limitsOf(v['limits']) !== undefined &&
    optStr(v['workspace']) &&
    optStr(v['stateDir']) &&
    (v['host_root_visible'] === undefined || v['host_root_visible'] === false) &&
    typeof v['bypassAllowed'] === 'boolean';
  return ok ? (v as unknown as ExpectedIsolation) : undefined;
}

/**
 * The check's fields, validated; `extra` names the additional string keys a runner stores (docker: networkMode),
 * `optional` those it may store (docker: seccompProfile, absent from checks stored before it existed).
 */
export function checkShapeOf<T>(v: unknown, extra: readonly string[] = [], optional: readonly string[] = []): T | undefined {
  if (!isObj(v) || !onlyKeys(v, ['expected', 'workspace', 'stateDir', 'egress', ...extra, ...optional])) return undefined;
  if (expectedOf(v['expected']) === undefined || typeof v['workspace'] !== 'string' || typeof v['stateDir'] !== 'string') return undefined;
  if (!optStr(v['egress']) || !extra.every((k) => typeof v[k] === 'string') || !optional.every((k) => optStr(v[k]))) return undefined;
  return v as T;
}
