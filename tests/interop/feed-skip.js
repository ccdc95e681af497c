// What Airnode Feed 3.3's callApi hands to post-processing for each case of the file named on the
// command line, an endpoint that makes no API call: [{ok: data} | {error: message}].
'use strict';
const fs = require('fs');
const path = require('path');
// Not in the package's exports; its file is read as the Feed itself loads it.
const feed = require(path.join(__dirname, 'node_modules/@api3/airnode-feed/dist/src/api-requests/data-provider.js'));

async function main() {
  const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const out = [];
  for (const { ois, endpoint, parameters } of cases) {
    const oisEndpoint = ois.endpoints.find((e) => e.name === endpoint);
    const result = await feed.callApi(ois, oisEndpoint, parameters, []);
    out.push(result.success ? { ok: result.data } : { error: result.error.message });
  }
  process.stdout.write(JSON.stringify(out));
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
