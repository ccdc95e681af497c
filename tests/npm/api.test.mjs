// The JS API of the packed npm package, run by `node --test` in a fresh npm project that installed
// only the tarballs (tests/it/npm_package.rs makes it). Each report is also written to reports/,
// for the TypeScript check of the real reports against the generated types.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import test from 'node:test';

import ois, { OisError, call, convert, feed, ids, raw, request, scaffoldFeed, validate, version } from 'ois-cli';

const DIAGNOSTIC_FIELDS = ['code', 'severity', 'pointer', 'message', 'help', 'file', 'line', 'column'];
fs.mkdirSync('reports', { recursive: true });
/** Keeps `value` for the type check, as the TypeScript type `type` (of the package). */
const keep = (name, type, value) => fs.writeFileSync(`reports/${name}.json`, JSON.stringify({ type, value }, null, 2));

function sameShape(diagnostics) {
  for (const diagnostic of diagnostics) assert.deepEqual(Object.keys(diagnostic), DIAGNOSTIC_FIELDS);
}

test('convert a document from its path and from its text: the report and the OIS', async () => {
  const fromPath = await convert('coins.yaml');
  assert.equal(fromPath.status, 'ok');
  assert.equal(fromPath.ois.oisFormat, '3.0.0');
  assert.equal(fromPath.ois.endpoints.length, fromPath.summary.operations_kept);
  assert.ok(fromPath.diagnostics.some((d) => d.code === 'CNV070'), 'the title it changed is said');
  sameShape(fromPath.diagnostics);
  const fromText = await convert(fs.readFileSync('coins.yaml', 'utf8'), { target: 'airnode-feed@3' });
  assert.equal(fromText.ois.oisFormat, '2.3.2');
  assert.equal(fromText.ois.title, fromPath.ois.title);
  keep('convert', 'ConvertReport & { ois: Ois }', fromPath);
});

test('a document that is not OpenAPI is refused with its report', async () => {
  await assert.rejects(convert('{"hello": "world"}'), (error) => {
    assert.ok(error instanceof OisError);
    assert.equal(error.exitCode, 1);
    assert.ok(error.diagnostics.length > 0);
    sameShape(error.diagnostics);
    return true;
  });
});

test('validate the OIS: as an object, and broken', async () => {
  const { ois: converted } = await convert('coins.yaml', { output: 'coins.ois.json', force: true });
  const verdict = await validate(converted);
  assert.equal(verdict.valid, true);
  assert.equal(verdict.kind, 'ois');
  sameShape(verdict.diagnostics);
  keep('validate', 'FileVerdict', verdict);
  const broken = await validate({ ...converted, title: '' });
  assert.equal(broken.valid, false);
  assert.ok(broken.counts.errors > 0 && broken.diagnostics.some((d) => d.severity === 'error'));
  const fromFile = await validate('coins.ois.json');
  assert.equal(fromFile.valid, true);
});

test('the request the node makes, and a stop thrown with its report', async () => {
  const shown = await request('coins.ois.json', 'simplePrice', { ids: 'bitcoin', vs_currencies: 'usd', precision: 2 });
  assert.equal(shown.method, 'GET');
  assert.match(shown.url, /\/simple\/price\?ids=bitcoin&vs_currencies=usd&precision=2$/);
  sameShape(shown.diagnostics);
  keep('request', 'RequestReport', shown);
  await assert.rejects(request('coins.ois.json', 'nope', {}), (error) => {
    assert.equal(error.exitCode, 1);
    assert.equal(error.report.error.code, error.diagnostics.at(-1).code);
    keep('stopped', 'StoppedReport', error.report);
    return true;
  });
});

