// Runs each case of [{endpoint, phase, parameters, response}] (the file named on the command line)
// through @api3/commons' preProcessEndpointParameters / postProcessResponse, as airnode-node and
// Airnode Feed call them, and prints [{ok, value, timestamp} | {ok: false, error}] in order. The
// value is what JSON.stringify makes of the result (no text for undefined).
'use strict';
const fs = require('fs');
const { preProcessEndpointParameters, postProcessResponse } = require('./commons');

// Snippets get node:console, the process's own console: keep what they log off standard output.
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[method] = () => {};

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

const run = async (item) => {
  try {
    if (item.phase === 'pre') {
      const { endpointParameters } = await preProcessEndpointParameters(item.endpoint, item.parameters);
      return { ok: true, value: JSON.stringify(endpointParameters) };
    }
    const { response, timestamp } = await postProcessResponse(item.response, item.endpoint, item.parameters);
    return { ok: true, value: JSON.stringify(response), timestamp };
  } catch (error) {
    return { ok: false, error: String(error && error.message) };
  }
};

(async () => {
  const results = [];
  for (const item of cases) results.push(await run(item));
  // Exit only once the output is written: a pipe takes 64 KiB at a time, and exiting drops the rest.
  process.stdout.write(JSON.stringify(results), () => process.exit(0));
})();
