/**
 * After a kill -9 mid-turn and a restart on the same home, the resumed turn
 * completed but the agent then stayed `busy` and never took the next task (queued forever). Real
 * server process, real tmux (runner none) and local agents, each a /bin/sh client speaking the agent
 * protocol; several iterations per backend because the stall was a race.
 */
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildOnce } from '@genswarms/tools';
import { waitFor } from './support/engine-server';
import { freePort, kill9, startServerProcess } from './support/server-process';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');
const ITERATIONS = 6;

/** TUI client: reads the pasted turn, waits a little (the crash lands here), writes reply.md then done.json. */
const TUI_CLIENT = `
while IFS= read -r line; do
  case "$line" in
    "When finished, write your reply to "*)
      rest=\${line#When finished, write your reply to }
      reply=\${rest%%, then write*}
      dir=\${reply%/reply.md}
      turn=\${dir##*/}
      sleep 1
      printf 'done %s\\n' "$turn" > "$dir/.r" && mv "$dir/.r" "$reply"
      printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$dir/.d" && mv "$dir/.d" "$dir/done.json"
      ;;
  esac
done`;

/** Headless client: polls the inbox, answers each turn without a done.json (docs/agent.md#3-finishing-a-turn-the-receipt). */
const HEADLESS_CLIENT = `
T="$GENSWARMS_TURNS_DIR"
while :; do
  for f in "$GENSWARMS_WORKSPACE"/.inbox/*.json; do
    [ -f "$f" ] || continue
    turn=$(sed -n 's/.*"turn":"\\([a-z0-9_-]*\\)".*/\\1/p' "$f")
    [ -n "$turn" ] || continue
    [ -e "$T/$turn/done.json" ] && continue
    sleep 1
    [ -e "$T/$turn/done.json" ] && continue
    printf 'done %s\\n' "$turn" > "$T/$turn/.r" && mv "$T/$turn/.r" "$T/$turn/reply.md"
    printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$T/$turn/.d" && mv "$T/$turn/.d" "$T/$turn/done.json"
  done
  sleep 0.1
done`;

const BACKENDS = [
  ['tmux', { type: 'tmux', runner: 'none' }, TUI_CLIENT],
  ['local', { type: 'local' }, HEADLESS_CLIENT],
] as const;

let base: string;
let child: ChildProcess | undefined;
const errs: string[] = [];
const serverErr = (): string => errs.join('').slice(-3000);

beforeAll(() => {
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-stall-')));
  chmodSync(base, 0o711); // search only: a root server runs its agents as the agent uid, below this directory
  mkdirSync(join(base, 'configs'), { mode: 0o700 });
}, 620_000);
afterAll(async () => {
  if (child !== undefined) await kill9(child);
  // the tmux server outlives the killed server process by design (agents are re-attached): end it here
  const socket = join(base, 'home', 'tmux', 'tmux.sock');
  if (existsSync(socket)) spawnSync('/usr/bin/tmux', ['-S', socket, 'kill-server'], { shell: false, stdio: 'ignore' });
  rmSync(base, { recursive: true, force: true });
});

async function agent(url: string, swarm: string): Promise<Record<string, unknown>> {
  return (await request(url).get(`/api/swarms/${swarm}/agents/a`)).body as Record<string, unknown>;
}

async function completedTurns(url: string, swarm: string): Promise<Array<Record<string, unknown>>> {
  const turns = (await request(url).get(`/api/swarms/${swarm}/agents/a/turns`)).body.turns as Array<Record<string, unknown>>;
  return turns.filter((t) => t['status'] === 'completed');
}

async function taskCompletes(url: string, swarm: string, task: string, completedBefore: number): Promise<void> {
  const sent = await request(url).post(`/api/swarms/${swarm}/agents/a/task`).send({ task });
  expect(sent.status).toBe(200);
  await waitFor(
    async () => (await completedTurns(url, swarm)).length > completedBefore,
    `${swarm}: task "${task}" completed (agent ${JSON.stringify(await agent(url, swarm))})`,
    { timeoutMs: 60_000 },
  );
}

describe('after kill -9 mid-turn and a restart, the agent goes on taking tasks', () => {
  it.each(BACKENDS)(
    '%s agent: the resumed turn completes, then two further tasks complete (repeated)',
    async (kind, backend, script) => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      child = await startServerProcess(MAIN, base, port);
      child.stderr?.on('data', (c: Buffer) => errs.push(c.toString('utf8')));
      for (let i = 0; i < ITERATIONS; i++) {
        const swarm = `${kind}${i}`;
        const config = { name: swarm, agents: [{ name: 'a', backend, client: { command: ['/bin/sh', '-c', script] } }] };
        const created = await request(url).post('/api/swarms').send({ config });
        expect(created.status).toBe(201);
        await waitFor(async () => (await agent(url, swarm))['state'] === 'idle', `${swarm} idle`, { timeoutMs: 60_000 }).catch(
          async (e: Error) => {
            const ev = (await request(url).get(`/api/events?swarm=${swarm}&limit=50`)).body.events as Array<Record<string, unknown>>;
            throw new Error(
              `${e.message}: ${JSON.stringify(await agent(url, swarm))} ${JSON.stringify(ev.map((x) => [x['event_type'], x['message'], x['metadata']]))} STDERR ${serverErr()}`,
            );
          },
        );
        await request(url).post(`/api/swarms/${swarm}/agents/a/task`).send({ task: 'survive' }).expect(200);
        const turnsDir = join(base, 'home', 'workspaces', swarm, 'a', '.genswarms', 'turns');
        // Three crash points in turn: right after the answer, once the turn dir exists, once the reply is being written.
        if (i % 3 >= 1) await waitFor(async () => existsSync(turnsDir) && readdirSync(turnsDir).length > 0, `${swarm} turn delivered`);
        if (i % 3 === 2)
          await waitFor(async () => readdirSync(turnsDir).some((t) => existsSync(join(turnsDir, t, 'reply.md'))), `${swarm} reply`);
        await kill9(child);

        child = await startServerProcess(MAIN, base, port);
        child.stderr?.on('data', (c: Buffer) => errs.push(c.toString('utf8')));
        if (i % 2 === 1) {
          // the next task arrives while the resumed turn may still run
          await request(url).post(`/api/swarms/${swarm}/agents/a/task`).send({ task: 'second' }).expect(200);
          await waitFor(async () => (await completedTurns(url, swarm)).length === 2, `${swarm} resumed + second completed`, {
            timeoutMs: 60_000,
          });
        } else {
          await waitFor(async () => (await completedTurns(url, swarm)).length === 1, `${swarm} resumed turn completed`, {
            timeoutMs: 60_000,
          });
          await taskCompletes(url, swarm, 'second', 1);
        }
        await taskCompletes(url, swarm, 'third', 2);
        expect((await completedTurns(url, swarm)).length).toBe(3);
        await request(url).delete(`/api/swarms/${swarm}`).expect(200);
      }
      await kill9(child);
      child = undefined;
    },
    600_000,
  );
});
