// Validates each {kind, config, secrets} of the JSON array in the file named on the command line
// the way the node does at start: secrets interpolated (the node's own @api3/commons), then its
// config schema — Airnode Feed's (kind 'feed') or the Signed API's (kind 'signed-api'), 3.3.0
// from npm or 4.6.0 built by build-node-4.sh, chosen by the config's nodeVersion / version — or
// airnode-validator 0.15's parseConfig (kind 'airnode'). Prints [{valid, issues: ["path: message", ...]}].
'use strict';
const fs = require('fs');
const path = require('path');

// The package folder of a node package at a version.
const packageDir = (name, version) =>
  version.startsWith('4.')
    ? path.join(__dirname, 'nodes', 'signed-api-4.6.0', 'packages', name)
    : path.resolve(path.dirname(require.resolve(`@api3/${name}`)), '..', '..');
const load = (dir, module) => require(require.resolve(module, { paths: [dir] }));

const issues = (error) => error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

(async () => {
  const items = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const results = [];
  for (const { kind, config, secrets } of items) {
    try {
      let result;
      if (kind === 'airnode') {
        const { interpolateSecretsIntoConfig } = require('@api3/commons');
        result = require('@api3/airnode-validator').parseConfig(interpolateSecretsIntoConfig(config, secrets));
      } else {
        const name = kind === 'feed' ? 'airnode-feed' : 'signed-api';
        const version = String((kind === 'feed' ? config?.nodeSettings?.nodeVersion : config?.version) ?? '3.3.0');
        const dir = packageDir(name, version);
        const { interpolateSecretsIntoConfig } = load(dir, '@api3/commons');
        const { configSchema } = require(dir);
        result = await configSchema.safeParseAsync(interpolateSecretsIntoConfig(config, secrets));
      }
      results.push(result.success ? { valid: true, issues: [] } : { valid: false, issues: issues(result.error) });
    } catch (error) {
      results.push({ valid: false, issues: [`throws: ${error.message}`] });
    }
  }
  process.stdout.write(JSON.stringify(results));
})();
