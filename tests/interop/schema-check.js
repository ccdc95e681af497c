// Checks values against JSON Schemas with ajv 8 (draft-07), as an OpenAPI document writes them:
// unknown keywords (nullable, example, discriminator, xml) and formats are not checked.
// Input (the file named on the command line): [{document, defs: {components, definitions},
// cases: [{id, schema, body}]}], each case's $refs resolving in its document's defs.
// Output: [{id, valid, errors}], valid null when the schema itself could not be compiled.
'use strict';
const fs = require('fs');
const Ajv = require('ajv-8');

// `#/components/schemas/X` (or `#/definitions/X`) in a document's defs.
function resolve(defs, ref) {
  return ref.replace(/^#\//, '').split('/').reduce((at, key) => (at == null ? undefined : at[key]), defs);
}

const documents = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = [];
for (const doc of documents) {
  for (const c of doc.cases) {
    const id = `${doc.document} ${c.id}`;
    try {
      const ajv = new Ajv({ strict: false, validateFormats: false, validateSchema: false });
      const schema = { ...c.schema };
      if (doc.defs.components) schema.components = doc.defs.components;
      if (doc.defs.definitions) schema.definitions = doc.defs.definitions;
      const validate = ajv.compile(schema);
      const valid = validate(c.body);
      // A oneOf whose alternatives both accept the body is the document's ambiguity, not the
      // body's fault: said apart.
      const top = schema.oneOf || (schema.$ref && resolve(doc.defs, schema.$ref)?.oneOf);
      if (!valid && Array.isArray(top)) {
        const accepting = top.filter((alternative) => {
          const one = { ...alternative, components: doc.defs.components, definitions: doc.defs.definitions };
          return new Ajv({ strict: false, validateFormats: false, validateSchema: false }).compile(one)(c.body);
        });
        if (accepting.length > 1) {
          out.push({ id, valid: 'ambiguous', errors: `${accepting.length} alternatives of its oneOf accept it` });
          continue;
        }
      }
      out.push({ id, valid, errors: valid ? null : ajv.errorsText(validate.errors) });
    } catch (error) {
      out.push({ id, valid: null, errors: error.message });
    }
  }
}
process.stdout.write(JSON.stringify(out));
