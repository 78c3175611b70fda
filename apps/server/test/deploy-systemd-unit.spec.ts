import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** deploy/systemd/genswarms.service: what it runs, where its state and token come from, and which sandboxing it may use. */
const REPO = resolve(__dirname, '..', '..', '..');
const UNIT = join(REPO, 'deploy', 'systemd', 'genswarms.service');
const CHECK = join(REPO, 'deploy', 'systemd', 'check-bwrap-sandbox.sh');

/** `[Section]` → key → every value in file order (systemd allows repeated keys); comments and blanks skipped. */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([A-Za-z]+)\]$/.exec(line);
    if (section !== null) {
      current = new Map();
      sections.set(section[1] as string, current);
      continue;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (kv === null || current === undefined) throw new Error(`line ${i + 1}: not a key=value in a section: ${raw}`);
    current.set(kv[1] as string, [...(current.get(kv[1] as string) ?? []), kv[2] as string]);
  }
  return sections;
}

const unit = parseUnit(readFileSync(UNIT, 'utf8'));
const service = unit.get('Service')!;
const one = (key: string): string | undefined => service.get(key)?.at(-1);
const environment = new Map((service.get('Environment') ?? []).map((e) => e.split(/=(.*)/s).slice(0, 2) as [string, string]));

describe('deploy/systemd/genswarms.service', () => {
  it('runs the bundled server entry with the absolute node binary, no shell', () => {
    expect(service.get('ExecStart')).toEqual(['/usr/bin/node /opt/genswarms/node_modules/@genswarms/server/dist/main.js']);
    // the bundle lays out @genswarms/server from apps/server: same package name, same dist entry
    expect(JSON.parse(readFileSync(join(REPO, 'apps', 'server', 'package.json'), 'utf8')).name).toBe('@genswarms/server');
    expect(readFileSync(join(REPO, 'deploy', 'bundle', 'make-bundle.sh'), 'utf8')).toContain('node_modules/@genswarms/server/dist/main.js');
    expect(one('Type')).toBe('exec');
  });

  it('runs as a dedicated unprivileged user with its state in StateDirectory (0700) = GENSWARMS_HOME', () => {
    expect(one('User')).toBe('genswarms');
    expect(one('Group')).toBe('genswarms');
    expect(readFileSync(join(REPO, 'deploy', 'systemd', 'genswarms.sysusers.conf'), 'utf8')).toMatch(/^u genswarms - /m);
    expect(one('StateDirectory')).toBe('genswarms');
    expect(one('StateDirectoryMode')).toBe('0700');
    expect(environment.get('GENSWARMS_HOME')).toBe('/var/lib/genswarms');
    expect(one('UMask')).toBe('0077');
  });

  it('takes the token from a credential file, never from the environment', () => {
    expect(service.get('LoadCredential')).toEqual(['api-token:/etc/genswarms/api-token']);
    expect(environment.get('GENSWARMS_API_TOKEN_FILE')).toBe('%d/api-token');
    expect(environment.has('GENSWARMS_API_TOKEN')).toBe(false);
    expect(environment.has('GENSWARMS_CONFIG_API_TOKEN')).toBe(false);
    expect(service.has('EnvironmentFile')).toBe(false);
  });

  it.each([
    ['NoNewPrivileges', 'yes'],
    ['CapabilityBoundingSet', ''],
    ['AmbientCapabilities', ''],
    ['ProtectSystem', 'strict'],
    ['ProtectHome', 'yes'],
    ['PrivateTmp', 'yes'],
    ['PrivateDevices', 'yes'],
    ['ProtectKernelModules', 'yes'],
    ['ProtectClock', 'yes'],
    ['ProtectHostname', 'yes'],
    ['RestrictSUIDSGID', 'yes'],
    ['RestrictRealtime', 'yes'],
    ['LockPersonality', 'yes'],
    ['SystemCallArchitectures', 'native'],
  ])('hardens with %s=%s', (key, value) => {
    expect(one(key)).toBe(value);
  });

  it.each(['PrivateUsers', 'RestrictNamespaces', 'SystemCallFilter', 'ProtectKernelTunables', 'ProtectKernelLogs', 'ProcSubset'])(
    'leaves out %s, which would stop bwrap from creating its namespaces or mounting /proc',
    (key) => {
      expect(service.has(key)).toBe(false);
    },
  );

  it('keeps MemoryDenyWriteExecute off (node JIT) and allows netlink (bwrap sets up the sandbox loopback)', () => {
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
    expect(one('RestrictAddressFamilies')?.split(' ').sort()).toEqual(['AF_INET', 'AF_INET6', 'AF_NETLINK', 'AF_UNIX']);
  });

  it('passes systemd-analyze verify', () => {
    if (!existsSync('/usr/bin/systemd-analyze')) {
      console.warn('SKIPPED: systemd-analyze verify: /usr/bin/systemd-analyze is not installed');
      return;
    }
    const r = spawnSync('/usr/bin/systemd-analyze', ['verify', UNIT], { shell: false, encoding: 'utf8' });
    expect([r.status, r.stderr.trim()]).toEqual([0, '']);
  });
});

describe('bwrap under the unit sandbox (emulated: unshare, pivot_root, setpriv)', () => {
  const missing = ['/usr/bin/bwrap', '/usr/bin/unshare', '/usr/bin/setpriv', '/usr/sbin/pivot_root'].filter((p) => !existsSync(p));
  const skip = process.getuid?.() !== 0 ? 'not root' : missing.length > 0 ? `missing ${missing.join(', ')}` : undefined;
  const check = (...extra: string[]): { status: number | null; stderr: string } =>
    spawnSync(CHECK, extra, { shell: false, encoding: 'utf8', timeout: 30_000 });
  // the /proc-altering directives the unit sets, as the check script's arguments
  const unitExtras = one('ProtectProc') === 'invisible' ? ['proc-invisible'] : [];

  it('creates its namespaces and mounts a fresh /proc with the directives the unit sets', () => {
    if (skip !== undefined) {
      console.warn(`SKIPPED: bwrap sandbox emulation: ${skip}`);
      return;
    }
    expect(check(...unitExtras)).toMatchObject({ status: 0 });
  });

  it.each(['kernel-tunables', 'kernel-logs'])('fails once %s masks part of /proc (why the unit leaves it out)', (extra) => {
    if (skip !== undefined) return;
    const r = check(...unitExtras, extra);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("Can't mount proc");
  });
});
