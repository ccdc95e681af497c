// Debian's Chromium, headless, as the studio's browser tests and bench/studio.js drive it: as root
// on a machine with a closed network, so no sandbox and no background connections.
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

function launch(more = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...more],
  });
}

// A page as the browser tests drive it: 1280 × 1000, every console error and page error kept in
// `consoleErrors`; `shot(name)` screenshots a step into `shots` (numbered after `prefix`, listed in
// `steps`), `failed()` what the page showed when a test failed; `noNullShown()` throws when the
// page shows "null" or "undefined" as text.
async function testPage(browser, { shots, prefix = '', timeout, fullPage = false }) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(timeout);
  const steps = [];
  const consoleErrors = [];
  page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  const shot = async (name) => {
    await page.screenshot({ path: path.join(shots, `${prefix}${String(steps.length + 1).padStart(2, '0')}-${name}.png`), fullPage });
    steps.push(name);
  };
  const failed = () => page.screenshot({ path: path.join(shots, `${prefix}failed.png`), fullPage }).catch(() => {});
  const noNullShown = async () => {
    if (/^(null|undefined)$/m.test(await page.locator('main').innerText())) throw new Error('a "null" shown as text');
  };
  return { page, steps, consoleErrors, shot, failed, noNullShown };
}

module.exports = { launch, testPage };
