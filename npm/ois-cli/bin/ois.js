#!/usr/bin/env node
'use strict';
// `ois` from npm: runs the platform's binary with the same arguments, standard streams and exit code.

const { spawnSync } = require('node:child_process');
const { binaryPath } = require('../lib/binary.cjs');

let binary;
try {
  binary = binaryPath();
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
if (result.error) {
  process.stderr.write(`error: could not run ${binary}: ${result.error.message}\n`);
  process.exit(2);
}
if (result.signal) {
  // Ended by a signal: end the same way, so a shell sees what a script would.
  process.kill(process.pid, result.signal);
}
process.exit(result.status === null ? 1 : result.status);
