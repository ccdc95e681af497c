// Validates each config.json of the JSON array in the file named on the command line with
// airnode-validator 0.15 (parseConfig, as `airnode-validator` and the deployer do once secrets are
// interpolated) and prints [{valid, issues: ["path: message", ...]}].
'use strict';
const fs = require('fs');
const { parseConfig } = require('@api3/airnode-validator');

const configs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(
  JSON.stringify(
    configs.map((config) => {
      let result;
      try {
        result = parseConfig(config);
      } catch (error) {
        return { valid: false, issues: [`throws: ${error.message}`] };
      }
      if (result.success) return { valid: true, issues: [] };
      return { valid: false, issues: result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
    })
  )
);
