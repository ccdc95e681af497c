// Interpolates the config.json in the file named on the command line with no secrets, as the node
// does when it loads it (@api3/commons interpolateSecretsIntoConfig), and prints the result or
// {"error": message}.
'use strict';
const fs = require('fs');
const { interpolateSecretsIntoConfig } = require('./commons');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
try {
  process.stdout.write(JSON.stringify({ config: interpolateSecretsIntoConfig(config, {}) }));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: error.message }));
}
