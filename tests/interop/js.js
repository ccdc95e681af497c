// JavaScript's own answers for the semantics src/request/js.rs copies: String(number) for each
// number literal, and JSON.stringify(JSON.parse(text)) for each JSON text.
// Input (file named on the command line): {"numbers": ["1e21", ...], "texts": ["{\"b\":1,\"2\":0}", ...]}
'use strict';
const fs = require('fs');

const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(JSON.stringify({
  numbers: input.numbers.map((literal) => String(JSON.parse(literal))),
  texts: input.texts.map((text) => JSON.stringify(JSON.parse(text))),
}));
