// Runs the real @api3/airnode-adapter 0.15.0 on cases from the file named on the command line:
// {"requests": [{id, ois, endpointName, parameters, apiCredentials, metadata, mode}],
//  "responses": [{id, data, reserved}]}
// For requests it first does what airnode-node (mode "node") or Airnode Feed (mode "feed") does
// before calling buildRequest, and then builds the URL as axios sends it.
'use strict';
const fs = require('fs');
const axios = require('axios');
const adapter = require('@api3/airnode-adapter');
const { nodeSide } = require('./node-side');

Date.now = () => 1700000000000; // timestamps are deterministic in the comparison

function request(c) {
  try {
    const { parameters, apiCredentials } = nodeSide(c);
    const built = adapter.buildRequest({ ois: c.ois, endpointName: c.endpointName, parameters, apiCredentials, metadata: c.metadata });
    const parsed = new URL(built.baseUrl + built.path);
    const base = parsed.origin + parsed.pathname + parsed.search;
    const method = built.method.toUpperCase();
    const url = method === 'GET' ? axios.getUri({ url: base, params: built.data }) : base;
    const body = method === 'POST' ? JSON.parse(JSON.stringify(built.data)) : null;
    return { id: c.id, method, url, headers: JSON.parse(JSON.stringify(built.headers)), body };
  } catch (error) {
    return { id: c.id, error: error.message };
  }
}

function response(c) {
  try {
    const result = adapter.extractAndEncodeResponse(c.data, c.reserved);
    const values = JSON.parse(JSON.stringify(result.values, (_k, v) => (v && v._isBigNumber ? v.toString() : v)));
    return { id: c.id, values, encoded: result.encodedValue };
  } catch (error) {
    return { id: c.id, error: error.message };
  }
}

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(JSON.stringify({ requests: cases.requests.map(request), responses: cases.responses.map(response) }));
