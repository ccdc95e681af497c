// Drives `ois studio` in headless Chromium as an integrator would: open the coins sample, pick two
// operations, refine one into a feed endpoint, preview, call the loopback API, pick `_path` by
// clicking, add two feeds, build and save the Airnode Feed config. A screenshot of each step goes
// to the folder named; prints {"steps": [...], "consoleErrors": [...], "accessibility": [the
// axe-core WCAG 2 A/AA violations of the page built], "keysToCall": keys from the page's top to
// Call the API}; throws on any failure.
// Usage: node studio.js STUDIO_URL API_URL API_KEY SCREENSHOT_DIR SIGNED_API_URL
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, testPage } = require('./browser');

const [url, api, apiKey, shots, signedApi] = process.argv.slice(2);

(async () => {
  const browser = await launch([]);
  const { page, steps, consoleErrors, shot, failed, noNullShown } =
    await testPage(browser, { shots, timeout: 15000, fullPage: true });
  const accessibility = [];
  try {
    const status = () => page.locator('#status').textContent();

    // 1. The sample opened from the command line: its operations, what was kept and why not.
    await page.goto(url);
    await page.waitForSelector('#operations tbody tr[data-operation="GET /simple/price"]');
    await page.locator('#operations tbody tr[data-operation="PUT /coins/{id}"]').getByText('CNV030').waitFor();
    // The report's groups draw their diagnostics when opened.
    const group = page.locator('#convert-summary details.group').first();
    if (await group.locator('.diag').count()) throw new Error('a closed group drew its diagnostics');
    await group.locator('summary').click();
    await group.locator('.diag').first().waitFor();
    await shot('opened');

    // 2. Pick two operations (filter box, then checkboxes) and keep them.
    for (const row of await page.locator('#operations tbody tr').all()) {
      const operation = await row.getAttribute('data-operation');
      const box = row.locator('input[type=checkbox]');
      if (await box.isEnabled()) await box.setChecked(operation === 'GET /simple/price' || operation === 'GET /coins/{id}');
    }
    await page.fill('#op-filter', 'simple');
    await page.locator('#operations tbody tr[data-operation="GET /coins/{id}"]').waitFor({ state: 'hidden' });
    await page.fill('#op-filter', '');
    await page.click('#keep-picked');
    await page.waitForFunction(() => document.querySelectorAll('#endpoints .card').length === 2);
    await shot('picked');

    // 3. Refine simplePrice into a feed endpoint: its name, the encoding, a parameter dropped.
    const card = page.locator('.card[data-endpoint="simplePrice"]');
    await card.locator('summary').click();
    await card.locator('[data-field="rename"]').fill('price');
    await card.locator('[data-reserved="_type"]').fill('int256');
    // A Feed ignores what only Airnode's request–response protocol reads: not offered.
    if (await card.locator('[data-reserved="_gasPrice"]').count()) throw new Error('_gasPrice offered for a Feed');
    await card.locator('select[data-param="precision"]').selectOption('drop');
    await card.locator('[data-action="apply"]').click();
    const price = page.locator('.card[data-endpoint="price"]');
    await price.waitFor();
    // A rule broken is refused beside the endpoint, and nothing changes.
    await price.locator('[data-reserved="_times"]').fill('not a number');
    await price.locator('[data-action="apply"]').click();
    // ... beside the reserved parameters, the field it is about marked.
    await price.locator('[data-part="reserved"] .diag.error').first().waitFor();
    if (!(await price.locator('[data-reserved="_times"]').evaluate((e) => e.classList.contains('field-problem')))) {
      throw new Error('the refused field is not marked');
    }
    await price.locator('[data-reserved="_times"]').fill('');
    // The operations table says the endpoint it made is now another's name.
    await page.locator('#operations [data-endpoint="simplePrice"].gone').waitFor();
    // Finding an endpoint by name.
    await page.fill('#endpoint-filter', 'coins');
    await price.waitFor({ state: 'hidden' });
    if ((await page.locator('#endpoint-count').textContent()) !== '1 of 2') throw new Error('the endpoint count');
    await page.fill('#endpoint-filter', '');
    await shot('refined');

    // 4. The node's request for given parameters, sent to the loopback API instead of the OIS's.
    await page.selectOption('#try-endpoint', 'price');
    await page.fill('#try-params [data-param="ids"]', 'bitcoin');
    await page.fill('#try-params [data-param="vs_currencies"]', 'usd');
    await page.fill('#try-server', api);
    await page.click('#preview');
    await page.waitForFunction((expected) => (document.querySelector('[data-testid="request-line"]') || {}).textContent
      === expected, `GET ${api}/simple/price?ids=bitcoin&vs_currencies=usd`);
    await shot('previewed');
    // The keyboard: the first stop is a link that skips to the call, and it lands there.
    const first = await page.evaluate(() => document.querySelector('a[href], button, input, select, textarea, summary').className);
    if (first !== 'skip') throw new Error(`the first keyboard stop is ${first}, not the skip link`);
    await page.locator('a.skip').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'try-title');

    // 5. The real call, with the API key typed into the page (held in memory, never shown).
    await page.fill('[data-secret]', apiKey);
    await page.click('#hold-secrets');
    await page.waitForFunction(() => document.querySelector('#secrets-held').textContent.startsWith('held: '));
    await page.click('#call');
    await page.waitForSelector('[data-testid="picker"] .leaf[data-path="bitcoin.usd"]');
    // The API answered 200: nothing was refused, the value is to be picked.
    if ((await status()).startsWith('refused')) throw new Error(`a 200 answer labelled: ${await status()}`);
    await shot('called');

    // 6. Click the value: _path, _type and _times set, and the value encoded from the answer.
    await page.click('.leaf[data-path="bitcoin.usd"]');
    await page.waitForSelector('[data-testid="encoded"]');
    const encoded = await page.locator('[data-testid="encoded"]').textContent();
    if (!/^0x[0-9a-f]{64}$/.test(encoded)) throw new Error(`encoded value: ${encoded}`);
    const shownValue = await page.locator('[data-testid="value"]').textContent();
    if (shownValue.includes('[') || shownValue.includes('"')) throw new Error(`the value shown as JSON: ${shownValue}`);
    // The value picked is in view, not above it.
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-testid="value"]').getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }, null, { timeout: 2000 }).catch(() => { throw new Error('the picked value is out of view'); });
    await shot('picked-value');
    // Another endpoint's request fields start empty: values typed for one are not another's.
    await page.selectOption('#try-endpoint', 'coinsId');
    for (const input of await page.locator('#try-params input').all()) {
      if (await input.inputValue()) throw new Error('a field kept the previous endpoint\'s value');
    }
    await page.selectOption('#try-endpoint', 'price');
    // The picture docs/studio.md shows: the request, the answer and the value picked from it.
    await page.locator('#try-section').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('#try-title').scrollIntoView());
    await page.screenshot({ path: path.join(shots, 'docs-studio.png') });

    // 6b. Feeds by name: two feeds of one operation, checked against the document, made one call;
    // one given the wrong value on purpose, then picked from a real call of it.
    const addFeed = async (name, params, value) => {
      await page.fill('#bn-name', name);
      await page.fill('#bn-operation', 'simplePrice');
      await page.fill('#bn-params', params);
      await page.fill('#bn-value', value);
      await page.click('#bn-add');
    };
    await addFeed('BTC/USD', 'ids=bitcoin, vs_currencies=usd', 'bitcoin.usd');
    await page.locator('#by-name-table tr[data-feed="BTC/USD"]').waitFor();
    await addFeed('BTC/EUR', 'ids=bitcoin, vs_currencies=eur', 'bitcoin.usd');
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"]').waitFor();
    await addFeed('SOL/USD', 'coin=solana', 'solana.usd');
    await page.locator('#by-name-problems .diag.error').getByText('has no parameter "coin"').waitFor();
    // Made one call while both read bitcoin.usd: refused, naming them (both would publish it).
    const checkBoth = async () => {
      for (const name of ['BTC/USD', 'BTC/EUR']) await page.locator(`#by-name-table tr[data-feed="${name}"] input`).check();
    };
    await checkBoth();
    await page.click('#bn-batch');
    await page.locator('#by-name-problems .diag.error').getByText('would read the same value').waitFor();
    // The wrong value picked right from a real call of it; then the batch goes through.
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"] button', { hasText: 'try' }).click();
    await page.click('#call');
    await page.locator('[data-testid="picker"] .leaf[data-path="bitcoin.eur"]').click();
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"]').getByText('bitcoin.eur').waitFor();
    await checkBoth();
    await page.click('#bn-batch');
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"]').getByText('vs_currencies=usd,eur').waitFor();
    await shot('feeds-by-name');

    // 6b'. The last calls, newest first, each made again by one button.
    await page.locator('[data-testid="past-call"]').nth(1).waitFor();
    const before = await page.locator('[data-testid="past-call"]').count();
    const newest = await page.locator('[data-testid="past-call"] code').first().textContent();
    if (!newest.includes('name=BTC/EUR')) throw new Error(`the newest call listed is ${newest}`);
    await page.locator('[data-testid="past-call"]').first().getByRole('button', { name: 'call again' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="past-call"]').length === n + 1, before);
    const remade = await page.locator('[data-testid="past-call"]').first().textContent();
    if (!remade.includes('→ 200')) throw new Error(`the call made again: ${remade}`);
    await shot('past-calls');

    // 6b''. From the top of the page to *Call the API* by keyboard alone: the skip link, then
    // the call's fields. Counted, and kept short.
    // A click at the page's top corner puts the keyboard's starting point there, as a fresh load does.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.click(1, 1);
    let keysToCall = 0;
    while (keysToCall < 60) {
      const onSkip = await page.evaluate(() => document.activeElement && document.activeElement.className === 'skip');
      await page.keyboard.press(onSkip ? 'Enter' : 'Tab');
      keysToCall += 1;
      if (await page.evaluate(() => document.activeElement && document.activeElement.id === 'call')) break;
    }
    if (keysToCall > 16) throw new Error(`${keysToCall} keys from the top of the page to Call the API`);

    // 6c. Undo: an endpoint removed comes back.
    const coins = page.locator('.card[data-endpoint="coinsId"]');
    await coins.locator('summary').click();
    await coins.locator('[data-action="remove"]').click();
    await coins.waitFor({ state: 'detached' });
    await page.click('#undo');
    await page.locator('.card[data-endpoint="coinsId"]').waitFor();
    // Redo (the keys outside a field) removes it again, and undo brings it back once more.
    await page.locator('#redo:not([disabled])').waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Control+Shift+Z');
    await page.locator('.card[data-endpoint="coinsId"]').waitFor({ state: 'detached' });
    await page.click('#undo');
    await page.locator('.card[data-endpoint="coinsId"]').waitFor();
    await shot('undone');

    // 7. Two feeds, every feed by name, a signed API, the mnemonic held, the config built with
    // its IDs and the fetch interval asked for.
    await page.selectOption('#feed-endpoint', 'price');
    // A typed field a parameter: string32 is chosen unless another type is.
    await page.fill('[data-value="ids"]', 'bitcoin');
    await page.fill('[data-value="vs_currencies"]', 'usd');
    await page.click('#add-feed');
    await page.fill('[data-value="ids"]', 'bitcoin');
    await page.fill('[data-value="vs_currencies"]', 'eur');
    await page.click('#add-feed');
    await page.locator('#feed-list li[data-feed="price:ids=string32:bitcoin,vs_currencies=string32:eur"]').waitFor();
    await page.fill('#signed-url', signedApi);
    // A staging config: its OIS call the loopback API, as the real Feed will run it.
    await page.fill('#build-server', api);
    await page.check('#build-all-feeds');
    await page.fill('#build-interval', '7');
    await page.fill('#mnemonic', 'test test test test test test test test test test test junk');
    await page.click('#hold-mnemonic');
    await page.waitForFunction(() => document.querySelector('#mnemonic-held').textContent === 'held');
    await page.click('#build');
    await page.waitForFunction(() => document.querySelectorAll('#ids-table tbody tr').length === 4);
    if ((await page.locator('#ids-table').innerText()).includes('hold ')) throw new Error('no beacon IDs with the mnemonic held');
    if (!(await page.locator('#config-text').textContent()).includes('"fetchInterval": 7')) throw new Error('the fetch interval');
    // At 1280 px the IDs stay inside their section, and no box of the page runs over another.
    const overflows = await page.evaluate(() => {
      const section = document.querySelector('#feeds-section').getBoundingClientRect();
      const table = document.querySelector('#ids-table').getBoundingClientRect();
      return table.right > section.right + 1;
    });
    if (overflows) throw new Error('the IDs table runs out of its section at 1280 px');
    await shot('built');
    // Is it live? Nothing runs yet at the Signed API's address: the page says so, beside the check.
    await page.fill('#live-token', 'read-t0ken-page');
    await page.click('#live-check');
    await page.locator('#live-problems .diag.error').first().waitFor();
    if ((await page.content()).includes('read-t0ken-page')) throw new Error('the read token is in the page');
    // An accessibility scan (axe-core, WCAG 2 A and AA) of the page with every section shown.
    await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const scanned = await page.evaluate(async () => {
      const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
    });
    accessibility.push(...scanned);

    // 7b. A reload keeps the feeds, the last answer (a tree, the picked value marked) and the IDs.
    await page.reload();
    await page.waitForSelector('#endpoints .card');
    await page.waitForFunction(() => document.querySelectorAll('#feed-list li').length === 2
      && document.querySelectorAll('#ids-table tbody tr').length === 4);
    await page.locator('[data-testid="answer-tree"] [data-tree-path="bitcoin.eur"]').waitFor();
    await page.locator('[data-testid="answer-tree"] > button', { hasText: 'copy' }).waitFor();
    await page.locator('[data-testid="answer-tree"] [data-tree-path="bitcoin.usd"] button').click();
    await page.locator('[data-testid="answer-tree"] [data-tree-path="bitcoin.usd"].picked').waitFor();
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"]').getByText('bitcoin.usd').waitFor();
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"] button', { hasText: 'edit' }).click();
    await page.fill('#bn-value', 'bitcoin.eur');
    await page.keyboard.press('Enter');
    await page.locator('#by-name-table tr[data-feed="BTC/EUR"]').getByText('bitcoin.eur').waitFor();
    await shot('reloaded');

    // 8. Save the config with its secrets template, the IDs, and the OIS.
    await page.click('#save-config');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('saved config.json'));
    await page.click('#save-ids');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('saved ids.json'));
    // Saved again without replacing: refused beside the Save buttons, not under Build.
    await page.click('#save-config');
    await page.locator('#config-save-problems .diag.error').first().waitFor();
    if (await page.locator('#build-problems .diag.error').count()) throw new Error('a refused save shown under Build');
    // A file that exists is refused beside the Save button, named as the page names it.
    await page.fill('#save-path', 'coins.yaml');
    await page.click('#save-ois');
    const refused = page.locator('#save-problems .diag.error');
    await refused.first().waitFor();
    if ((await refused.first().textContent()).includes('/tmp/')) throw new Error('an absolute path in the refusal');
    await page.fill('#save-path', 'coins.ois.json');
    await page.click('#save-ois');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('saved coins.ois.json'));
    await shot('saved');

    // 12. A document whose server is relative: no dead end. It stays open with its error, the
    // settings it asks for open beside it; the Base URL set there converts it.
    page.on('dialog', (dialog) => dialog.accept());
    await page.locator('#open-section details summary').click();
    await page.fill('#paste-name', 'weather.json');
    await page.fill('#paste-text', JSON.stringify({
      openapi: '3.0.3', info: { title: 'Weather', version: '1.0.0' }, servers: [{ url: '/api/v1' }],
      paths: { '/now': { get: { operationId: 'now', responses: { 200: { description: 'ok' } } } } },
    }));
    await page.click('#open-paste');
    await page.locator('#convert-summary .diag.error').first().waitFor();
    await page.locator('#convert-summary [data-code="CNV002"]').first().waitFor();
    if (!(await page.locator('#convert-options').evaluate((e) => e.open))) throw new Error('the settings the error asks for are closed');
    if (!(await page.locator('#opt-base-url').isVisible())) throw new Error('Base URL is not in view');
    await page.fill('#opt-base-url', 'https://weather.example');
    await page.click('#reconvert');
    await page.waitForFunction(() => document.querySelectorAll('#endpoints .card').length === 1);
    await page.locator('.card[data-endpoint="now"]').waitFor();
    await shot('relative-fixed');

    // 13. Two tabs: the second renames the endpoint; the first, editing what it drew, is shown the
    // draft as it is now instead of a refusal about an endpoint that is gone.
    const second = await browser.newPage();
    second.setDefaultTimeout(30000);
    // Its document is enough: the cards come from the studio's answer, waited for below (on a
    // loaded machine the page's load event once took more than 30 s to come).
    await second.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    const inSecond = second.locator('.card[data-endpoint="now"]');
    await inSecond.locator('summary').click();
    await inSecond.locator('[data-field="rename"]').fill('current');
    await inSecond.locator('[data-action="apply"]').click();
    await second.locator('.card[data-endpoint="current"]').waitFor();
    await second.close();
    const inFirst = page.locator('.card[data-endpoint="now"]');
    if (!(await inFirst.evaluate((card) => card.open))) await inFirst.locator('summary').click();
    await inFirst.locator('[data-reserved="_type"]').fill('int256');
    await inFirst.locator('[data-action="apply"]').click();
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('the draft changed in another tab'));
    await page.locator('.card[data-endpoint="current"]').waitFor();
    await shot('two-tabs');

    // Opening another document: an edited draft is asked about, a fresh conversion nobody changed
    // is not (it is made again from its document).
    let dialogs = 0;
    page.on('dialog', () => { dialogs += 1; });
    await page.fill('#paste-text', JSON.stringify({
      openapi: '3.0.3', info: { title: 'Weather', version: '1.0.0' }, servers: [{ url: 'https://weather.example/api/v1' }],
      paths: { '/now': { get: { operationId: 'now', parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } } },
    }));
    await page.click('#open-paste');
    await page.locator('.card[data-endpoint="now"]').waitFor();
    if (dialogs !== 1) throw new Error(`asked ${dialogs} time(s) before replacing an edited draft`);
    await page.click('#open-paste');
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'done');
    if (dialogs !== 1) throw new Error('asked before replacing a fresh conversion');
    // Renamed while Find shows it by its old name: it stays in view under the new one.
    await page.fill('#endpoint-filter', 'now');
    const found = page.locator('.card[data-endpoint="now"]');
    if (!(await found.evaluate((card) => card.open))) await found.locator('summary').click();
    await found.locator('[data-field="rename"]').fill('later');
    await found.locator('[data-action="apply"]').click();
    await page.locator('.card[data-endpoint="later"]').waitFor();
    await page.fill('#endpoint-filter', '');
    // A card adds a parameter, fixes it, and lets the requester give it again.
    let later = page.locator('.card[data-endpoint="later"]');
    if (!(await later.evaluate((card) => card.open))) await later.locator('summary').click();
    await later.locator('[data-field="add-param"]').fill('units');
    await later.locator('[data-action="apply"]').click();
    await later.locator('select[data-param="units"]').waitFor();
    await later.locator('[data-fixed-name]').fill('q');
    await later.locator('[data-fixed-value]').fill('Paris');
    await later.locator('[data-action="apply"]').click();
    await later.locator('[data-unfix="q"]').waitFor();
    if (await later.locator('select[data-param="q"]').count()) throw new Error('a fixed parameter still asked of the requester');
    await later.locator('[data-unfix="q"]').click();
    await later.locator('[data-action="apply"]').click();
    await later.locator('select[data-param="q"]').waitFor();
    if (await later.locator('[data-unfix="q"]').count()) throw new Error('the parameter is still fixed');
    // A system set to dark gets the page dark.
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    if (background !== 'rgb(20, 23, 29)') throw new Error(`dark mode: the page's background is ${background}`);
    await page.emulateMedia({ colorScheme: 'light' });
    if ((await page.content()).includes(apiKey)) throw new Error('the API key is in the page');
    await noNullShown();
    process.stdout.write(JSON.stringify({ steps, consoleErrors, encoded, status: await status(), accessibility, keysToCall }));
  } catch (error) {
    // What the page showed when it failed, for the one reading the failure.
    await failed();
    const shown = await page.locator('#try-problems .diag, .card .diag').allTextContents().catch(() => []);
    process.stderr.write(`diagnostics on the page:\n${shown.join('\n')}\n`);
    throw error;
  } finally {
    await browser.close();
  }
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
