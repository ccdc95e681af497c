// Reads a JSON array of secrets.env texts from the file named on the command line and prints, for
// each, dotenv.parse's result as [name, value] pairs in the object's order.
'use strict';
const fs = require('fs');
const dotenv = require('dotenv');

const texts = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(JSON.stringify(texts.map((text) => Object.entries(dotenv.parse(Buffer.from(text, 'utf8'))))));
