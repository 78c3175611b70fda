// A stand-in genswarms API for the @genswarms/client README example: GET /api/swarms answers an empty
// list, any other route 404 swarm_not_found, a wrong token 401. Port 0; `start()` resolves to {url, close}.
const http = require('node:http');

function start(token) {
  const server = http.createServer((req, res) => {
    const send = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`)
      return send(401, { error: 'unauthorized', message: 'Unauthorized' });
    if (req.method === 'GET' && req.url === '/api/swarms') return send(200, { swarms: [] });
    return send(404, { error: 'swarm_not_found', message: 'No such swarm.' });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

module.exports = { start };
