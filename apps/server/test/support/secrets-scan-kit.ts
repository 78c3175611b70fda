/**
 * The scanners of the secrets scan (apps/server/test/secrets-scan.spec.ts): distinct random canaries,
 * the encodings each is looked for in, and readers for every place a secret could land — /proc of every process,
 * the tmux server's global and session environments and panes, `docker inspect` (containers, services, secrets,
 * configs) on every engine, files under a directory tree — each reporting a hit by place, canary and encoding.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

const TMUX = '/usr/bin/tmux';

/** A canary: role name → a random value no other process on the box can hold. */
export type Canaries = Readonly<Record<string, string>>;

export function canary(role: string): string {
  return `gscanary-${role}-${randomBytes(12).toString('hex')}`;
}

export interface Hit {
  readonly where: string;
  readonly canary: string;
  readonly form: string;
}

/** The forms a canary is looked for in: raw (= JSON-escaped and URL-encoded: [a-z0-9-] only), base64 at each alignment, hex, a 12-character prefix of its random part. */
export function needlesOf(value: string): Array<{ form: string; needle: string }> {
  const out = [{ form: 'raw', needle: value }];
  for (let k = 0; k < 3; k++) {
    const s = value.slice(k);
    const whole = s.slice(0, Math.floor(s.length / 3) * 3);
    out.push({ form: `base64@${k}`, needle: Buffer.from(whole, 'latin1').toString('base64') });
  }
  const hex = Buffer.from(value, 'latin1').toString('hex');
  out.push({ form: 'hex', needle: hex }, { form: 'HEX', needle: hex.toUpperCase() });
  const random = value.slice(value.lastIndexOf('-') + 1);
  out.push({ form: 'random-part-prefix', needle: random.slice(0, 12) });
  return out;
}

/** Every canary (except those in `allowed`) found in `data`, in any of its forms. */
export function hitsIn(data: string | Buffer, where: string, canaries: Canaries, allowed: ReadonlySet<string> = new Set()): Hit[] {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  const hits: Hit[] = [];
  for (const [name, value] of Object.entries(canaries)) {
    if (allowed.has(name)) continue;
    for (const { form, needle } of needlesOf(value)) {
      if (text.includes(needle)) {
        hits.push({ where, canary: name, form });
        break;
      }
    }
  }
  return hits;
}

/** Which canaries appear in `data` (raw): the positive controls (places that must hold them). */
export function canariesIn(data: string | Buffer, canaries: Canaries): string[] {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  return Object.entries(canaries)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => k);
}

function readOr(path: string, enc: 'latin1' = 'latin1'): string {
  try {
    return readFileSync(path, enc);
  } catch {
    return ''; // expected: the process exited while /proc was listed
  }
}

function parentOf(pid: number): number {
  const stat = readOr(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? 0);
}

function envMap(environ: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const kv of environ.split('\0')) {
    const i = kv.indexOf('=');
    if (i > 0) m.set(kv.slice(0, i), kv.slice(i + 1));
  }
  return m;
}

export interface ProcScan {
  readonly hits: Hit[];
  readonly processes: number;
  /** agent → canaries seen in its own process tree (the exceptions, which must hold them). */
  readonly agentHeld: Map<string, Set<string>>;
}

/**
 * /proc/<pid>/cmdline and environ of every process on the host (read as root). A process whose environment
 * names `GENSWARMS_SWARM=<swarm>` and `GENSWARMS_AGENT=<a>` — the client env the runner built — and its
 * descendants may hold `allowed(a)` in their environ (never in argv, which every uid can read); `skip` (the
 * test runner) is not read.
 */
