// The studio as a user feels it, in headless Chromium: for each document, the time from the click
// (Open, an endpoint's Apply, Undo, Preview the request, a search typed) to the first frame painted after the page
// redrew, on the browser's clock, and the longest task the page ran meanwhile (a freeze: nothing
// else can happen in it). Runs alternate between the documents; medians reported, with the page's
// JS heap after the runs. The studio process's peak memory is bench/run.sh's to print.
// Usage (bench/run.sh studio does this): NODE_PATH=tests/interop/node_modules node bench/studio.js URL RUNS FILE...
'use strict';
const { launch } = require('../tests/interop/browser');

const [url, runsText, ...files] = process.argv.slice(2);
const runs = Number(runsText) || 5;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

(async () => {
  const browser = await launch(['--enable-precise-memory-info']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(120000);
  // Opening another document over an unsaved draft asks first: the bench says yes.
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('#file-select option').length > 0);
  // The click's time and every long task, on the page's clock.
  await page.evaluate(() => {
    window.bench = { clickAt: 0, tasks: [] };
    const mark = () => { window.bench.clickAt = performance.now(); window.bench.tasks = []; };
    document.addEventListener('click', mark, true);
    document.addEventListener('input', mark, true);
    new PerformanceObserver((list) => { window.bench.tasks.push(...list.getEntries().map((e) => [e.startTime, e.duration])); })
      .observe({ type: 'longtask', buffered: false });
  });
  // Felt: click to the first frame painted after the page redrew; the longest task in between.
  const felt = async (kind) => page.evaluate(async (kind) => {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const painted = Number(document.body.dataset[`last${kind}PaintAt`]);
    const { clickAt, tasks } = window.bench;
    const inside = tasks.filter(([start]) => start >= clickAt - 1 && start <= painted);
    // When the studio's answer had arrived: the rest of the felt time is the page's.
    const answers = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/') && e.startTime >= clickAt - 1);
    const answered = answers.length ? Math.max(...answers.map((e) => e.responseEnd)) - clickAt : 0;
    performance.clearResourceTimings();
    return { felt: painted - clickAt, freeze: Math.max(0, ...inside.map(([, d]) => d)), answered };
  }, kind);
  const times = Object.fromEntries(files.map((f) => [f, { open: [], edit: [], undo: [], preview: [], find: [] }]));
  for (let run = 0; run < runs; run += 1) {
    for (const file of files) {
      await page.selectOption('#file-select', file);
      await page.click('#open-file');
      await page.waitForFunction((name) => document.querySelector('#openapi-name').textContent === name
        && document.querySelectorAll('#endpoints .card').length > 0 && document.querySelector('#status').textContent === 'done', file);
      times[file].open.push(await felt('Open'));
      // An edit of the first endpoint: a reserved value set, the draft re-validated and redrawn.
      const card = page.locator('#endpoints .card').first();
      if (!(await card.evaluate((c) => c.open))) await card.locator('summary').click();
      await card.locator('[data-reserved="_times"]').fill(String(1000 + run));
      await card.locator('[data-action="apply"]').click();
      await page.waitForFunction((value) => {
        const input = document.querySelector('#endpoints .card [data-reserved="_times"]');
        return input && input.value === value && document.querySelector('#status').textContent === 'done';
      }, String(1000 + run));
      times[file].edit.push(await felt('Edit'));
      await page.click('#undo');
      await page.waitForFunction(() => document.querySelector('#undo').disabled && document.querySelector('#status').textContent === 'done');
      times[file].undo.push(await felt('Undo'));
      // The node's request of the first endpoint, as the page previews it.
      const previewed = await page.evaluate(() => document.body.dataset.lastPreviewPaintAt || '');
      // A long list of endpoints is filled when first used, as a user's click fills it.
      await page.focus('#try-endpoint');
      await page.selectOption('#try-endpoint', { index: 0 });
      for (const input of await page.locator('#try-params input').all()) await input.fill('1');
      await page.click('#preview');
      await page.waitForFunction((before) => (document.body.dataset.lastPreviewPaintAt || '') !== before
        && document.querySelector('#status').textContent === 'done', previewed);
      times[file].preview.push(await felt('Preview'));
      await page.fill('#endpoint-filter', 'get');
      times[file].find.push(await felt('Find'));
      await page.fill('#endpoint-filter', '');
    }
  }
  const heap = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize : 0));
  for (const file of files) {
    const t = times[file];
    const show = (list) => `${median(list.map((x) => x.felt)).toFixed(0)} ms (answered at ${median(list.map((x) => x.answered)).toFixed(0)}, longest task ${median(list.map((x) => x.freeze)).toFixed(0)} ms)`;
    console.log(`${file}: open ${show(t.open)}, edit ${show(t.edit)}, undo ${show(t.undo)}, preview ${show(t.preview)}, find ${show(t.find)}`);
  }
  console.log(`page JS heap after the runs: ${(heap / 1048576).toFixed(0)} MB; felt = click to the frame painted after the redraw, medians of ${runs}`);
  await browser.close();
})().catch((error) => { console.error(error); process.exit(1); });
