// Reads {schemas: {name: schema}, cases: [{id, schema, document}]} from the file named on the
// command line and prints, for each case, the verdict of ajv 8 (JSON Schema draft 2020-12):
// [{id, valid, errors}]. Compiling is strict, so a schema with an unknown keyword fails here.
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv-8/dist/2020').default;

const { schemas, cases } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// `format` is an annotation in 2020-12; `uri` is named so strict mode knows it.
const ajv = new Ajv2020({ allErrors: true, strictTypes: false, formats: { uri: true } });
const validators = {};
for (const [name, schema] of Object.entries(schemas)) {
  validators[name] = ajv.compile(schema);
}
const results = cases.map(({ id, schema, document }) => {
  const validate = validators[schema];
  const valid = validate(document);
  const errors = valid ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message}`);
  return { id, valid, errors };
});
process.stdout.write(JSON.stringify(results));
