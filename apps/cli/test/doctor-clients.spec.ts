import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODING_CLIENTS, hostClientPlatform, nativeBinaryCandidates } from '@genswarms/runners';
import { clientModes, type BackendPosture } from '../src/doctor/backends';
import type { Check } from '../src/doctor/probes';
import { cli, tempDir } from './support';

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
const PLATFORM = hostClientPlatform();

/** A codex install in the `clients install` layout whose "native binary" is a script printing `--version`'s line. */
function fakeCodex(clients: string, version: string, printed: string): void {
  if (PLATFORM === undefined) throw new Error('no client platform');
  const nodeModules = join(clients, 'codex', version, 'node_modules');
  mkdirSync(join(nodeModules, '@openai', 'codex'), { recursive: true });
  writeFileSync(join(nodeModules, '@openai', 'codex', 'package.json'), JSON.stringify({ name: '@openai/codex', version }));
  const binary = join(nodeModules, nativeBinaryCandidates('codex', PLATFORM)[0] ?? '');
  mkdirSync(join(binary, '..'), { recursive: true });
  writeFileSync(binary, `#!/bin/sh\necho '${printed}'\n`, { mode: 0o755 });
}

async function clientChecks(env: Record<string, string>): Promise<Check[]> {
  const r = await cli(['doctor', '--json'], { PATH: SYSTEM_PATH, ...env });
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks.filter((c) => c.name.startsWith('client'));
}

describe('the modes a client can run in on this host', () => {
  const posture = (available: readonly string[]): BackendPosture[] =>
    ['local', 'bwrap', 'docker', 'tmux', 'tmux+bwrap', 'tmux+docker'].map((backend) => ({
      backend,
      networks: available.includes(backend) ? ['open'] : [],
    }));
  it.each([
    ['only local', ['local'], 'modes: pane on local (pty); headless on local'],
    ['bwrap and tmux', ['local', 'bwrap', 'tmux', 'tmux+bwrap'], 'modes: pane on tmux, tmux+bwrap, local (pty); headless on local, bwrap'],
    [
      'every backend',
      ['local', 'bwrap', 'docker', 'tmux', 'tmux+bwrap', 'tmux+docker'],
      'modes: pane on tmux, tmux+bwrap, tmux+docker, local (pty); headless on local, bwrap, docker',
    ],
  ])('%s', (_name, available, expected) => {
    expect(clientModes(posture(available))).toBe(expected);
  });
});

describe('genswarms doctor: the coding clients', () => {
  const dir = tempDir('gs-cli-doctor-clients-');
  afterAll(() => dir.cleanup());

  (PLATFORM === undefined ? it.skip : it)('says per client whether its pinned version is installed and runs', async () => {
    const clients = join(dir.path, 'clients');
    const pinned = CODING_CLIENTS.codex.pinnedVersion;
    fakeCodex(clients, pinned, `codex-cli ${pinned}`);
    fakeCodex(clients, '9.9.9', 'codex-cli 9.9.9');
    const checks = await clientChecks({ GENSWARMS_CLIENTS_DIR: clients });
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['client codex', 'ok'],
      ['client claude', 'missing'],
      ['client opencode', 'missing'],
    ]);
    expect(checks[0]?.detail).toMatch(
      new RegExp(
        `^codex-cli ${pinned} at ${join(clients, 'codex', pinned, 'node_modules', nativeBinaryCandidates('codex', PLATFORM ?? { os: 'linux', arch: 'x64', musl: false, avx2: true })[0] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; modes: pane on .*local \\(pty\\); headless on local`,
      ),
    );
    expect(checks[1]?.detail).toBe(
      `pinned ${CODING_CLIENTS.claude.pinnedVersion} not installed in ${clients} (genswarms clients install claude)`,
    );
  });

  (PLATFORM === undefined ? it.skip : it)('flags a binary whose --version names another version', async () => {
    const clients = join(dir.path, 'clients-wrong');
    fakeCodex(clients, CODING_CLIENTS.codex.pinnedVersion, 'codex-cli 0.0.1');
    const [codex] = await clientChecks({ GENSWARMS_CLIENTS_DIR: clients });
    expect(codex).toMatchObject({
      status: 'problem',
      detail: expect.stringContaining('not_runnable: --version printed "codex-cli 0.0.1"'),
    });
  });

  it('reports an unusable GENSWARMS_CLIENTS_DIR as one problem line instead of failing', async () => {
    expect(await clientChecks({ GENSWARMS_CLIENTS_DIR: 'relative' })).toEqual([
      { name: 'clients', status: 'problem', detail: 'GENSWARMS_CLIENTS_DIR must be an absolute path; no client can be found' },
    ]);
  });
});
