import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { waitFor } from './support/engine-server';
import { tempDir } from './support/harness';
import { asNobody, NOBODY, onFreshPort, openFileText, processTree, procText, spawnUntil } from './support/proc-watch';

// docs/security.md#9-secrecy-and-logs: no long-lived process of ours carries a secret in its initial environment or
// argv, and the server is non-dumpable, so a same-uid unsandboxed agent finds no token and no key.
const ROOT = resolve(__dirname, '../../..');
const SERVER_MAIN = join(ROOT, 'apps/server/dist/main.js');
const CLI_BIN = join(ROOT, 'apps/cli/bin/genswarms.js');
const SCANNER = join(__dirname, 'fixtures/proc-scanner.cjs');
const IS_ROOT = process.getuid?.() === 0;
const hex = (): string => randomBytes(12).toString('hex');
const TOKEN = `tok-${hex()}`;
const CONFIG_TOKEN = `cfg-${hex()}`;
const KEY = `sk-${hex()}`;
const NEEDLES = { GENSWARMS_API_TOKEN: TOKEN, GENSWARMS_CONFIG_API_TOKEN: CONFIG_TOKEN, GENSWARMS_LLM_API_KEY: KEY };
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

type Mode = 'node main.js' | 'genswarms up' | 'genswarms up --foreground';
interface Started {
  serverPid: number;
  url: string;
  children: ChildProcess[];
}

const dir = tempDir('gs-secrets-');
const decoys: ChildProcess[] = [];

function privateDir(...parts: string[]): string {
  const p = join(dir.path, ...parts);
  mkdirSync(p, { recursive: true, mode: 0o700 });
  for (let q = p; q.startsWith(dir.path); q = resolve(q, '..')) chownSync(q, NOBODY, NOBODY);
  return p;
}

function hitsIn(text: string): string[] {
  return Object.entries(NEEDLES)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => k);
}

async function start(mode: Mode, cwd: string, env: NodeJS.ProcessEnv): Promise<Started> {
  return onFreshPort((port) => startOn(port, mode, cwd, env));
}

async function startOn(port: number, mode: Mode, cwd: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const listening = /listening on (http:\/\/\S+)/;
  if (mode === 'node main.js') {
    const { child, match } = await spawnUntil(
      asNobody([process.execPath, SERVER_MAIN]),
      { env: { ...env, PORT: String(port) }, cwd },
      listening,
    );
    return { serverPid: child.pid ?? 0, url: match[1] ?? '', children: [child] };
  }
  if (mode === 'genswarms up --foreground') {
    const { child, match } = await spawnUntil(
      asNobody([process.execPath, CLI_BIN, 'up', '--foreground', '--port', String(port)]),
      { env, cwd },
      listening,
    );
    return { serverPid: child.pid ?? 0, url: match[1] ?? '', children: [child] };
  }
  const [file, ...args] = asNobody([process.execPath, CLI_BIN, 'up', '--port', String(port)]) as [string, ...string[]];
  const up = spawnSync(file, args, { env, cwd, encoding: 'utf8', timeout: 60_000 });
  if (`${up.stderr}${up.stdout}`.includes('EADDRINUSE')) throw new Error(`genswarms up: ${up.stderr}`);
  expect(`${up.stderr}${up.stdout}`).toContain('server started');
  return {
    serverPid: Number(readFileSync(join(env['GENSWARMS_HOME'] ?? '', 'server.pid'), 'utf8')),
    url: /on (http:\/\/\S+)/.exec(up.stdout)?.[1] ?? '',
    children: [],
  };
}

