// The studio as a user feels it, in headless Chromium: for each document, the time from clicking
// Open to the operations and endpoints drawn, and from clicking Apply on an endpoint edit to the
// page re-validated and redrawn, as the page itself measures it (the driver's own round trips
// left out). Runs alternate between the documents; medians reported.
// Usage (bench/run.sh studio does this): NODE_PATH=tests/interop/node_modules node bench/studio.js URL RUNS FILE...
'use strict';
const { chromium } = require('playwright-core');

const [url, runsText, ...files] = process.argv.slice(2);
const runs = Number(runsText) || 5;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(120000);
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('#file-select option').length > 0);
  const times = Object.fromEntries(files.map((f) => [f, { open: [], edit: [] }]));
  for (let run = 0; run < runs; run += 1) {
    for (const file of files) {
      await page.selectOption('#file-select', file);
      await page.click('#open-file');
      await page.waitForFunction((name) => document.querySelector('#openapi-name').textContent === name
        && document.querySelectorAll('#endpoints .card').length > 0 && document.querySelector('#status').textContent === 'done', file);
      times[file].open.push(Number(await page.evaluate(() => document.body.dataset.lastOpenMs)));
      // An edit of the first endpoint: a reserved value set, the whole draft re-validated and redrawn.
      const card = page.locator('#endpoints .card').first();
      if (!(await card.evaluate((c) => c.open))) await card.locator('summary').click();
      await card.locator('[data-reserved="_times"]').fill(String(1000 + run));
      await card.locator('[data-action="apply"]').click();
      await page.waitForFunction((value) => {
        const input = document.querySelector('#endpoints .card [data-reserved="_times"]');
        return input && input.value === value && document.querySelector('#status').textContent === 'done';
      }, String(1000 + run));
      times[file].edit.push(Number(await page.evaluate(() => document.body.dataset.lastEditMs)));
    }
  }
  for (const file of files) {
    const t = times[file];
    console.log(`${file}: open ${median(t.open).toFixed(0)} ms, edit ${median(t.edit).toFixed(0)} ms (in the page, request sent to redrawn; medians of ${runs})`);
  }
  await browser.close();
})().catch((error) => { console.error(error); process.exit(1); });
