// For each 0x… string of the file named on the command line: what @api3/airnode-abi's decode makes
// of it (the parameters airnode-node hands the request). Prints [{ok: {name: value}} | {error}].
'use strict';
const fs = require('fs');
const { decode } = require('@api3/airnode-abi');

const inputs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const results = inputs.map((encoded) => {
  try {
    return { ok: decode(encoded) };
  } catch (error) {
    return { error: String(error.message).slice(0, 200) };
  }
});
process.stdout.write(JSON.stringify(results));
