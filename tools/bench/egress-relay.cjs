#!/usr/bin/env node
'use strict';
// `node tools/bench/egress-relay.cjs [--requests N] [--stream-mib M] [--rounds R]` (docs/benchmarks.md, "LLM egress relay"):
// the metering relay's cost against the socat byte pipe, in the same run. One upstream (node:http, its own
// process) answers `/small` (a chat completion with usage, ~400 B) and `/stream` (an SSE stream of M MiB in
// OpenAI chunk shape, then a usage chunk). Two forwarders pinned to it, built from libs/egress/dist: `socat`
// (the pipe, as before) and `relay` (the relay in this process in front of socat, with an in-memory meter).
// A third forwarder, `relay+store`, meters with the engine's own LlmMeter over a real SQLite store (libs/engine/dist;
// two transactions per call: admit, settle). A client process runs N sequential keep-alive calls of `/small` and R
// streams of `/stream` through each, in rotating rounds, then one LLM-paced stream (500 events, one every 2 ms,
// each stamped with the upstream's clock). Prints p50/p90/p99 latency per call, stream throughput at saturation,
// the paced events' delay (upstream write → agent read), the CPU per small call and per streamed MiB of this
// process (`server`: where the relay runs) and of socat (parent + forks), then what the relay adds.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const REQUESTS = arg('requests', 2000);
const STREAM_MIB = arg('stream-mib', 64);
const ROUNDS = arg('rounds', 3);
const ROOT = path.resolve(__dirname, '../..');
const egress = require(path.join(ROOT, 'libs/egress/dist/index.js'));
const engine = require(path.join(ROOT, 'libs/engine/dist/index.js'));
const SOCAT = ['/usr/bin/socat', '/bin/socat', '/usr/local/bin/socat'].find((p) => fs.existsSync(p));
if (SOCAT === undefined) {
  process.stderr.write('egress-relay: socat is not installed\n');
  process.exit(2);
}

const UPSTREAM = `
const http = require('node:http');
const small = JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok '.repeat(80) } }], usage: { prompt_tokens: 12, completion_tokens: 80, total_tokens: 92 } });
const event = 'data: ' + JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'tokentokentoken ' } }], usage: null }) + '\\n\\n';
const block = Buffer.from(event.repeat(Math.ceil(65536 / event.length)));
const total = Number(process.argv[1]) * 1024 * 1024;
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/small') { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(small) }); return res.end(small); }
    if (req.url === '/paced') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const t = setInterval(() => {
        const now = performance.timeOrigin + performance.now();
        res.write('data: ' + JSON.stringify({ t: now, choices: [{ index: 0, delta: { content: 'token ' } }], usage: null }) + '\\n\\n');
        if (++n === 500) { clearInterval(t); res.end('data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":500}}\\n\\ndata: [DONE]\\n\\n'); }
      }, 2);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let sent = 0;
    const pump = () => { while (sent < total) { sent += block.length; if (!res.write(block)) return res.once('drain', pump); } res.end('data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}\\n\\ndata: [DONE]\\n\\n'); };
    pump();
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

const CLIENT = `
const http = require('node:http');
const [socketPath, n, streams] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const call = (path) => new Promise((resolve, reject) => {
  const t0 = process.hrtime.bigint();
  const req = http.request({ socketPath, agent, method: 'POST', path, headers: { host: 'x', 'content-type': 'application/json', 'content-length': 2 } }, (res) => {
    let bytes = 0;
    res.on('data', (c) => (bytes += c.length));
    res.on('end', () => resolve({ ns: Number(process.hrtime.bigint() - t0), bytes, status: res.statusCode }));
  });
  req.on('error', reject);
  req.end('{}');
});
(async () => {
  for (let i = 0; i < 50; i++) await call('/small'); // warm-up (counted in the CPU split per call)
  const c0 = process.cpuUsage();
  const lat = [];
  for (let i = 0; i < n; i++) { const r = await call('/small'); if (r.status !== 200) throw new Error('status ' + r.status); lat.push(r.ns); }
  const mbps = [];
  for (let i = 0; i < streams; i++) { const r = await call('/stream'); mbps.push(r.bytes / (r.ns / 1e9) / (1024 * 1024)); }
  const delays = [];
  if (streams > 0) await new Promise((resolve, reject) => {
    const req = http.request({ socketPath, agent, method: 'POST', path: '/paced', headers: { host: 'x', 'content-length': 2 } }, (res) => {
      let buf = '';
      res.on('data', (c) => {
        const at = performance.timeOrigin + performance.now();
        buf += c;
        let i;
        while ((i = buf.indexOf('\\n\\n')) !== -1) {
          const m = /"t":([0-9.]+)/.exec(buf.slice(0, i));
          if (m !== null) delays.push((at - Number(m[1])) * 1000);
          buf = buf.slice(i + 2);
        }
      });
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end('{}');
  });
  const cpu = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ lat, mbps, delays, cpuUs: cpu.user + cpu.system }) + '\\n');
  agent.destroy();
})().catch((e) => { process.stderr.write(String(e) + '\\n'); process.exit(1); });
`;

function run(script, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, ...args.map(String)], { shell: false, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}`))));
  });
}

/** utime+stime+cutime+cstime of a process, µs (socat's forks are waited for by their parent, so cutime holds them). */
function procCpuUs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  return (ticks * 1e6) / 100; // CLK_TCK is 100 on Linux
}

