// Validates each SARIF log of the JSON array in the file named on the command line against the
// published SARIF 2.1.0 JSON Schema (rtm.5, as @microsoft/jest-sarif ships it) with ajv, a real
// JSON Schema validator. Prints [{valid, errors: [...]}].
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');

const schemaPath = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json');
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv({ schemaId: 'id', allErrors: true, meta: false });
ajv.addMetaSchema(require('ajv/lib/refs/json-schema-draft-04.json'));
const validate = ajv.compile(schema);

const logs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(
  JSON.stringify(
    logs.map((log) => {
      const valid = validate(log);
      return { valid, errors: valid ? [] : validate.errors.map((e) => `${e.dataPath} ${e.message}`) };
    })
  )
);
