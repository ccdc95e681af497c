// Interpolates each string of {"secrets": {...}, "strings": [...]} (the file named on the command
// line) as the node does, with @api3/commons interpolateSecretsIntoConfig on a config holding only
// that string, and prints [{value}|{error}] in order.
'use strict';
const fs = require('fs');
const { interpolateSecretsIntoConfig } = require('./commons');

const { secrets, strings } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const results = strings.map((value) => {
  try {
    const options = { allowBlankSecretValue: false, validateSecretName: true };
    return { value: interpolateSecretsIntoConfig({ value }, secrets, options).value };
  } catch (error) {
    return { error: error.message };
  }
});
process.stdout.write(JSON.stringify(results));
