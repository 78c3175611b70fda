'use strict';
// Preloaded into the bench server (`node --require tools/bench/bare-express.cjs apps/server/dist/main.js`,
// docs/benchmarks.md "API") when GENSWARMS_BENCH_BARE_PORT_FILE is set: a bare express app in the same
// process — same event loop, same heap — on another loopback port, the baseline of the token-gated
// `GET /api/swarms`. `PUT /bare` (a JSON body) sets what `GET /bare` serves with `res.json`, as the
// real route does; the port goes to the file. Bench only: never loaded by the product.
const fs = require('node:fs');

const portFile = process.env.GENSWARMS_BENCH_BARE_PORT_FILE;
if (portFile !== undefined && portFile !== '') {
  const express = require('express');
  const app = express();
  let body = {};
  app.put('/bare', (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.status(204).end();
    });
  });
  app.get('/bare', (_req, res) => {
    res.json(body);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    fs.writeFileSync(portFile, String(server.address().port), { mode: 0o600 });
  });
  server.unref();
}
