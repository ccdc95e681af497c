// Reads a JSON array of YAML texts from the file named on the command line and prints what
// js-yaml (the YAML reader of the node's tooling) makes of each, as JSON: {value} or {error}.
// Dates and other non-JSON values are marked so they never compare equal to a string.
'use strict';
const fs = require('fs');
const yaml = require('js-yaml');

const texts = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const mark = (value) => {
  if (value instanceof Date) return { '!date': value.toISOString() };
  if (typeof value === 'number' && !Number.isFinite(value)) return { '!number': String(value) };
  if (Array.isArray(value)) return value.map(mark);
  if (value && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value)) out[key] = mark(value[key]);
    return out;
  }
  return value;
};
const results = texts.map((text) => {
  try {
    return { value: mark(yaml.load(text)) };
  } catch (error) {
    return { error: String(error.message) };
  }
});
process.stdout.write(JSON.stringify(results));
