import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parsePromText } from './support/prom-text';
import { tempDir } from './support/harness';
import { waitFor } from '@genswarms/test-kit';

/**
 * deploy/container: the offline-built server image starts with a token file and a volume, answers
 * /readyz, runs a mock swarm, and refuses callers without the token. Requests come from this host
 * over the docker bridge, so the server sees a non-loopback peer (a remote caller).
 */
const REPO = resolve(__dirname, '..', '..', '..');
const BUILD = join(REPO, 'deploy', 'container', 'build-server-image.sh');
const IMAGE = 'genswarms/server:test';
const TOKEN = 'container-token-0123456789';
const SERVER_UID = 10001;
const DOCKER = ['/usr/local/bin/docker', '/usr/bin/docker'].find((p) => existsSync(p));

function unavailable(): string | undefined {
  if (DOCKER === undefined) return 'no docker client';
  if (process.getuid?.() !== 0) return 'not root (the image build chowns its state directory)';
  if (spawnSync(DOCKER, ['info'], { shell: false, stdio: 'ignore' }).status !== 0) return 'no docker engine answers';
  if (!existsSync(join(REPO, 'apps', 'server', 'dist', 'main.js'))) return 'apps/server is not built';
  return undefined;
}
const skipReason = unavailable();
const docker = (...args: string[]): string => execFileSync(DOCKER!, args, { shell: false, encoding: 'utf8' }).trim();

const dir = tempDir('gs-deploy-');
const suffix = `${process.pid}-${Date.now()}`;
const container = `gs-server-test-${suffix}`;
const volume = `gs-server-test-${suffix}`;
let base = '';

beforeAll(() => {
  if (skipReason !== undefined) return;
  execFileSync(BUILD, [IMAGE], { shell: false, stdio: 'ignore', timeout: 300_000 });
  const tokenFile = join(dir.path, 'api-token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o400 });
  chownSync(tokenFile, SERVER_UID, SERVER_UID);
  chmodSync(dir.path, 0o755);
  docker('volume', 'create', volume);
  docker(
    'run', '--detach', '--init', '--name', container,
    '--volume', `${volume}:/var/lib/genswarms`,
    '--volume', `${tokenFile}:/run/secrets/genswarms-api-token:ro`,
    '--env', 'GENSWARMS_API_TOKEN_FILE=/run/secrets/genswarms-api-token',
    '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', '--read-only', '--tmpfs', '/tmp',
    IMAGE,
  ); // prettier-ignore
  const ip = docker('inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', container);
  base = `http://${ip}:4000`;
}, 360_000);

afterAll(() => {
  if (skipReason === undefined) {
    spawnSync(DOCKER!, ['rm', '-f', container], { shell: false, stdio: 'ignore' });
    spawnSync(DOCKER!, ['volume', 'rm', '-f', volume], { shell: false, stdio: 'ignore' });
  }
  dir.cleanup();
});

/** Waits for the container's server to answer; a timeout prints the container's logs. */
function whenServing<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  // expected: connection refused while the server starts
  const probe = (): Promise<T | undefined> => fn().catch(() => undefined);
  return waitFor(probe, () => `${what}; logs:\n${docker('logs', container)}`, { intervalMs: 50 });
}
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('the server container image', () => {
  it('starts with a token file and a volume, gets ready, runs a mock swarm and refuses callers without the token', async () => {
    if (skipReason !== undefined) {
      console.warn(`SKIPPED: container image test: ${skipReason}`);
      return;
    }
    const ready = await whenServing(async () => {
      const res = await fetch(`${base}/readyz`);
      return res.status === 200 ? ((await res.json()) as unknown) : undefined;
    }, '/readyz');
    expect(ready).toEqual({ status: 'ready' });

    for (const path of ['/api/swarms', '/metrics', '/']) {
      const res = await fetch(`${base}${path}`);
      expect([path, res.status, await res.json()]).toEqual([path, 401, { error: 'unauthorized', message: 'Invalid or missing API token' }]);
    }
    const wrong = await fetch(`${base}/api/swarms`, { headers: { authorization: 'Bearer wrong' } });
    expect(wrong.status).toBe(401);

    const config = { name: 'boxed', agents: [{ name: 'a', backend: { type: 'mock', opts: { replies: ['pong {{content}}'] } } }] };
    const created = await fetch(`${base}/api/swarms`, { method: 'POST', headers: auth, body: JSON.stringify({ config }) });
    expect(created.status).toBe(201);
    await whenServing(async () => {
      const res = await fetch(`${base}/api/swarms/boxed/agents/a`, { headers: auth });
      return ((await res.json()) as { state?: string }).state === 'idle' ? true : undefined;
    }, 'agent idle');
    const sent = await fetch(`${base}/api/swarms/boxed/agents/a/task`, { method: 'POST', headers: auth, body: '{"task":"ping"}' });
    expect(sent.status).toBe(200);
    await whenServing(async () => {
      const res = await fetch(`${base}/api/swarms/boxed/events?event_type=turn_completed`, { headers: auth });
      return ((await res.json()) as { count: number }).count === 1 ? true : undefined;
    }, 'turn_completed');

    const metrics = parsePromText(await (await fetch(`${base}/metrics`, { headers: auth })).text());
    expect(metrics.get('genswarms_turns_total')?.samples).toEqual([
      { name: 'genswarms_turns_total', labels: { status: 'completed' }, value: 1 },
    ]);

    // the state is on the volume: genswarms.db under GENSWARMS_HOME, owned by the server's uid, 0700 home
    const listing = docker('run', '--rm', '--entrypoint', '/usr/bin/node', '--volume', `${volume}:/v`, IMAGE, '-e',
      "const fs=require('fs');const s=fs.statSync('/v');console.log([s.uid,(s.mode&0o777).toString(8),fs.existsSync('/v/genswarms.db')].join(' '))"); // prettier-ignore
    expect(listing).toBe(`${SERVER_UID} 700 true`);
  }, 120_000);
});