export function scanProcesses(
  swarm: string,
  canaries: Canaries,
  allowed: (agent: string) => ReadonlySet<string>,
  skip: ReadonlySet<number>,
): ProcScan {
  const pids = readdirSync('/proc')
    .filter((d) => /^[0-9]+$/.test(d))
    .map(Number);
  const environs = new Map<number, string>();
  const owner = new Map<number, string>();
  for (const pid of pids) {
    const env = readOr(`/proc/${pid}/environ`);
    environs.set(pid, env);
    const m = envMap(env);
    if (m.get('GENSWARMS_SWARM') === swarm && m.has('GENSWARMS_AGENT')) owner.set(pid, m.get('GENSWARMS_AGENT') ?? '');
  }
  const parents = new Map<number, number>(pids.map((p) => [p, parentOf(p)]));
  const agentOf = (pid: number): string | undefined => {
    for (let p = pid, n = 0; p > 1 && n < 64; p = parents.get(p) ?? 0, n++) if (owner.has(p)) return owner.get(p);
    return undefined;
  };
  const hits: Hit[] = [];
  const agentHeld = new Map<string, Set<string>>();
  for (const pid of pids) {
    if (skip.has(pid)) continue;
    const cmdline = readOr(`/proc/${pid}/cmdline`);
    const environ = environs.get(pid) ?? '';
    const text = `${cmdline}\n${environ}`;
    const agent = agentOf(pid);
    const ok = agent === undefined ? new Set<string>() : allowed(agent);
    const cmd = cmdline.split('\0').slice(0, 3).join(' ').slice(0, 80);
    const who = `/proc/${pid} (${cmd}${agent === undefined ? '' : `; agent ${agent}`})`;
    // argv is readable by every uid: no exception there, not even for the agent's own values
    hits.push(...hitsIn(cmdline, `${who} cmdline`, canaries));
    hits.push(...hitsIn(environ, `${who} environ`, canaries, ok));
    if (agent !== undefined) {
      const held = agentHeld.get(agent) ?? new Set<string>();
      for (const c of canariesIn(text, canaries)) held.add(c);
      agentHeld.set(agent, held);
    }
  }
  return { hits, processes: pids.length, agentHeld };
}

function run(file: string, args: readonly string[], env?: NodeJS.ProcessEnv): { ok: boolean; out: string } {
  const r = spawnSync(file, args, { shell: false, encoding: 'latin1', timeout: 30_000, ...(env === undefined ? {} : { env }) });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/**
 * `tmux show-environment -g` and `show-options -g`, every session's environment and options, every pane's screen
 * and history — in one tmux invocation after listing the sessions and panes.
 */
export function scanTmux(socket: string, canaries: Canaries): { hits: Hit[]; sessions: number; panes: number } {
  if (!existsSync(socket)) return { hits: [], sessions: 0, panes: 0 };
  const t = (...a: string[]): { ok: boolean; out: string } => run(TMUX, ['-S', socket, ...a]);
  const sessions = t('list-sessions', '-F', '#{session_name}')
    .out.split('\n')
    .filter((x) => x.trim() !== '');
  const panes = t('list-panes', '-a', '-F', '#{pane_id}')
    .out.split('\n')
    .filter((p) => p.startsWith('%'));
  const cmds: string[][] = [
    ['show-environment', '-g'],
    ['show-options', '-g'],
    ...sessions.flatMap((x) => [
      ['show-environment', '-t', x],
      ['show-options', '-t', x],
    ]),
    ...panes.map((p) => ['capture-pane', '-p', '-S', '-', '-t', p]),
  ];
  const out = t(...cmds.flatMap((c, i) => (i === 0 ? c : [';', ...c]))).out;
  const hits = hitsIn(
    out,
    `tmux ${socket}: global and ${sessions.length} sessions' environment and options, ${panes.length} panes' screen + history`,
    canaries,
  );
  return { hits, sessions: sessions.length, panes: panes.length };
}

/** One Engine API GET over the engine's unix socket (what `docker inspect` prints is this JSON). */
function engineGet(socketPath: string, path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ socketPath, path, method: 'GET', timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new Error(`engine ${socketPath} ${path}: timeout`)));
    req.on('error', fail);
    req.end();
  });
}

/**
 * What `docker inspect` shows (the Engine API's inspect JSON: labels, Cmd, Env, Spec…) of every container (and its
 * logs), network and volume labelled `genswarms.swarm=<swarm>` on the engine at `socketPath`, and on a manager
 * every service (and its tasks), secret and config.
 */
