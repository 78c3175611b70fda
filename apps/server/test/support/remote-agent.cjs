// Runs INSIDE a test network namespace (`ip netns exec <ns> node remote-agent.cjs <socket.io-client path>`).
// Reads JSON commands, one per line, on stdin; answers one JSON line each on stdout. Plain node, no TS.
'use strict';
const http = require('node:http');
const readline = require('node:readline');
const { io } = require(process.argv[2]);

function doHttp(cmd) {
  return new Promise((resolve) => {
    const req = http.request(cmd.url, { method: cmd.method || 'GET', headers: cmd.headers || {} }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (err) => resolve({ error: err.code || String(err) }));
    if (cmd.body !== undefined) req.write(cmd.body);
    req.end();
  });
}

function doSocket(cmd) {
  return new Promise((resolve) => {
    const socket = io(cmd.url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000, ...(cmd.opts || {}) });
    socket.on('connect', () => {
      socket.timeout(5000).emit('join', { swarm: 'nope' }, (err, ack) => {
        socket.close();
        resolve({ connected: true, ack: err ? null : ack });
      });
    });
    socket.on('connect_error', (err) => {
      socket.close();
      resolve({ connected: false, message: err.message, data: err.data === undefined ? null : err.data });
    });
  });
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const cmd = JSON.parse(line);
  const run = cmd.kind === 'socket' ? doSocket(cmd) : doHttp(cmd);
  run.then((result) => process.stdout.write(JSON.stringify({ id: cmd.id, ...result }) + '\n'));
});
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