const q = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const meter = {
  calls: 0,
  tokens: 0,
  admit() {
    this.calls += 1;
    return { kind: 'admit', ticket: this.calls };
  },
  settle(_t, outcome) {
    this.tokens += outcome.usage === null ? 0 : outcome.usage.totalTokens;
  },
  reject() {},
};

async function main() {
  const up = spawn(process.execPath, ['-e', UPSTREAM, String(STREAM_MIB)], { shell: false, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => up.stdout.once('data', (c) => resolve(Number(String(c).trim()))));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-relay-'));
  const target = egress.planEgress({ policy: { defaultEndpoint: `http://127.0.0.1:${port}/`, allowedHosts: ['127.0.0.1'] } });
  const store = engine.SqliteStore.open(root);
  const clock = { now: () => new Date(), setTimer: () => ({ cancel() {} }) };
  const llm = new engine.LlmMeter(store.llmUsage, clock, new engine.EventBus(store, clock));
  const host = { swarm: 's', agentConfig: (name) => ({ name }), swarmOptions: () => ({}), scaleBases: new Set() };
  const fwd = {
    socat: await egress.startForwarder({ socat: SOCAT, dir: path.join(root, 'e', 's', 'pipe'), target }),
    relay: await egress.startForwarder({ socat: SOCAT, dir: path.join(root, 'e', 's', 'relay'), target, meter }),
    'relay+store': await egress.startForwarder({
      socat: SOCAT,
      dir: path.join(root, 'e', 's', 'store'),
      target,
      meter: llm.forAgent(host, 'a'),
    }),
  };
  const KINDS = Object.keys(fwd);
  const fresh = () => ({
    lat: [],
    mbps: [],
    delays: [],
    cpu: { small: { self: 0, socat: 0, client: 0 }, stream: { self: 0, socat: 0, client: 0 } },
  });
  const acc = Object.fromEntries(KINDS.map((k) => [k, fresh()]));
  /** One client run (`small` calls or `stream`s) through `kind`, its CPU split by process. */
  const phase = async (kind, which, n, streams) => {
    const self0 = process.cpuUsage();
    const socat0 = procCpuUs(fwd[kind].pid);
    const res = await run(CLIENT, [fwd[kind].socketPath, n, streams]);
    await new Promise((resolve) => setTimeout(resolve, 200)); // socat's fork is reaped into cutime
    const self = process.cpuUsage(self0);
    const cpu = acc[kind].cpu[which];
    cpu.self += self.user + self.system;
    cpu.socat += procCpuUs(fwd[kind].pid) - socat0;
    cpu.client += res.cpuUs;
    return res;
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of [...KINDS.slice(r % KINDS.length), ...KINDS.slice(0, r % KINDS.length)]) {
      acc[kind].lat.push(...(await phase(kind, 'small', Math.ceil(REQUESTS / ROUNDS), 0)).lat);
      const streamed = await phase(kind, 'stream', 0, 1);
      acc[kind].mbps.push(...streamed.mbps);
      acc[kind].delays.push(...streamed.delays);
    }
  }
  for (const f of Object.values(fwd)) await f.stop();
  const stored = store.llmUsage.usage('s', 'a');
  await store.close();
  up.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
  const report = {};
  for (const kind of KINDS) {
    const lat = acc[kind].lat.sort((a, b) => a - b).map((ns) => ns / 1000);
    const { small, stream } = acc[kind].cpu;
    const mib = STREAM_MIB * acc[kind].mbps.length;
    report[kind] = {
      p50_us: Math.round(q(lat, 50)),
      p90_us: Math.round(q(lat, 90)),
      p99_us: Math.round(q(lat, 99)),
      stream_mib_s: Math.round(acc[kind].mbps.reduce((a, b) => a + b, 0) / acc[kind].mbps.length),
      // an LLM-paced stream (an event every 2 ms): from the upstream's write to the agent's read, µs
      paced_event_delay_us: (() => {
        const d = acc[kind].delays.sort((a, b) => a - b);
        return { p50: Math.round(q(d, 50)), p99: Math.round(q(d, 99)), events: d.length };
      })(),
      // each client run also makes 50 warm-up calls
      cpu_us_per_call: {
        server: Math.round(small.self / (lat.length + 50 * ROUNDS)),
        socat: Math.round(small.socat / (lat.length + 50 * ROUNDS)),
      },
      cpu_ms_per_stream_mib: { server: Math.round(stream.self / mib) / 1000, socat: Math.round(stream.socat / mib) / 1000 },
    };
  }
  report.added_p50_us = {
    relay: report.relay.p50_us - report.socat.p50_us,
    'relay+store': report['relay+store'].p50_us - report.socat.p50_us,
  };
  report.added_paced_event_delay_p50_us = {
    relay: report.relay.paced_event_delay_us.p50 - report.socat.paced_event_delay_us.p50,
    'relay+store': report['relay+store'].paced_event_delay_us.p50 - report.socat.paced_event_delay_us.p50,
  };
  const loss = (k) => Math.round((1 - report[k].stream_mib_s / report.socat.stream_mib_s) * 1000) / 10;
  report.stream_throughput_loss_pct = { relay: loss('relay'), 'relay+store': loss('relay+store') };
  report.store_usage = stored;
  report.meter = { calls: meter.calls, tokens: meter.tokens };
  report.setup = { requests: REQUESTS, stream_mib: STREAM_MIB, rounds: ROUNDS, node: process.version, cpus: os.cpus().length };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`egress-relay: ${e.stack ?? e}\n`);
  process.exit(1);
});
