// Drives `ois studio` on a large document (GitHub's API, 4 MB, 874 operations) in headless
// Chromium: the operations drawn a page at a time (every one, page after page), filtered; an
// endpoint found among hundreds, refined, the refinement undone; the text editor fetched on demand. Screenshots to the
// folder named; prints {"steps": [...], "consoleErrors": [...], "operations": N}; throws on failure.
// Usage: node studio-large.js STUDIO_URL SCREENSHOT_DIR
'use strict';
const { launch, testPage } = require('./browser');

const [url, shots] = process.argv.slice(2);

(async () => {
  const browser = await launch([]);
  const { page, steps, consoleErrors, shot, failed, noNullShown } =
    await testPage(browser, { shots, prefix: 'large-', timeout: 60000 });
  try {
    page.on('dialog', (dialog) => dialog.accept());
    await page.goto(url);
    // The first page of operations is drawn, then each next one when asked, to the last.
    await page.waitForSelector('#operations tbody tr[data-operation]');
    const total = Number((await page.locator('#convert-summary p').textContent()).split(' ')[0]);
    await page.waitForFunction(() => document.querySelectorAll('#operations tbody tr[data-operation]').length === 200
      && document.querySelector('#operations tbody tr.more'));
    while (await page.locator('#operations tbody tr.more').count()) {
      const before = await page.locator('#operations tbody tr[data-operation]').count();
      await page.locator('#operations tbody tr.more button').click();
      // The next page is drawn a chunk at a time, its button after its last chunk: wait for all
      // of it (counting rows that grew by one chunk, then asking for the button, raced the rest).
      await page.waitForFunction((n) => document.querySelectorAll('#operations tbody tr[data-operation]').length === n,
        Math.min(before + 200, total));
    }
    const operations = await page.locator('#operations tbody tr[data-operation]').count();
    if (total < 800 || operations !== total) throw new Error(`${operations} of ${total} operations drawn`);
    // The filter finds among all of them, drawn or not, and says how many it found.
    await page.fill('#op-filter', 'delete /user/');
    await page.waitForFunction(() => /^\d+ of \d+$/.test(document.querySelector('#op-count').textContent));
    const filtered = await page.locator('#operations tbody tr[data-operation]').evaluateAll((rows) => rows.map((r) => r.dataset.operation));
    if (!filtered.length || filtered.some((label) => !label.toLowerCase().includes('delete /user/'))) throw new Error(`filtered: ${filtered}`);
    await page.fill('#op-filter', '');
    // The table fits its section: no column pushed off the page.
    const widths = await page.evaluate(() => [document.querySelector('#operations').scrollWidth, document.querySelector('#convert-section').clientWidth]);
    if (widths[0] > widths[1] + 2) throw new Error(`the operations table is ${widths[0]} px wide in a ${widths[1]} px section`);
    // A row's messages are drawn when opened.
    const said = page.locator('#operations details.said').first();
    await said.locator('summary').click();
    await said.locator('.diag').first().waitFor();
    await shot('opened');

    // Find an endpoint among hundreds, refine it, undo.
    await page.waitForFunction(() => document.querySelector('#endpoint-count').textContent.endsWith('endpoint(s)'));
    const endpoints = Number((await page.locator('#endpoint-count').textContent()).split(' ')[0]);
    if (endpoints < 500 || (await page.locator('#endpoints .card').count()) !== 200) throw new Error('not the first page of endpoints');
    // A card's problems are asked for when it opens: as many as its badge says, beside their fields.
    const flagged = page.locator('#endpoints .card:has(.badge)').first();
    const badge = Number((await flagged.locator('.badge').textContent()).split(' ')[0]);
    await flagged.locator(':scope > summary').click();
    await flagged.locator('.form .diag').first().waitFor();
    const drawn = await flagged.locator('.form .field-problems .diag').count();
    if (!badge || drawn !== badge) throw new Error(`a card with ${badge} problem(s) drew ${drawn}`);
    await flagged.locator(':scope > summary').click();
    await page.fill('#endpoint-filter', 'meta root');
    await page.waitForFunction((n) => document.querySelector('#endpoint-count').textContent === `1 of ${n}`
      && document.querySelectorAll('#endpoints .card').length === 1, endpoints);
    const card = page.locator('#endpoints .card:not([hidden])').first();
    const name = await card.getAttribute('data-endpoint');
    await card.locator('summary').click();
    await card.locator('[data-field="rename"]').fill('rootOfMeta');
    await card.locator('[data-field="rename"]').press('Enter');
    await page.locator('#endpoints .card[data-endpoint="rootOfMeta"]').waitFor({ state: 'attached' });
    await page.locator(`#operations [data-endpoint="${name}"].gone`).waitFor();
    await shot('refined');
    // An edit that renames nothing: only that endpoint's card is drawn again; the rest are kept.
    const rootCard = page.locator('#endpoints .card[data-endpoint="rootOfMeta"]');
    await page.fill('#endpoint-filter', '');
    await page.waitForFunction(() => document.querySelectorAll('#endpoints .card').length === 200);
    const other = await page.locator('#endpoints .card').nth(5).getAttribute('data-endpoint');
    await page.evaluate(() => { document.querySelectorAll('#endpoints .card')[5].dataset.kept = 'yes'; });
    if (!(await rootCard.evaluate((c) => c.open))) await rootCard.locator('summary').click();
    await rootCard.locator('[data-reserved="_times"]').fill('1000');
    await rootCard.locator('[data-reserved="_times"]').press('Enter');
    await page.waitForFunction(() => {
      const input = document.querySelector('#endpoints .card[data-endpoint="rootOfMeta"] [data-reserved="_times"]');
      return input && input.value === '1000';
    });
    if (!(await page.locator(`#endpoints .card[data-endpoint="${other}"]`).evaluate((c) => c.dataset.kept === 'yes'))) {
      throw new Error('an endpoint the edit did not change was drawn again');
    }
    await page.click('#undo');
    await page.locator('#endpoints .card[data-endpoint="rootOfMeta"]').waitFor({ state: 'attached' });
    await page.click('#undo');
    await page.locator(`#endpoints .card[data-endpoint="${name}"]`).waitFor();
    await page.fill('#endpoint-filter', '');
    // The text editor gets the draft's text when opened (it is not in every answer).
    await page.locator('#text-details summary').click();
    await page.waitForFunction(() => document.querySelector('#draft-text').value.startsWith('{'));
    await shot('text');
    await noNullShown();
    process.stdout.write(JSON.stringify({ steps, consoleErrors, operations }));
  } catch (error) {
    await failed();
    throw error;
  } finally {
    await browser.close();
  }
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
