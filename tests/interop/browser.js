// Debian's Chromium, headless, as the studio's browser tests and bench/studio.js drive it: as root
// on a machine with a closed network, so no sandbox and no background connections.
'use strict';
const { chromium } = require('playwright-core');

function launch(more = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...more],
  });
}

module.exports = { launch };