test('a real call to a loopback API, the key from a secrets file and never shown', async (t) => {
  const key = 'k-npm-7731';
  let seen;
  const server = http.createServer((req, res) => {
    seen = req.headers['x-cg-demo-api-key'];
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ bitcoin: { usd: 67123.45 } }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  fs.writeFileSync('secrets.env', `COIN_PRICES_API_DEMO_API_KEY_HEADER=${key}\n`);
  const base = `http://127.0.0.1:${server.address().port}`;
  const parameters = { ids: 'bitcoin', vs_currencies: 'usd', _type: 'int256', _path: 'bitcoin.usd', _times: '100' };
  const called = await call('coins.ois.json', 'simplePrice', parameters, { secrets: 'secrets.env', server: base });
  assert.equal(seen, key);
  assert.equal(called.call.status, 200);
  assert.deepEqual(called.response.values, ['6712345']);
  assert.ok(!JSON.stringify(called).includes(key), 'the key is masked');
  keep('call', 'CallReport', called);
});

test('IDs, a Feed config, and feeds by name', async () => {
  const airnode = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  const made = await ids('coins.ois.json', { template: ['simplePrice:ids=string:bitcoin'], airnode });
  assert.equal(made.templates.length, 1);
  assert.match(made.templates[0].templateId, /^0x[0-9a-f]{64}$/);
  keep('ids', 'IdsReport', made);

  const feedSpec = 'simplePrice:ids=string:bitcoin,vs_currencies=string:usd,_type=string:int256,_path=string:bitcoin.usd';
  const scaffolded = await scaffoldFeed('coins.ois.json', { feed: [feedSpec] });
  assert.equal(scaffolded.templates[0].templateId in scaffolded.config.templates, true);
  keep('scaffold', 'ScaffoldReport & { config: Record<string, unknown> }', scaffolded);

  fs.copyFileSync('coins.ois.json', 'by-name.ois.json');
  const added = await feed.add('by-name.ois.json', 'BTC/USD', {
    openapi: 'coins.yaml',
    operation: 'simplePrice',
    param: { ids: 'bitcoin', vs_currencies: 'usd' },
    value: 'bitcoin.usd',
  });
  assert.equal(added.written, true);
  keep('feed-add', 'EditReport', added);
  const listed = await feed.list('by-name.ois.json');
  assert.deepEqual(listed.feeds.map((f) => f.name), ['BTC/USD']);
  assert.deepEqual(listed.diagnostics, []);
  keep('feed-list', 'FeedListReport', listed);

  // An RPC feeds catalog, a chain and its URL (the key a secret the node fills).
  const entry = { name: 'rETH/ETH Exchange Rate', decimals: 18, chainAlias: 'ethereum', returnType: 'type-0',
    contractAddress: '0xae78736cd615f374d3085123a210448e74fc6393', callData: ['0xe6aa216c'] };
  fs.writeFileSync('catalog.json', JSON.stringify([entry]));
  const imported = await feed.import('rpc.ois.json', 'catalog.json', {
    chainUrl: { ethereum: 'https://mainnet.infura.io/v3/${RPC_KEY}' }, provider: 'Infura' });
  assert.equal(imported.written, true);
  const rpc = JSON.parse(fs.readFileSync('rpc.ois.json', 'utf8'));
  assert.equal(rpc.title, 'Infura ethereum');
  // A POST body given as an object and as JSON properties, each with its JSON type.
  const body = await feed.set('rpc.ois.json', 'rETH/ETH Exchange Rate', { body: { id: 7 }, paramJson: { params: [{ to: '0x00', data: '0x01' }, 'latest'] } });
  assert.equal(body.written, true);
  const [feedAfter] = (await feed.list('rpc.ois.json')).feeds;
  assert.equal(feedAfter.parameters.id, 7);
  assert.deepEqual(feedAfter.parameters.params, [{ to: '0x00', data: '0x01' }, 'latest']);
});

test('the same API from CommonJS, and the binary itself', async () => {
  const cjs = createRequire(import.meta.url)('ois-cli');
  assert.equal(typeof cjs.convert, 'function');
  assert.equal(cjs.convert, ois.convert);
  assert.match(await version(), /^\d+\.\d+\.\d+$/);
  const help = await raw(['explain', 'CNV070']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /CNV070/);
  const usage = await raw(['convert', '--no-such-flag']);
  assert.equal(usage.code, 2);
});