async function api(
  url: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Stops the server, then the tmux server it left for recovery (agents outlive a server by design). */
async function stop(s: Started, home: string): Promise<void> {
  try {
    process.kill(s.serverPid, 'SIGTERM');
  } catch {
    // expected: already gone.
  }
  await waitFor(async () => !existsSync(`/proc/${s.serverPid}`) || procText(s.serverPid, 'cmdline') === '', 'server exit', {
    timeoutMs: 20_000,
  });
  const [f, ...a] = asNobody(['/usr/bin/tmux', '-S', join(home, 'tmux', 'tmux.sock'), 'kill-server']) as [string, ...string[]];
  spawnSync(f, a, { stdio: 'ignore', timeout: 10_000 });
}

beforeAll(() => {
  const built = buildOnce([join(ROOT, 'apps/server/tsconfig.lib.json'), join(ROOT, 'apps/cli/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output.slice(0, 2000)}`);
  chownSync(dir.path, NOBODY, NOBODY);
}, 600_000);

afterAll(() => {
  for (const d of decoys) d.kill('SIGKILL');
  dir.cleanup();
});

(IS_ROOT ? describe : describe.skip)('a same-uid unsandboxed agent finds no server secret in /proc (issue item 2)', () => {
  test.each<[Mode]>([['node main.js'], ['genswarms up'], ['genswarms up --foreground']])(
    '%s with the secrets in its environment',
    async (mode) => {
      const tag = mode.replace(/[^a-z]+/g, '-');
      const cwd = privateDir(tag);
      const home = privateDir(tag, 'home');
      const roots = privateDir(tag, 'workspaces');
      const env: NodeJS.ProcessEnv = {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: cwd,
        GENSWARMS_HOME: home,
        GENSWARMS_WORKSPACE_ROOTS: roots,
        GENSWARMS_SWARM_CONFIG_DIR: cwd,
        GENSWARMS_LLM_ENDPOINT: 'http://127.0.0.1:9/v1',
        ...NEEDLES,
      };
      const s = await start(mode, cwd, env);
      try {
        // 1. No process of ours shows a secret in its environ, argv or open files (read as root).
        const ours = processTree(s.serverPid);
        const seen = ours.map((pid) => ({ pid, hits: hitsIn(procText(pid, 'environ') + procText(pid, 'cmdline') + openFileText(pid)) }));
        expect(seen.filter((p) => p.hits.length > 0)).toEqual([]);
        expect(procText(s.serverPid, 'environ')).toContain(`GENSWARMS_HOME=${home}`);

        // 2. The server runs as the unprivileged uid and is non-dumpable: its /proc files are root's.
        expect(readFileSync(`/proc/${s.serverPid}/status`, 'utf8')).toMatch(new RegExp(`^Uid:\\s+${NOBODY}\\s`, 'm'));
        expect(statSync(`/proc/${s.serverPid}/environ`).uid).toBe(0);
        for (const file of ['environ', 'mem', 'fd/1']) {
          const [f, ...a] = asNobody(['/usr/bin/head', '-c', '1', `/proc/${s.serverPid}/${file}`]) as [string, ...string[]];
          expect(spawnSync(f, a, { encoding: 'utf8' }).stderr).toMatch(/Permission denied/);
        }

        // 3. The API still takes the handed-over token, and only it.
        expect((await api(s.url, 'GET', '/api/swarms', undefined)).status).toBe(401);
        expect((await api(s.url, 'GET', '/api/swarms', 'wrong')).status).toBe(401);
        expect((await api(s.url, 'GET', '/api/swarms', TOKEN)).status).toBe(200);

        // 4. A control process of the same uid whose secrets the scanner must find (proves it reads /proc).
        const canaryEnv = `canary-env-${hex()}`;
        const canaryArg = `canary-arg-${hex()}`;
        const [df, ...da] = asNobody([process.execPath, '-e', 'setInterval(() => undefined, 1 << 30)', canaryArg]) as [string, ...string[]];
        const decoy = spawn(df, da, { shell: false, stdio: 'ignore', env: { CANARY: canaryEnv } });
        decoys.push(decoy);

        // 5. The reproduction: a local and a tmux (runner none) agent scan every /proc/*/environ, cmdline and fd.
        const ws = {
          loc: privateDir(tag, 'workspaces', 'loc'),
          tmx: privateDir(tag, 'workspaces', 'tmx'),
          key: privateDir(tag, 'workspaces', 'key'),
        };
        const untrusted = 'http://untrusted.invalid/v1'; // the scanners get no key, so any hit came from us
        const scanners = [
          {
            name: 'loc',
            backend: { type: 'local' },
            client: { command: [process.execPath, SCANNER] },
            endpoint: untrusted,
            workspace: ws.loc,
          },
          {
            name: 'tmx',
            backend: { type: 'tmux', runner: 'none' },
            client: { command: [process.execPath, SCANNER] },
            endpoint: untrusted,
            workspace: ws.tmx,
          },
        ];
        const created = await api(s.url, 'POST', '/api/swarms', TOKEN, { config: { name: 'scan', agents: scanners } });
        expect(created.status).toBe(201);
        for (const w of [ws.loc, ws.tmx]) {
          await waitFor(async () => existsSync(join(w, 'scan.json')), `scan in ${w}`, { timeoutMs: 60_000 });
          const counts = JSON.parse(readFileSync(join(w, 'scan.json'), 'utf8')) as { readable: number };
          const dump = readFileSync(join(w, 'scan.bin'), 'latin1');
          expect({ workspace: w, hits: hitsIn(dump) }).toEqual({ workspace: w, hits: [] });
          expect(counts.readable).toBeGreaterThan(0);
          expect(dump).toContain(canaryEnv);
          expect(dump).toContain(canaryArg);
        }

        // 6. The config token and the LLM key were handed over too: the overlay answers the config token,
        //    and an agent on the trusted endpoint receives the key.
        expect((await api(s.url, 'GET', '/api/swarms/scan/overlay', CONFIG_TOKEN)).status).toBe(200);
        const keyScript =
          // written aside and renamed: the spec reads the file as soon as it exists
          "require('fs').writeFileSync('key.sha.tmp', require('crypto').createHash('sha256').update(process.env.GENSWARMS_LLM_API_KEY || '').digest('hex')); require('fs').renameSync('key.sha.tmp', 'key.sha'); setInterval(() => undefined, 1 << 30)";
        const keyAgent = {
          name: 'k',
          backend: { type: 'local' },
          client: { command: [process.execPath, '-e', keyScript] },
          workspace: ws.key,
        };
        expect((await api(s.url, 'POST', '/api/swarms', TOKEN, { config: { name: 'keyproof', agents: [keyAgent] } })).status).toBe(201);
        await waitFor(async () => existsSync(join(ws.key, 'key.sha')), 'key agent', { timeoutMs: 60_000 });
        expect(readFileSync(join(ws.key, 'key.sha'), 'utf8')).toBe(sha256(KEY));
        for (const sw of ['scan', 'keyproof']) await api(s.url, 'DELETE', `/api/swarms/${sw}`, TOKEN);
        decoy.kill('SIGKILL');
      } finally {
        await stop(s, home);
      }
    },
    180_000,
  );
});
