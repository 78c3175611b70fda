/**
 * The none/isolated container profile, built from the engine's captured default: names only ever leave the
 * engine's allow rules (so nothing the engine refuses becomes allowed), the network calls are gone, socket and
 * socketpair keep AF_UNIX/AF_INET/AF_INET6, only the native ABI remains; a capture of an unknown shape, or none,
 * refuses the agent (`seccomp_unsupported`), never a container without the profile.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DOCKER_DEFAULT_SECCOMP_PATH,
  dockerNetworkSecurityOpt,
  parseDockerCapture,
  withNetworkDenies,
  type SeccompProfile,
  type SeccompRule,
} from '../../src/lib/docker/docker-seccomp';
import { isRunnerError } from '../../src/index';

const capture = JSON.parse(readFileSync(DOCKER_DEFAULT_SECCOMP_PATH, 'utf8')) as { profile: SeccompProfile };
const parsed = parseDockerCapture(capture);
if (parsed.kind !== 'ok') throw new Error(`the checked-in capture does not parse: ${parsed.reason}`);
const base = parsed.profile;
const built = withNetworkDenies(base, 'SCMP_ARCH_X86_64');

const unconditional = (p: SeccompProfile): Set<string> =>
  new Set(p.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && r.args === undefined).flatMap((r) => r.names));
const conditionalFor = (p: SeccompProfile, name: string): SeccompRule[] =>
  p.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && r.args !== undefined && r.names.includes(name));

describe('the none/isolated container profile', () => {
  it('allows unconditionally only what the engine default allows unconditionally', () => {
    const before = unconditional(base);
    expect([...unconditional(built)].filter((n) => !before.has(n))).toEqual([]);
  });

  it('keeps every conditional and refusing rule of the engine default as it was, and adds only the family rules', () => {
    const key = (r: SeccompRule): string => JSON.stringify(r);
    const notPlainAllow = (p: SeccompProfile): string[] =>
      p.syscalls.filter((r) => r.args !== undefined || r.action !== 'SCMP_ACT_ALLOW').map(key);
    const before = notPlainAllow(base);
    const after = notPlainAllow(built);
    expect(before.filter((r) => !after.includes(r))).toEqual([]);
    expect(after.filter((r) => !before.includes(r)).map((r) => (JSON.parse(r) as SeccompRule).names)).toEqual([
      ['socket'],
      ['socket'],
      ['socket'],
      ['socketpair'],
      ['socketpair'],
      ['socketpair'],
    ]);
  });

  it.each(['io_uring_setup', 'io_uring_enter', 'io_uring_register', 'socketcall'])('%s is allowed by no rule', (name) => {
    expect(unconditional(base).has(name)).toBe(true); // the engine default allowed it (measured on 20.10.24)
    expect(built.syscalls.some((r) => r.action === 'SCMP_ACT_ALLOW' && r.names.includes(name))).toBe(false);
  });

  it.each(['socket', 'socketpair'])('%s is allowed for AF_UNIX, AF_INET, AF_INET6 only', (name) => {
    expect(unconditional(built).has(name)).toBe(false);
    expect(conditionalFor(built, name).map((r) => r.args)).toEqual([1, 2, 10].map((value) => [{ index: 0, value, op: 'SCMP_CMP_EQ' }]));
  });

  it('keeps the native architecture only (the engine default admits i386 and x32, where socketcall escapes the family rule)', () => {
    expect(base.architectures).toEqual(expect.arrayContaining(['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86']));
    expect(built.architectures).toEqual(['SCMP_ARCH_X86_64']);
    expect(withNetworkDenies(base, 'SCMP_ARCH_AARCH64').architectures).toEqual(['SCMP_ARCH_AARCH64']);
  });

  it('never adds socket rules when the engine default did not allow socket', () => {
    const without = { ...base, syscalls: base.syscalls.map((r) => ({ ...r, names: r.names.filter((n) => n !== 'socket') })) };
    expect(conditionalFor(withNetworkDenies(without, 'SCMP_ARCH_X86_64'), 'socket')).toEqual([]);
  });
});

describe('the capture read back', () => {
  const p = capture.profile as unknown as Record<string, unknown>;
  it.each([
    ['another version', { ...capture, version: 2 }, 'version is not 1'],
    ['not an object', 'profile', 'version is not 1'],
    ['an unknown profile key', { ...capture, profile: { ...p, listenerPath: '/x' } }, 'profile: unknown keys'],
    [
      'a __proto__ key',
      { ...capture, profile: JSON.parse(`{"__proto__": 1, "defaultAction": "SCMP_ACT_ERRNO"}`) as unknown },
      'profile: unknown keys',
    ],
    [
      'a permissive default action',
      { ...capture, profile: { ...p, defaultAction: 'SCMP_ACT_ALLOW' } },
      'profile.defaultAction is not SCMP_ACT_ERRNO',
    ],
    [
      'a rule with an unknown key',
      { ...capture, profile: { ...p, syscalls: [{ names: ['read'], action: 'SCMP_ACT_ALLOW', includes: {} }] } },
      'profile.syscalls',
    ],
    [
      'a negative argument',
      {
        ...capture,
        profile: { ...p, syscalls: [{ names: ['read'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: -1, op: 'SCMP_CMP_EQ' }] }] },
      },
      'profile.syscalls',
    ],
    [
      'a conditional socket rule',
      {
        ...capture,
        profile: { ...p, syscalls: [{ names: ['socket'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 40, op: 'SCMP_CMP_NE' }] }] },
      },
      'profile.syscalls: a conditional socket or socketpair rule',
    ],
  ])('refuses %s', (_name, raw, reason) => {
    expect(parseDockerCapture(raw)).toEqual({ kind: 'invalid', reason });
  });

  it.each([
    ['a missing capture', (dir: string) => path.join(dir, 'absent.json'), 'x64'],
    ['a capture that is not JSON', (dir: string) => (writeFileSync(path.join(dir, 'bad.json'), '{'), path.join(dir, 'bad.json')), 'x64'],
    ['an architecture without a libseccomp name here', () => DOCKER_DEFAULT_SECCOMP_PATH, 'riscv64'],
  ])('%s refuses the agent (seccomp_unsupported), never a container without the profile', (_name, fileIn, arch) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gs-docker-profile-'));
    try {
      let code: unknown = 'ok';
      try {
        dockerNetworkSecurityOpt('a1', fileIn(dir), arch);
      } catch (err) {
        code = isRunnerError(err) ? err.code : err;
      }
      expect(code).toBe('seccomp_unsupported');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the profile as seccomp=<json> and its sha256', () => {
    const { opt, sha256 } = dockerNetworkSecurityOpt('a1', DOCKER_DEFAULT_SECCOMP_PATH, 'x64');
    expect(JSON.parse(opt.slice('seccomp='.length))).toEqual(built);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
