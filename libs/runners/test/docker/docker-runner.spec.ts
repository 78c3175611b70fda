import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle } from '../../src/index';
import { createDockerRunner } from '../../src/lib/docker/docker-runner';
import type { TestDirs } from './docker-support';
import {
  containersWithLabel,
  describeIfEngine,
  dockerCli,
  makeCtx,
  makeDirs,
  makeDockerSpec,
  processesWithArgv,
  waitFor,
} from './docker-support';
import { readJsonIfWritten } from '../support';

const SERVER_KEY = 'sk-server-SECRET-7f3a';
const ENV_TOKEN = 'tok-SECRET-91bc';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
/** Client that reports (booleans and names only) what it received, then stays up. Holds digests, not secrets. */
const REPORT_AND_WAIT = `
const fs = require('fs');
const e = process.env;
const sha = (s) => require('crypto').createHash('sha256').update(s === undefined ? '' : s).digest('hex');
fs.writeFileSync('/workspace/report.json', JSON.stringify({
  key: sha(e.GENSWARMS_LLM_API_KEY) === ${JSON.stringify(sha(SERVER_KEY))},
  anyKey: e.GENSWARMS_LLM_API_KEY !== undefined,
  token: sha(e.MY_TOKEN) === ${JSON.stringify(sha(ENV_TOKEN))},
  envFileGone: !fs.existsSync('/root/.genswarms/env'),
  names: Object.keys(e).sort(),
  uid: process.getuid(),
  cwd: process.cwd(),
}));
setInterval(() => {}, 1000);`;

interface Inspect {
  Config: { Env: string[] | null; Labels: Record<string, string>; Cmd: string[]; Entrypoint: string[]; User: string; WorkingDir: string };
  Args: string[];
  Path: string;
  State: { Running: boolean; Paused: boolean };
  HostConfig: Record<string, unknown> & { Tmpfs: Record<string, string>; RestartPolicy: { Name: string } };
}

function inspect(id: string): Inspect | undefined {
  const out = dockerCli(['inspect', id]);
  return out === undefined ? undefined : (JSON.parse(out) as Inspect[])[0];
}

