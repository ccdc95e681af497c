// For each config (a list in the file named on the command line): the hash Airnode Feed's
// heartbeat logs, createSha256Hash(serializePlainObject(rawConfig)), by the @api3/commons of
// commons.js. Prints a list of hashes.
'use strict';
const fs = require('fs');
const { createSha256Hash, serializePlainObject } = require('./commons');

const configs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(JSON.stringify(configs.map((config) => createSha256Hash(serializePlainObject(config)))));
