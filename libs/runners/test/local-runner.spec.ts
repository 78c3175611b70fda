import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle } from '../src/index';
import { createLocalRunner } from '../src/index';
import { isProcessAlive } from '../src/lib/process/process-tree';
import { ECHO_ARGV, hostileWords, makeContext, makeSandboxDirs, makeSpec, waitForFile } from './support';

function allCmdlines(): string {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })
    .join('\n');
}

describe('local runner', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    dirs.cleanup();
  });

  it.each(['none', 'isolated', { named: 'web' }] as const)('refuses network %p at plan (unsupported_network)', (network) => {
    const runner = createLocalRunner();
    expect(() => runner.plan(makeSpec({ workspace: dirs.workspace, network }), makeContext(dirs.home))).toThrow(
      expect.objectContaining({ code: 'unsupported_network' }),
    );
  });

  it('passes hostile argv byte-for-byte with no shell, and nothing executes', async () => {
    const marker = path.join(dirs.root, `pwned-${process.pid}`);
    const words = hostileWords(marker);
    const out = path.join(dirs.root, 'out.json');
    const runner = createLocalRunner();
    const spec = makeSpec({
      workspace: dirs.workspace,
      client: { command: [process.execPath, ECHO_ARGV, ...words] },
      config: { env: { ECHO_ARGV_OUT: out } },
    });
    handle = await runner.start(runner.plan(spec, makeContext(dirs.home)), makeContext(dirs.home));
    const report = JSON.parse(await waitForFile(out)) as { argv: string[]; cwd: string };
    expect(report.argv).toEqual(words);
    expect(report.cwd).toBe(dirs.workspace);
    expect(existsSync(marker)).toBe(false);
  });

  it('gives the client exactly the docs/runners.md environment, built from scratch', async () => {
    const out = path.join(dirs.root, 'out.json');
    const runner = createLocalRunner();
    const ctx = makeContext(dirs.home, {
      llm: { defaultEndpoint: 'https://llm.example/v1', serverApiKey: 'sk-server', allowedHosts: ['llm.example'] },
    });
    const spec = makeSpec({ workspace: dirs.workspace, model: 'm1', topologyTargets: ['b', 'c'], config: { env: { ECHO_ARGV_OUT: out } } });
    const plan = runner.plan(spec, ctx);
    handle = await runner.start(plan, ctx);
    const { env } = JSON.parse(await waitForFile(out)) as { env: Record<string, string> };
    const stateDir = path.join(dirs.home, 'state', 'swarm1', 'agent1');
    expect(env).toEqual({
      GENSWARMS_SWARM: 'swarm1',
      GENSWARMS_AGENT: 'agent1',
      GENSWARMS_WORKSPACE: dirs.workspace,
      GENSWARMS_TURNS_DIR: path.join(dirs.workspace, '.genswarms', 'turns'),
      SWARM_TOPOLOGY: 'b,c',
      GENSWARMS_LLM_ENDPOINT: 'https://llm.example/v1',
      GENSWARMS_LLM_API_KEY: 'sk-server',
      GENSWARMS_MODEL: 'm1',
      GENSWARMS_SKILLS_DIR: path.join(stateDir, 'skills'),
      HOME: stateDir,
      PATH: '/usr/local/bin:/usr/bin:/bin',
      ECHO_ARGV_OUT: out,
    });
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
  });

  it('keeps a secret out of every host cmdline, describe() and the output lines', async () => {
    const secret = `sk-secret-${process.pid}-${Date.now()}`;
    const out = path.join(dirs.root, 'out.json');
    const runner = createLocalRunner();
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({
      workspace: dirs.workspace,
      apiKey: secret,
      client: { command: [process.execPath, ECHO_ARGV] },
      config: { env: { ECHO_ARGV_OUT: out, ECHO_ARGV_HOLD: '1' } },
    });
    const lines: string[] = [];
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    handle.onOutput((_s, line) => lines.push(line));
    const { env } = JSON.parse(await waitForFile(out)) as { env: Record<string, string> };
    expect(env['GENSWARMS_LLM_API_KEY']).toBe(secret);
    expect(allCmdlines()).not.toContain(secret);
    expect(JSON.stringify(handle.describe())).not.toContain(secret);
    expect(handle.describe().envNames).toContain('GENSWARMS_LLM_API_KEY');
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('stop kills the whole tree: the client and the grandchild it forked', async () => {
    const out = path.join(dirs.root, 'out.json');
    const runner = createLocalRunner();
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({
      workspace: dirs.workspace,
      client: { command: [process.execPath, ECHO_ARGV] },
      config: { env: { ECHO_ARGV_OUT: out, ECHO_ARGV_HOLD: '1', ECHO_ARGV_FORK: '1' } },
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    const { pid, grandchild } = JSON.parse(await waitForFile(out)) as { pid: number; grandchild: number };
    expect(isProcessAlive(pid)).toBe(true);
    expect(isProcessAlive(grandchild)).toBe(true);
    const exits: Array<[number | null, string | null]> = [];
    handle.onExit((code, signal) => exits.push([code, signal]));
    await handle.stop({ graceMs: 1000 });
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(grandchild)).toBe(false);
    expect(exits).toHaveLength(1);
    expect(await handle.health()).toBe('exited');
  });

  it('reports a crashed client through onExit and health("exited"), keeping its last lines', async () => {
    const runner = createLocalRunner();
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({
      workspace: dirs.workspace,
      client: { command: [process.execPath, ECHO_ARGV, 'last-words'] },
      config: { env: { ECHO_ARGV_EXIT: '3' } },
    });
    const started = await runner.start(runner.plan(spec, ctx), ctx);
    handle = started;
    const code = await new Promise<number | null>((resolve) => started.onExit((c) => resolve(c)));
    expect(code).toBe(3);
    expect(await started.health()).toBe('exited');
    expect((started as RunnerHandle & { lastLines(): readonly string[] }).lastLines().join('\n')).toContain('last-words');
  });

  it('refuses a bypass flag in a command without unsafe_bypass, and notes it with the opt-in', () => {
    const runner = createLocalRunner();
    const ctx = makeContext(dirs.home);
    const command = { command: [process.execPath, ECHO_ARGV, '--dangerously-skip-permissions'] };
    expect(() => runner.plan(makeSpec({ workspace: dirs.workspace, client: command }), ctx)).toThrow(
      expect.objectContaining({ code: 'bypass_requires_opt_in' }),
    );
    expect(runner.plan(makeSpec({ workspace: dirs.workspace, client: command, unsafeBypass: true }), ctx).notices).toContain(
      'unsafe_bypass_enabled',
    );
  });

  it('runs a TUI client (codex) in a pty with TERM/LANG and pastes a turn into it', async () => {
    const fake = path.join(dirs.root, 'fake-codex');
    const out = path.join(dirs.root, 'tui.json');
    const got = path.join(dirs.root, 'got.txt');
    writeFileSync(
      fake,
      `#!${process.execPath}\nconst fs=require('fs');fs.writeFileSync(${JSON.stringify(out)},JSON.stringify({argv:process.argv.slice(2),tty:process.stdin.isTTY,term:process.env.TERM,lang:process.env.LANG}));\n` +
        `process.stdin.setRawMode(true);let b='';process.stdin.on('data',d=>{b+=d;if(b.includes('\\r')){fs.writeFileSync(${JSON.stringify(got)},b);}});\n`,
      { mode: 0o755 },
    );
    // this stand-in draws none of Codex's screens: without screen rules the turn is written at once
    const runner = createLocalRunner({ screens: () => undefined });
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({ workspace: dirs.workspace, client: 'codex', model: 'gpt-x', config: { agent_binary_path: fake } });
    const plan = runner.plan(spec, ctx);
    expect(plan.clientArgv).toEqual([fake, '--no-daemon', '--model', 'gpt-x']);
    handle = await runner.start(plan, ctx);
    const report = JSON.parse(await waitForFile(out)) as { argv: string[]; tty: boolean; term: string; lang: string };
    expect(report).toEqual({ argv: ['--no-daemon', '--model', 'gpt-x'], tty: true, term: 'xterm-256color', lang: 'C.UTF-8' });
    await handle.deliver({ turnId: 't1', seq: 1, from: '_operator', content: 'hello', clientTurnsDir: '/w/.genswarms/turns' });
    expect(await waitForFile(got)).toContain('[genswarms] turn t1 — message 1 from _operator:');
  });
});
