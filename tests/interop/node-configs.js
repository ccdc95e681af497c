// Validates each {kind, config, secrets} of the JSON array in the file named on the command line
// the way the node does at start: secrets interpolated (@api3/commons), then the Airnode Feed 3
// config schema (@api3/airnode-feed) or airnode-validator 0.15's parseConfig. Prints
// [{valid, issues: ["path: message", ...]}].
'use strict';
const fs = require('fs');
const { interpolateSecretsIntoConfig } = require('@api3/commons');
const { parseConfig } = require('@api3/airnode-validator');
const { configSchema } = require('@api3/airnode-feed');

const issues = (error) => error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

(async () => {
  const items = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const results = [];
  for (const { kind, config, secrets } of items) {
    try {
      const interpolated = interpolateSecretsIntoConfig(config, secrets);
      const result = kind === 'feed' ? await configSchema.safeParseAsync(interpolated) : parseConfig(interpolated);
      results.push(result.success ? { valid: true, issues: [] } : { valid: false, issues: issues(result.error) });
    } catch (error) {
      results.push({ valid: false, issues: [`throws: ${error.message}`] });
    }
  }
  process.stdout.write(JSON.stringify(results));
})();