export async function scanDocker(
  socketPath: string,
  swarm: string,
  canaries: Canaries,
  manager: boolean,
): Promise<{ hits: Hit[]; objects: number; inspected: string }> {
  const hits: Hit[] = [];
  let objects = 0;
  let inspected = '';
  const filters = encodeURIComponent(JSON.stringify({ label: [`genswarms.swarm=${swarm}`] }));
  const kinds: Array<[string, string, (x: Row) => string, (id: string) => string[]]> = [
    [
      'container',
      `/containers/json?all=1&filters=${filters}`,
      (x) => String(x['Id']),
      (id) => [`/containers/${id}/json`, `/containers/${id}/logs?stdout=1&stderr=1`],
    ],
    ['network', `/networks?filters=${filters}`, (x) => String(x['Id']), (id) => [`/networks/${id}`]],
    ['volume', `/volumes?filters=${filters}`, (x) => String(x['Name']), (id) => [`/volumes/${id}`]],
    ...(manager
      ? ([
          [
            'service',
            `/services?filters=${filters}`,
            (x: Row) => String(x['ID']),
            (id: string) => [`/services/${id}`, `/tasks?filters=${encodeURIComponent(JSON.stringify({ service: [id] }))}`],
          ],
          ['secret', `/secrets?filters=${filters}`, (x: Row) => String(x['ID']), (id: string) => [`/secrets/${id}`]],
          ['config', `/configs?filters=${filters}`, (x: Row) => String(x['ID']), (id: string) => [`/configs/${id}`]],
        ] as Array<[string, string, (x: Row) => string, (id: string) => string[]]>)
      : []),
  ];
  for (const [kind, list, idOf, reads] of kinds) {
    const r = await engineGet(socketPath, list);
    if (r.status !== 200) continue; // expected: swarm objects on an engine that is no manager (503)
    hits.push(...hitsIn(r.body, `docker ${socketPath} ${kind} list`, canaries));
    const parsed = JSON.parse(r.body.toString('utf8')) as Row[] | { Volumes?: Row[] };
    const rows = Array.isArray(parsed) ? parsed : (parsed.Volumes ?? []);
    for (const id of rows.map(idOf)) {
      objects++;
      for (const path of reads(id)) {
        const body = (await engineGet(socketPath, path)).body;
        if (!path.includes('/logs')) inspected += body.toString('utf8');
        hits.push(...hitsIn(body, `docker ${socketPath} GET ${path}`, canaries));
      }
    }
  }
  return { hits, objects, inspected };
}

type Row = Record<string, unknown>;

export interface FileScan {
  readonly hits: Hit[];
  readonly files: number;
  readonly bytes: number;
  /** Excepted files found, with their mode and the canaries they hold. */
  readonly excepted: Array<{ path: string; mode: number; holds: string[] }>;
}

/**
 * Every regular file below `root` (no link followed; sockets/FIFOs skipped), read whole. Files for which
 * `except(path)` is true are not hits: they are listed with their mode and what they hold.
 */
export function scanTree(root: string, canaries: Canaries, except: (path: string) => boolean): FileScan {
  const hits: Hit[] = [];
  const excepted: FileScan['excepted'] = [];
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return; // expected: removed meanwhile (a stopping agent's directory)
    }
    for (const name of names) {
      const p = join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue; // expected: removed meanwhile
      }
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) {
        let data: Buffer;
        try {
          data = readFileSync(p);
        } catch {
          continue; // expected: removed meanwhile (an env file the launcher consumed)
        }
        files++;
        bytes += data.length;
        if (except(p)) excepted.push({ path: p, mode: st.mode & 0o7777, holds: canariesIn(data, canaries) });
        else hits.push(...hitsIn(data, p, canaries));
      } else if (st.isSymbolicLink()) {
        let target = '';
        try {
          target = readlinkSync(p);
        } catch {
          // expected: removed meanwhile
        }
        hits.push(...hitsIn(target, `${p} (link target)`, canaries));
      }
    }
  };
  walk(root);
  return { hits, files, bytes, excepted };
}
