// Reads a JSON array of {id, ois} from the file named on the command line and prints, for each,
// the verdict of the real @api3/ois 2.3.2 and 3.0.0: {id, "2.3.2": {valid, issues}, "3.0.0": ...}.
'use strict';
const fs = require('fs');
const validators = { '2.3.2': require('ois-2.3.2'), '3.0.0': require('ois-3.0.0') };

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const results = cases.map(({ id, ois }) => {
  const result = { id };
  for (const [version, lib] of Object.entries(validators)) {
    const parsed = lib.oisSchema.safeParse(ois);
    result[version] = {
      valid: parsed.success,
      issues: parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    };
  }
  return result;
});
process.stdout.write(JSON.stringify(results));
