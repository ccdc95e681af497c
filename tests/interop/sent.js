// Sends each request case of the file named on the command line the way airnode-node 0.15 does
// (@api3/airnode-adapter buildRequest, then its executeRequest through axios 1.21.1, whose
// connection a transport redirects to a loopback server), and prints what arrived on the wire:
// [{id, method, url, headers: [[name, value], ...], body} | {id, error}] (a case's `assignments`,
// [[name, value], ...], replace its `parameters`); `url` is the request's
// origin and the path and query as sent.
'use strict';
const fs = require('fs');
const http = require('http');
const axios = require('axios');
const adapter = require('@api3/airnode-adapter');
const { nodeSide } = require('./node-side');

async function main() {
  const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  let arrived = null;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const headers = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      arrived = { method: req.method, url: req.url, headers, body: Buffer.concat(chunks).toString('utf8') };
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  axios.defaults.transport = {
    request: (options, callback) =>
      http.request({ ...options, protocol: 'http:', hostname: '127.0.0.1', host: '127.0.0.1', port, agent: undefined }, callback),
  };
  const results = [];
  for (const c of cases) {
    arrived = null;
    try {
      // Requester parameters given one by one, as a command line gives them: JavaScript keeps a
      // name's first place and its last value.
      if (c.assignments) {
        c.parameters = {};
        for (const [name, value] of c.assignments) c.parameters[name] = value;
      }
      const { parameters, apiCredentials } = nodeSide(c);
      const built = adapter.buildRequest({
        ois: c.ois, endpointName: c.endpointName, parameters, apiCredentials, metadata: c.metadata,
      });
      const origin = new URL(built.baseUrl + built.path).origin;
      await adapter.executeRequest(built, { timeout: 5000 });
      results.push({ id: c.id, ...arrived, url: origin + arrived.url });
    } catch (error) {
      results.push({ id: c.id, error: error.message });
    }
  }
  server.close();
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
