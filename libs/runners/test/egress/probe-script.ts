/**
 * The in-sandbox probe (run as `node -e PROBE_SCRIPT <config-json>`, argv only): tries the LLM
 * through the bridge, another Host through the bridge, the orchestrator and another service on
 * loopback and on every host address, outside addresses, and DNS. Writes /workspace/probe.json.
 */
export const PROBE_SCRIPT = `
'use strict';
const http = require('http'), net = require('net'), dns = require('dns'), fs = require('fs');
const cfg = JSON.parse(process.argv[1]);
const ep = new URL(process.env.GENSWARMS_LLM_ENDPOINT || 'http://127.0.0.1:1/');
function post(path, hostHeader) {
  return new Promise((resolve) => {
    const payload = JSON.stringify({ model: 'probe', messages: [{ role: 'user', content: 'probe says hi' }] });
    const headers = { host: hostHeader, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    const req = http.request({ method: 'POST', host: ep.hostname, port: Number(ep.port), path, headers, timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ ok: true, status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ ok: false, code: e.code || e.message }));
    req.end(payload);
  });
}
function connect(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 3000 });
    s.on('connect', () => { s.destroy(); resolve({ ok: true }); });
    s.on('timeout', () => { s.destroy(); resolve({ ok: false, code: 'timeout' }); });
    s.on('error', (e) => resolve({ ok: false, code: e.code }));
  });
}
(async () => {
  const r = { endpoint: process.env.GENSWARMS_LLM_ENDPOINT, upstream: process.env.GENSWARMS_LLM_UPSTREAM_HOST };
  const chat = ep.pathname.replace(/\\/$/, '') + '/chat/completions';
  r.llm = await post(chat, process.env.GENSWARMS_LLM_UPSTREAM_HOST);
  r.otherHost = await post(chat + '?other-host', 'evil.example');
  r.blocked = [];
  for (const host of ['127.0.0.1', 'localhost', ...cfg.hostIps]) {
    for (const port of [cfg.orchestratorPort, cfg.otherPort]) r.blocked.push({ host, port, ...(await connect(host, port)) });
  }
  for (const [host, port] of [['1.1.1.1', 443], ['8.8.8.8', 53], ['10.0.0.1', 80], ['169.254.169.254', 80]]) {
    r.blocked.push({ host, port, ...(await connect(host, port)) });
  }
  r.dns = await new Promise((resolve) => dns.lookup('evil.example', (e, a) => resolve(e ? { ok: false, code: e.code } : { ok: true, address: a })));
  // the interfaces from /proc/net/dev (this process's network namespace): getifaddrs needs a netlink socket,
  // which the network filter of none/isolated refuses (EPERM), so os.networkInterfaces() throws there
  r.interfaces = fs.readFileSync('/proc/net/dev', 'utf8').split('\\n').slice(2).map((l) => l.split(':')[0].trim()).filter(Boolean);
  try {
    r.netlink = Object.keys(require('os').networkInterfaces());
  } catch (e) {
    r.netlink = e.code || e.message;
  }
  fs.writeFileSync('/workspace/probe.json', JSON.stringify(r));
})();
`;

export interface ProbeResult {
  endpoint?: string;
  upstream?: string;
  llm: { ok: boolean; status?: number; body?: string; code?: string };
  otherHost: { ok: boolean; status?: number; body?: string; code?: string };
  blocked: Array<{ host: string; port: number; ok: boolean; code?: string }>;
  dns: { ok: boolean; code?: string; address?: string };
  interfaces: string[];
  /** os.networkInterfaces() (netlink): its names, or the error when the filter refuses the socket. */
  netlink: string[] | string;
}
