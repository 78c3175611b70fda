import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle, SessionDescription } from '../../src/index';
import { createDockerRunner } from '../../src/lib/docker/docker-runner';
import type { TestDirs } from '../docker/docker-support';
import {
  containersWithLabel,
  describeIfEngine,
  dockerCli,
  makeCtx,
  makeDirs,
  makeDockerSpec,
  processesWithArgv,
  waitFor,
} from '../docker/docker-support';
import { fetchJson, startMockLlm, stopMockLlm } from './mock-llm-support';

const SOCAT = ['/usr/bin/socat', '/bin/socat'].find((p) => existsSync(p));
const SWARM = 'readopt';
const AGENT = 'iso';
const IDLE = { command: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'] };

/** Run inside the container (docker exec): one chat call through the launcher's bridge; prints {ok,status}. */
const BRIDGE_PROBE = `
const http = require('http');
const upstream = process.argv[1];
const payload = JSON.stringify({ model: 'probe', messages: [{ role: 'user', content: 'after restart' }] });
const req = http.request({ method: 'POST', host: '127.0.0.1', port: 17080, path: '/v1/chat/completions?readopt',
  headers: { host: upstream, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }, timeout: 5000 }, (res) => {
  let body = '';
  res.on('data', (c) => (body += c));
  res.on('end', () => console.log(JSON.stringify({ ok: true, status: res.statusCode })));
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', (e) => console.log(JSON.stringify({ ok: false, code: e.code || e.message })));
req.end(payload);`;

interface Probe {
  ok: boolean;
  status?: number;
  code?: string;
}

function probeBridge(containerId: string, upstream: string): Probe {
  const out = dockerCli(['exec', containerId, '/usr/bin/node', '-e', BRIDGE_PROBE, upstream]);
  if (out === undefined) throw new Error('docker exec failed');
  return JSON.parse(out.trim()) as Probe;
}

function isRunning(id: string): boolean {
  return dockerCli(['inspect', '--format', '{{.State.Running}}', id])?.trim() === 'true';
}

/** A socat that records each invocation (argv only) before exec'ing the real one: proves what was spawned. */
function socatRecorder(dirs: TestDirs): { path: string; calls(): string[] } {
  const log = path.join(dirs.root, 'socat.log');
  const wrapper = path.join(dirs.root, 'socat-recorder');
  writeFileSync(log, '', { mode: 0o600 });
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\nexec ${SOCAT ?? '/usr/bin/socat'} "$@"\n`, { mode: 0o700 });
  return {
    path: wrapper,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0),
  };
}

/** A description as the engine hands it back: a JSON round trip through the store. */
function stored(description: SessionDescription): SessionDescription {
  return JSON.parse(JSON.stringify(description)) as SessionDescription;
}

const describeIfSocat = SOCAT === undefined ? describe.skip : describeIfEngine;
if (SOCAT === undefined) console.warn('SKIPPED: socat is not installed; the isolated re-adoption spec does not run');

describeIfSocat('docker: an isolated container is re-adopted after a server restart (real engine, real socat, mock LLM)', () => {
  let dirs: TestDirs;
  let llm: { port: number; child: ChildProcess };
  let ctx: RunnerContext;
  let recorder: ReturnType<typeof socatRecorder>;
  const handles: RunnerHandle[] = [];
  const egressDir = (): string => path.join(ctx.home, 'egress', SWARM, AGENT);
  const envFile = (): string => path.join(ctx.home, 'state', SWARM, AGENT, '.genswarms', 'env');
  const upstream = (): string => `127.0.0.1:${llm.port}`;

  beforeEach(async () => {
    dirs = makeDirs('gs-readopt-');
    llm = await startMockLlm();
    recorder = socatRecorder(dirs);
    const base = makeCtx(dirs.home, {
      llm: { defaultEndpoint: `http://127.0.0.1:${llm.port}/v1`, serverApiKey: 'sk-readopt-SECRET', allowedHosts: ['127.0.0.1'] },
    });
    ctx = { ...base, binaries: { ...base.binaries, socat: recorder.path } };
  });
  afterEach(async () => {
    try {
      // Runner A's handle stands for the dead server: its late clean-up may race the tampering, so errors are ignored here.
      for (const h of handles.splice(0)) await h.stop({ graceMs: 0 }).catch(() => undefined);
      const left = containersWithLabel('genswarms.swarm', SWARM);
      if (left.length > 0) dockerCli(['rm', '-f', ...left]);
      for (const pid of processesWithArgv(dirs.root)) process.kill(pid, 'SIGKILL');
    } finally {
      await stopMockLlm(llm.child);
      dirs.cleanup();
    }
  });

  /** Runner A starts the agent; then "the server dies": only A's forwarder is SIGKILLed, the container keeps running. */
  async function startThenLoseForwarder(): Promise<SessionDescription> {
    const runnerA = createDockerRunner();
    const handle = await runnerA.start(
      runnerA.plan(makeDockerSpec({ workspace: dirs.workspace, swarm: SWARM, agent: AGENT, network: 'isolated', client: IDLE }), ctx),
      ctx,
    );
    handles.push(handle);
    const id = handle.describe().containerId ?? '';
    await waitFor(() => (probeBridge(id, upstream()).ok ? true : undefined), 'the bridge to reach upstream');
    for (const pid of processesWithArgv(egressDir())) process.kill(pid, 'SIGKILL');
    await waitFor(() => (processesWithArgv(egressDir()).length === 0 ? true : undefined), 'no egress process left');
    expect(isRunning(id)).toBe(true);
    return handle.describe();
  }

  function expectNothingLeft(description: SessionDescription): void {
    expect(containersWithLabel('genswarms.session', description.sessionId)).toEqual([]);
    expect(processesWithArgv(egressDir())).toEqual([]);
    expect(existsSync(egressDir())).toBe(false);
    expect(existsSync(envFile())).toBe(false);
  }

  it('records the pin (host, port, tls only) in the description of an isolated start', async () => {
    const description = await startThenLoseForwarder();
    expect(description.egress).toEqual({ host: '127.0.0.1', port: llm.port, tls: false });
    expect(JSON.stringify(description)).not.toContain('SECRET');
  });

  it('a fresh runner adopts the same container, restarts the forwarder on the same socket, and its stop leaves nothing', async () => {
    const description = await startThenLoseForwarder();
    const id = description.containerId ?? '';
    expect(probeBridge(id, upstream()).ok).toBe(false); // the forwarder is really gone
    const spawnedBefore = recorder.calls().length;
    const again = await createDockerRunner().reattach?.(stored(description), ctx);
    if (again === null || again === undefined) throw new Error('expected the isolated container to be adopted');
    handles.push(again);
    expect(again.describe().containerId).toBe(id);
    expect(again.describe().egress).toEqual({ host: '127.0.0.1', port: llm.port, tls: false });
    expect(recorder.calls().length).toBeGreaterThan(spawnedBefore);
    expect(processesWithArgv(egressDir()).length).toBeGreaterThan(0);
    expect(probeBridge(id, upstream())).toEqual({ ok: true, status: 200 });
    const seen = (await fetchJson(llm.port, '/__mock/requests')) as Array<{ path: string; headers: Record<string, string> }>;
    expect(seen.map((r) => r.path)).toContain('/v1/chat/completions?readopt');
    await again.stop({ graceMs: 0 });
    expectNothingLeft(description);
    expect(isRunning(id)).toBe(false);
  });

  /** Always three cells (jest would take a missing third one for a `done` callback). */
  type Case = [string, (d: SessionDescription) => unknown, ((c: RunnerContext) => RunnerContext) | null];
  const withPin =
    (pin: unknown) =>
    (d: SessionDescription): unknown => ({ ...d, egress: pin });
  const pinWith =
    (patch: Record<string, unknown>) =>
    (d: SessionDescription): unknown => ({ ...d, egress: { ...d.egress, ...patch } });
  const refusals: Case[] = [
    ['no egress field', (d) => ({ ...d, egress: undefined }), null],
    ['egress is a string', withPin('http://127.0.0.1:1/v1'), null],
    [
      'pin no longer trusted (policy changed)',
      (d) => d,
      (c) => ({ ...c, llm: { defaultEndpoint: 'http://llm.example/v1', allowedHosts: ['llm.example'] } }),
    ],
    ['pin moved to an untrusted host', pinWith({ host: 'evil.example' }), null],
    ['host with shell metacharacters', pinWith({ host: '127.0.0.1;touch /tmp/pwn' }), null],
    ['host with socat address syntax', pinWith({ host: '127.0.0.1,fork' }), null],
    ['host with a second socat address', pinWith({ host: '127.0.0.1!!TCP:evil.example' }), null],
    ['host with userinfo/path', pinWith({ host: 'evil.example/x@127.0.0.1' }), null],
    ['host with a port', pinWith({ host: '127.0.0.1:22' }), null],
    ['host with $(...)', pinWith({ host: '$(id)' }), null],
    ['host with a newline', pinWith({ host: '127.0.0.1\nx' }), null],
    ['port 0', pinWith({ port: 0 }), null],
    ['port 70000', pinWith({ port: 70000 }), null],
    ['port NaN', pinWith({ port: NaN }), null],
    ['port as a string', pinWith({ port: '80' }), null],
    ['tls as a string', pinWith({ tls: 'false' }), null],
    ['an extra key', pinWith({ url: 'http://evil.example' }), null],
    [
      'a __proto__ key',
      (d) => ({
        ...d,
        egress: JSON.parse(`{"host":"127.0.0.1","port":${d.egress?.port ?? 1},"tls":false,"__proto__":{"polluted":true}}`) as unknown,
      }),
      null,
    ],
  ];

  test.each(refusals)('not adopted (%s): null, container removed, nothing left, nothing spawned', async (_name, mutate, changeCtx) => {
    const description = await startThenLoseForwarder();
    const spawnedBefore = recorder.calls().length;
    const hostile = mutate(stored(description)) as SessionDescription;
    const result = await createDockerRunner().reattach?.(hostile, changeCtx === null ? ctx : changeCtx(ctx));
    expect(result).toBeNull();
    expectNothingLeft(description);
    expect(recorder.calls().length).toBe(spawnedBefore);
    expect(existsSync('/tmp/pwn')).toBe(false);
  });

  const tamperings: Array<[string, (dir: string, root: string) => void]> = [
    [
      'replaced by a symlink',
      (dir, root) => {
        renameSync(dir, path.join(root, 'moved'));
        symlinkSync(path.join(root, 'elsewhere'), dir);
      },
    ],
    ['opened to group/world (0755)', (dir) => chmodSync(dir, 0o755)],
    [
      'llm.sock replaced by a regular file',
      (dir) => {
        rmSync(path.join(dir, 'llm.sock'));
        writeFileSync(path.join(dir, 'llm.sock'), 'x');
      },
    ],
    [
      'llm.sock replaced by a symlink',
      (dir, root) => {
        rmSync(path.join(dir, 'llm.sock'));
        symlinkSync(path.join(root, 'elsewhere', 'keep'), path.join(dir, 'llm.sock'));
      },
    ],
  ];

  test.each(tamperings)(
    'not adopted when the egress directory was tampered with (%s): links not followed, nothing spawned',
    async (_name, tamper) => {
      const description = await startThenLoseForwarder();
      const elsewhere = path.join(dirs.root, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      writeFileSync(path.join(elsewhere, 'keep'), 'x');
      tamper(egressDir(), dirs.root);
      const spawnedBefore = recorder.calls().length;
      expect(await createDockerRunner().reattach?.(stored(description), ctx)).toBeNull();
      expectNothingLeft(description);
      expect(readFileSync(path.join(elsewhere, 'keep'), 'utf8')).toBe('x');
      expect(recorder.calls().length).toBe(spawnedBefore);
    },
  );

  it('not adopted when socat is missing on the restarted host (container and directory removed)', async () => {
    const description = await startThenLoseForwarder();
    const { socat: _gone, ...binaries } = ctx.binaries;
    expect(await createDockerRunner().reattach?.(stored(description), { ...ctx, binaries })).toBeNull();
    expectNothingLeft(description);
  });
});