describeIfEngine('docker runner against the real engine', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  const handles: RunnerHandle[] = [];
  const runner = createDockerRunner();

  beforeEach(() => {
    dirs = makeDirs();
    ctx = makeCtx(dirs.home, {
      llm: { defaultEndpoint: 'http://llm.example/v1', serverApiKey: SERVER_KEY, allowedHosts: ['llm.example'] },
    });
  });
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.stop({ graceMs: 0 });
    dirs.cleanup();
  });

  async function start(overrides: Parameters<typeof makeDockerSpec>[0]): Promise<RunnerHandle> {
    const handle = await runner.start(runner.plan(makeDockerSpec(overrides), ctx), ctx);
    handles.push(handle);
    return handle;
  }

  it('streams stdout and stderr lines and reports the exit code; argv words arrive verbatim', async () => {
    const script = 'console.log(JSON.stringify(process.argv.slice(1))); console.error("to-stderr"); process.exitCode = 3;';
    const words = ['a b', '$(touch /tmp/x)', '; rm -rf /', "'q'", '--flag=x'];
    const handle = await start({ workspace: dirs.workspace, client: { command: ['/usr/bin/node', '-e', script, ...words] } });
    const lines: string[] = [];
    handle.onOutput((stream, line) => lines.push(`${stream}:${line}`));
    const exit = await new Promise<number | null>((resolve) => handle.onExit((code) => resolve(code)));
    expect(exit).toBe(3);
    expect(lines).toContain(`stdout:${JSON.stringify(words)}`);
    expect(lines).toContain('stderr:to-stderr');
    expect(await handle.health()).toBe('exited');
  });

  it('keeps every env value out of Config.Env, labels, Cmd and host argv; the launcher deletes the env file', async () => {
    const handle = await start({
      workspace: dirs.workspace,
      network: 'open',
      client: { command: ['/usr/bin/node', '-e', REPORT_AND_WAIT] },
      config: { env: { MY_TOKEN: ENV_TOKEN } },
    });
    const report = await waitFor(() => readJsonIfWritten(path.join(dirs.workspace, 'report.json')), 'report.json');
    expect(report).toMatchObject({ key: true, token: true, envFileGone: true, uid: ctx.agent?.uid, cwd: '/workspace' });
    const info = inspect(handle.describe().containerId ?? '');
    if (info === undefined) throw new Error('container not found');
    const env = info.Config.Env ?? [];
    expect(env.filter((e) => e.includes('SECRET'))).toEqual([]);
    expect(env.filter((e) => e.startsWith('GENSWARMS_') || e.startsWith('MY_TOKEN'))).toEqual([]);
    expect(JSON.stringify(info.Config.Labels)).not.toContain('SECRET');
    expect(JSON.stringify([info.Config.Cmd, info.Config.Entrypoint, info.Args, info.Path])).not.toContain('SECRET');
    expect(processesWithArgv('SECRET')).toEqual([]);
    expect(existsSync(path.join(ctx.home, 'state', 'dswarm', 'a1', '.genswarms', 'env'))).toBe(false);
    expect(JSON.stringify(handle.describe())).not.toContain('SECRET');
    expect(info.Config).toMatchObject({
      User: `${ctx.agent?.uid}:${ctx.agent?.gid}`,
      WorkingDir: '/workspace',
      Entrypoint: ['/run/genswarms/launch', '/root/.genswarms/env'],
    });
    expect(info.HostConfig).toMatchObject({
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges:true'],
      ReadonlyRootfs: true,
      Init: true,
      Privileged: false,
      PidsLimit: 512,
      NetworkMode: 'bridge',
      RestartPolicy: { Name: 'no' },
      Tmpfs: { '/tmp': 'rw,nosuid,size=256m' },
    });
  });

  it('runs a non-isolated agent with an untrusted endpoint without the API key', async () => {
    const handle = await start({
      workspace: dirs.workspace,
      network: 'open',
      endpoint: 'http://untrusted.example/v1',
      client: { command: ['/usr/bin/node', '-e', REPORT_AND_WAIT] },
    });
    const report = await waitFor(
      () => readJsonIfWritten<{ anyKey: boolean; names: string[] }>(path.join(dirs.workspace, 'report.json')),
      'report.json',
    );
    expect(report.anyKey).toBe(false);
    expect(report.names).toContain('GENSWARMS_LLM_ENDPOINT');
    expect(handle.describe().notices).toContain('api_key_withheld');
  });

  it('stop removes the container and the env file; a second stop is harmless', async () => {
    const handle = await start({ workspace: dirs.workspace, client: { command: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'] } });
    const id = handle.describe().containerId ?? '';
    expect(await handle.health()).toBe('running');
    const exited = new Promise<string | null>((resolve) => handle.onExit((_c, signal) => resolve(signal)));
    await handle.stop({ graceMs: 0 });
    await handle.stop();
    await exited;
    expect(inspect(id)).toBeUndefined();
    expect(await handle.health()).toBe('exited');
  });

  it('replaces an old container with the same name', async () => {
    const sleep = { command: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'] };
    const first = await start({ workspace: dirs.workspace, client: sleep });
    const second = await start({ workspace: dirs.workspace, client: sleep });
    expect(second.describe().containerId).not.toBe(first.describe().containerId);
    expect(inspect(first.describe().containerId ?? '')).toBeUndefined();
    expect(inspect('gs-dswarm-a1')?.State.Running).toBe(true);
  });

  it('pauses and resumes every container of a swarm and reports the count', async () => {
    const sleep = { command: ['/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'] };
    await start({ workspace: dirs.workspace, swarm: 'pswarm', agent: 'p1', client: sleep });
    await start({ workspace: dirs.workspace, swarm: 'pswarm', agent: 'p2', client: sleep });
    expect(await runner.pauseSwarm('pswarm')).toBe(2);
    expect(inspect('gs-pswarm-p1')?.State.Paused).toBe(true);
    expect(await runner.pauseSwarm('pswarm')).toBe(0);
    expect(await runner.pauseSwarm('otherswarm')).toBe(0);
    expect(await runner.resumeSwarm('pswarm')).toBe(2);
    expect(inspect('gs-pswarm-p2')?.State).toMatchObject({ Running: true, Paused: false });
  });

  it('reattaches to a running container by its session label, and not to a gone one', async () => {
    const handle = await start({
      workspace: dirs.workspace,
      client: { command: ['/usr/bin/node', '-e', 'setInterval(() => console.log("tick"), 200)'] },
    });
    const fresh = createDockerRunner();
    const again = await fresh.reattach?.(handle.describe(), ctx);
    if (again === null || again === undefined) throw new Error('expected a reattached handle');
    handles.push(again);
    expect(again.describe().containerId).toBe(handle.describe().containerId);
    expect(await again.health()).toBe('running');
    await waitFor(
      () =>
        new Promise<true | undefined>((resolve) => {
          const off = again.onOutput((_s, line) => {
            if (line === 'tick') {
              off();
              resolve(true);
            }
          });
        }),
      'a tick from the reattached container',
    );
    await again.stop({ graceMs: 0 });
    expect(containersWithLabel('genswarms.session', handle.describe().sessionId)).toEqual([]);
    expect(await fresh.reattach?.(handle.describe(), ctx)).toBeNull();
  });
});
