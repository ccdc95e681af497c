// ois studio's page: shows what the studio's session holds and sends each step to it. Nothing is
// decided here: every rule, conversion, edit, request, call and config is the ois library's.
// Text from documents and APIs is only ever set as text (never as HTML).
'use strict';

const token = document.querySelector('meta[name="ois-token"]').content;
const $ = (id) => document.getElementById(id);

let state = null;
let feeds = [];
const downloads = {};

// ---- talking to the studio

// A call of the studio; `quiet` for one the page makes by itself (a card's problems when it
// opens): the status and the buttons are left as they are.
async function api(path, body, { quiet = false } = {}) {
  const status = quiet ? el('span') : $('status');
  status.className = 'busy';
  status.textContent = 'working';
  if (!quiet) document.querySelectorAll('button').forEach((b) => { b.disabled = true; });
  try {
    const init = { method: body === undefined ? 'GET' : 'POST', headers: { 'X-Ois-Token': token } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      // The studio stopped (or the network between): say so, never "working" for ever.
      status.className = 'error';
      status.textContent = 'the studio does not answer: is ois studio still running?';
      throw error;
    }
    if (!response.ok) {
      status.className = 'error';
      status.textContent = `the studio answered ${response.status}`;
      throw new Error(`the studio answered ${response.status}: ${await response.text()}`);
    }
    const data = await response.json();
    if (!data.ok) {
      status.className = 'error';
      status.textContent = 'refused: see below';
      const error = new Error('refused');
      error.refusal = data.refused;
      throw error;
    }
    status.className = '';
    status.textContent = 'done';
    return data.answer;
  } finally {
    if (!quiet) document.querySelectorAll('button').forEach((b) => { b.disabled = false; });
  }
}

// Runs a step; a refusal's diagnostics go to `problems` (an element), anything else to the status.
async function step(problems, run) {
  if (problems) problems.replaceChildren();
  try {
    return await run();
  } catch (error) {
    if (error.refusal && problems) {
      problems.replaceChildren(...diagnostics(error.refusal.diagnostics || []));
    } else {
      $('status').className = 'error';
      $('status').textContent = String(error.message || error);
    }
    return null;
  }
}

// ---- building the page

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key in node && key !== 'list') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// A diagnostic's place: file:line:column and its JSON pointer (as ois prints them).
function where(d) {
  const place = d.file ? `${d.file}${d.line ? `:${d.line}:${d.column || 1}` : ''}` : '';
  return [place, d.pointer ? `at ${d.pointer}` : ''].filter(Boolean).join(' ');
}

function diagnostic(d) {
  return el('div', { class: `diag ${d.severity}`, 'data-code': d.code },
    el('span', { class: 'code', text: d.code }),
    el('span', { text: d.message }),
    where(d) ? el('div', { class: 'where', text: where(d) }) : null,
    d.excerpt ? el('pre', { text: d.excerpt }) : null,
    d.help ? el('div', { class: 'muted', text: `help: ${d.help}` }) : null);
}

function diagnostics(list) {
  return list.map(diagnostic);
}

// A list of more choices than this is filled when first used, not on every redraw: thousands of
// options cost a redraw tens of ms, and the first frame their layout.
const MANY_OPTIONS = 100;

// Makes `values` the choices of `select` (a <select> or a <datalist>), `chosen` (or the one chosen
// now) still chosen.
function options(select, values, chosen) {
  const before = chosen ?? select.value;
  const fill = () => {
    select.lazyFill = null;
    select.replaceChildren(...values.map((v) => el('option', { value: v, text: v })));
    if (values.includes(before)) select.value = before;
  };
  if (values.length <= MANY_OPTIONS) { fill(); return; }
  const first = values.includes(before) ? before : values[0];
  select.replaceChildren(el('option', { value: first, text: first }));
  select.value = first;
  select.lazyFill = () => {
    const now = select.value;
    fill();
    if (values.includes(now)) select.value = now;
  };
}

// The lists filled when first used: on focus or a press of their control.
function fillWhenUsed(control, list = control) {
  const use = () => { if (list.lazyFill) list.lazyFill(); };
  control.addEventListener('focus', use);
  control.addEventListener('mousedown', use);
}

function setDownload(id, name, text) {
  if (downloads[id]) URL.revokeObjectURL(downloads[id]);
  downloads[id] = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
  $(id).href = downloads[id];
  $(id).download = name;
}

// ---- what the page keeps across a reload (this tab only; never a secret)

function keptKey(what) { return `ois-studio:${state ? state.folder : ''}:${what}`; }
function keep(what, value) {
  try { sessionStorage.setItem(keptKey(what), JSON.stringify(value)); } catch { /* full or refused: nothing kept */ }
}
function kept(what) {
  try { return JSON.parse(sessionStorage.getItem(keptKey(what)) || 'null'); } catch { return null; }
}

// After the first view: the feeds, the last answer and the last build as they were.
function restore() {
  const savedFeeds = kept('feeds');
  if (Array.isArray(savedFeeds)) { feeds = savedFeeds.filter((f) => f && f.endpoint && Array.isArray(f.parameters)); renderFeeds(); }
  const answer = kept('answer');
  if (answer && state.draft) showAnswer(answer.call, answer.picker);
  const built = kept('build');
  if (built && state.draft) showBuild(built);
}

// ---- drawing long lists without freezing the page

// How many items of a long list are drawn at once: the first lot before the page paints, the
// rest after it, a few lots a frame, so that the first frame is not held back by the rest and no
// task is long enough to freeze the page.
const CHUNK = 60;
// How long the lots drawn between two frames may take, in ms.
const FRAME_BUDGET = 8;
const drawing = new WeakMap();

// After the next frame is painted.
const afterPaint = (then) => requestAnimationFrame(() => setTimeout(then, 0));

// Draws `makers` (each makes one element) into `parent`: the first CHUNK now, the rest after the
// page painted, as many chunks as FRAME_BUDGET allows between two frames. `then(drawn)` after each
// chunk, given only its elements (a filter applied to them: linear in the list, not quadratic),
// and `finished()` once all are drawn. A newer drawing of the same parent stops an older one.
function drawInChunks(parent, makers, then, finished) {
  const run = { pending: makers.length > CHUNK };
  drawing.set(parent, run);
  const chunk = (from) => {
    const drawn = makers.slice(from, from + CHUNK).map((make) => make());
    if (from === 0) parent.replaceChildren(...drawn); else parent.append(...drawn);
    if (then) then(drawn);
  };
  chunk(0);
  let at = CHUNK;
  const more = () => {
    if (drawing.get(parent) !== run) return;
    const until = performance.now() + FRAME_BUDGET;
    while (at < makers.length && performance.now() < until) {
      chunk(at);
      at += CHUNK;
    }
    if (at < makers.length) { afterPaint(more); return; }
    run.pending = false;
    if (finished) finished();
  };
  if (run.pending) afterPaint(more); else if (finished) finished();
}

// A long list (operations, endpoints) shows its first PAGE items that the filter finds, and a
// button for the next PAGE: the page holds what it shows, not thousands of elements, and a filter
// works on the data, drawing only what it found.
const PAGE = 200;

// The button that shows `left` more items of a list, as `tag` (a table row or a block).
function moreButton(tag, left, show) {
  const button = el('button', { type: 'button', class: 'plain', 'data-more': 'yes', text: `show ${Math.min(left, PAGE)} more (${left} not shown)`, onclick: show });
  return tag === 'tr' ? el('tr', { class: 'more' }, el('td', { colSpan: 4 }, button)) : el('div', { class: 'more' }, button);
}

// The first items of a long list, and a button that shows the rest.
function shownAtFirst(items, make, what) {
  const first = 50;
  if (items.length <= first) return items.map(make);
  const rest = el('button', { type: 'button', class: 'plain', text: `show ${items.length - first} more ${what}` });
  rest.onclick = () => rest.replaceWith(...items.slice(first).map(make));
  return [...items.slice(0, first).map(make), rest];
}

async function showDraftText() {
  const answer = await step($('draft-problems'), () => api('/api/draft', {}));
  if (answer) $('draft-text').value = answer.text;
}

// ---- 1. open

// How long the last open and edit took, from the request sent to the page redrawn (read by
// bench/studio.js).
function timed(kind, started) {
  document.body.dataset[`last${kind}Ms`] = String(Math.round(performance.now() - started));
  // The first frame painted after the redraw: what the one who clicked sees.
  requestAnimationFrame(() => { document.body.dataset[`last${kind}PaintAt`] = String(performance.now()); });
}

async function open(body) {
  // An unsaved draft is not replaced without asking.
  const draft = state && state.draft;
  // A fresh conversion nobody has changed is made again from its document: nothing to lose.
  const untouched = draft && !draft.file && !state.undo;
  if (draft && draft.dirty && !untouched && !window.confirm(`${draft.file || draft.name} has changes that are not saved. Open the other file and lose them?`)) {
    return;
  }
  const started = performance.now();
  const view = await step($('open-section').querySelector('.problems') || addProblems($('open-section')),
    () => api('/api/open', body));
  if (view) render(view);
  timed('Open', started);
}

function addProblems(section) {
  const box = el('div', { class: 'problems' });
  section.append(box);
  return box;
}

function readFile(file, then) {
  const reader = new FileReader();
  reader.onload = () => then(file.name, String(reader.result));
  reader.readAsText(file);
}

// ---- 2. operations

// The conversion's diagnostics, asked for when a group of its report or an operation's messages
// is first opened (a big document's are hundreds of KB the page mostly never shows).
let conversionReport = null;
async function conversionDiagnostics() {
  const revision = state.openapi.revision;
  if (!conversionReport || conversionReport.revision !== revision) {
    conversionReport = await api('/api/report', {});
  }
  return conversionReport.diagnostics;
}

// A details box whose content is drawn from the conversion's diagnostics when it first opens.
function drawnWhenOpened(box, draw) {
  box.addEventListener('toggle', async () => {
    if (!box.open || box.dataset.drawn) return;
    box.dataset.drawn = 'yes';
    try {
      box.append(...draw(await conversionDiagnostics()));
    } catch (error) {
      delete box.dataset.drawn;
      box.append(el('div', { class: 'diag error', text: String(error.message || error) }));
    }
  });
  return box;
}

function renderOperations(openapi) {
  $('convert-section').hidden = !openapi;
  if (!openapi) return;
  $('openapi-name').textContent = openapi.name;
  const report = openapi.report;
  const kept = openapi.operations.filter((o) => o.endpoints.length).length;
  const summary = $('convert-summary');
  // A conversion that failed leaves the document open with its errors: what they ask for is set
  // here, under Conversion settings, and converted again.
  const failed = report.errors > 0 && openapi.operations.length === 0;
  summary.replaceChildren(failed
    ? el('p', { class: 'diag error', text: `The document could not be converted (${report.errors} error(s), below). Set what they ask for under Conversion settings, then Convert again.` })
    : el('p', { text: `${openapi.operations.length} operation(s): ${kept} made into endpoints, ${openapi.operations.length - kept} skipped. ${report.errors} error(s), ${report.warnings} warning(s), ${report.notes} note(s).` }));
  // The report grouped by code, each diagnostic with its place and line, drawn when its group
  // is opened (a big document has thousands).
  for (const { code, count, message } of report.groups) {
    const group = el('details', { class: 'group' }, el('summary', { text: `${code} × ${count}: ${message}` }));
    summary.append(drawnWhenOpened(group, (all) => shownAtFirst(all.filter((d) => d.code === code), diagnostic, 'diagnostic(s)')));
    if (failed) group.open = true;
  }
  $('convert-options').open = failed || $('convert-options').open;
  unpicked.clear();
  operationLimit = PAGE;
  drawOperations();
  const o = openapi.options || {};
  convertedFor = o.target || null;
  options($('opt-target'), state.targets, o.target);
  $('opt-server').value = o.server || '';
  $('opt-security').value = (o.security || []).join(', ');
  $('opt-api-key-params').value = (o.apiKeyParameters || []).join(', ');
  $('opt-include').value = (o.include || []).join(', ');
  $('opt-exclude').value = (o.exclude || []).join(', ');
  $('opt-base-url').value = o.baseUrl || '';
  $('opt-title').value = o.title || '';
  $('opt-version').value = o.oisVersion || '';
  $('opt-defaults').checked = Boolean(o.defaults);
}

// The names of the draft's endpoints, as a set (made once per draft view).
let keptNamesOf = null;
function keptNames() {
  if (!keptNamesOf || keptNamesOf.draft !== state.draft) {
    keptNamesOf = { draft: state.draft, names: new Set(state.draft.endpoints.map((e) => e.name)) };
  }
  return keptNamesOf.names;
}

// An endpoint the conversion made and an edit removed is struck out where the table names it
// (in `rows`, or the whole table).
function markGone(kept, rows) {
  const cells = rows ? rows.flatMap((row) => [...row.querySelectorAll('[data-endpoint]')])
    : document.querySelectorAll('#operations [data-endpoint]');
  cells.forEach((cell) => {
    cell.classList.toggle('gone', !kept.has(cell.dataset.endpoint));
    cell.title = kept.has(cell.dataset.endpoint) ? '' : 'removed from the draft';
  });
}

// The operations not to keep (unticked), by `METHOD /path`: held here, as most rows of a big
// document are not drawn.
const unpicked = new Set();
// How many of the operations the filter finds are shown.
let operationLimit = PAGE;

const operationLabel = (operation) => `${operation.method} ${operation.path}`;

// What the filter looks in: what its row shows.
function operationText(operation) {
  if (!operation.text) {
    operation.text = [operationLabel(operation), operation.summary || '', operation.endpoints.join(' ') || '— skipped', operation.codes.join(' ')].join(' ').toLowerCase();
  }
  return operation.text;
}

function operationRow(operation) {
  const label = operationLabel(operation);
  // What the conversion said of an operation: its codes at once, each message when opened.
  const said = () => {
    if (!operation.codes.length) return [];
    const box = el('details', { class: 'said' }, el('summary', { text: operation.codes.join(' · ') }));
    return [drawnWhenOpened(box, (all) => operation.diagnostics.map((i) => diagnostic(all[i])))];
  };
  const made = operation.endpoints.length > 0;
  const pick = el('input', { type: 'checkbox', checked: made && !unpicked.has(label), disabled: !made, 'aria-label': `keep ${label}` });
  pick.addEventListener('change', () => { if (pick.checked) unpicked.delete(label); else unpicked.add(label); });
  return el('tr', { 'data-operation': label },
    el('td', {}, pick),
    el('td', {}, el('code', { text: label }), operation.summary ? el('div', { class: 'muted', text: operation.summary }) : null),
    el('td', {}, ...(made
      ? operation.endpoints.flatMap((name, i) => [i ? ', ' : null, el('span', { 'data-endpoint': name, text: name })])
      : ['— skipped'])),
    el('td', {}, ...said()));
}

// Draws the operations the filter finds, the first `operationLimit` of them.
function drawOperations() {
  if (!state.openapi) return;
  const words = $('op-filter').value.toLowerCase().trim();
  const found = words ? state.openapi.operations.filter((o) => operationText(o).includes(words)) : state.openapi.operations;
  const shown = found.slice(0, operationLimit);
  const body = $('operations').tBodies[0];
  drawInChunks(body, shown.map((operation) => () => operationRow(operation)), (rows) => {
    if (state.draft) markGone(keptNames(), rows);
  }, () => {
    if (found.length > shown.length) {
      body.append(moreButton('tr', found.length - shown.length, () => { operationLimit += PAGE; drawOperations(); }));
    }
  });
  const total = state.openapi.operations.length;
  $('op-count').textContent = words ? `${found.length} of ${total}` : '';
}

function filterOperations() {
  operationLimit = PAGE;
  drawOperations();
}

const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);

// ---- 3. endpoints

// The endpoints a user opened stay open across redraws (a document may have hundreds: each
// card's form is built only when it is opened).
const openCards = new Set();

// An endpoint's diagnostics, asked for when its card opens (the view only counts them).
async function endpointProblems(index, [count]) {
  if (!count) return [];
  const answer = await api('/api/problems', { endpoint: index }, { quiet: true });
  return answer.diagnostics;
}

function endpointCard(endpoint, index, [count, errors] = [0, 0]) {
  const card = el('details', { class: 'card', 'data-endpoint': endpoint.name, open: openCards.has(endpoint.name) },
    el('summary', {}, el('strong', { text: endpoint.name }), ' ',
      el('code', { class: 'muted', text: endpoint.operation || 'no API call' }), ' ',
      count ? el('span', { class: errors ? 'badge error' : 'badge', text: `${count} problem(s)` }) : null));
  let built = false;
  const build = async () => {
    if (built) return;
    built = true;
    // Its problems as they are when it opens: an edit above it may have moved their lines.
    let problems = [];
    try {
      problems = await endpointProblems(index, [count, errors]);
    } catch (error) {
      problems = [{ code: '', severity: 'error', message: String(error.message || error) }];
    }
    card.append(endpointForm(card, endpoint, problems));
  };
  card.addEventListener('toggle', () => {
    if (card.open) { openCards.add(endpoint.name); build(); } else openCards.delete(endpoint.name);
  });
  if (card.open) build();
  return card;
}

function endpointForm(card, endpoint, problems) {
  const code = (key) => (state.draft.snippets[endpoint.name] || {})[key] || '';
  const reserved = new Map(endpoint.reserved.map(([name, value]) => [name, value]));
  const boxes = {};
  const box = (part) => { boxes[part] = el('div', { class: 'field-problems', 'data-part': part }); return boxes[part]; };
  const form = el('div', { class: 'form' },
    el('div', { class: 'muted', text: `endpoint ID ${endpoint.endpointId}` }),
    box('endpoint'),
    el('div', { class: 'grid' },
      el('label', {}, 'Rename to', el('input', { 'data-field': 'rename', placeholder: endpoint.name }))),
    el('h4', { text: 'Parameters' }),
    el('div', { class: 'grid' }, ...endpoint.parameters.map((p) => el('label', {}, p.name,
      el('select', { 'data-param': p.name },
        el('option', { value: '', text: p.required ? 'required (as it is)' : 'optional (as it is)' }),
        el('option', { value: 'required', text: 'required' }),
        el('option', { value: 'optional', text: 'optional' }),
        el('option', { value: 'drop', text: 'drop it' })))),
      el('label', {}, 'Add a parameter (the operation\'s, by its name, or a new one for processing)',
        el('input', { 'data-field': 'add-param', placeholder: 'name' }))),
    box('parameters'),
    el('h4', { text: 'Reserved parameters (fixed values; empty: left as they are)' }),
    el('div', { class: 'grid' }, ...state.reservedNames.filter((name) => reserved.has(name) || !RRP_ONLY.has(name) || forAirnode()).map((name) => el('label', {}, name,
      el('input', { 'data-reserved': name, value: reserved.has(name) ? (reserved.get(name) ?? '') : '', placeholder: reserved.has(name) ? 'given by the template' : '' })))),
    box('reserved'),
    el('h4', { text: 'Fixed operation parameters' }),
    endpoint.fixed.length
      ? el('div', {}, ...endpoint.fixed.map(([n, v]) => el('div', { class: 'row' },
        el('code', { text: `${n} = ${JSON.stringify(v)}` }),
        el('button', { type: 'button', class: 'plain', 'data-unfix': n, text: 'let the requester give it',
          onclick: (event) => { event.target.classList.toggle('chosen'); event.target.textContent = event.target.classList.contains('chosen') ? 'given by the requester (Apply)' : 'let the requester give it'; } }))))
      : el('div', { class: 'muted', text: 'none' }),
    el('div', { class: 'grid' },
      el('label', {}, 'Operation parameter', el('input', { 'data-fixed-name': '' })),
      el('label', {}, 'Value', el('input', { 'data-fixed-value': '' }))),
    box('fixed'),
    el('details', { open: Boolean(code('pre') || code('post')) },
      el('summary', { text: 'Processing (JavaScript run before the call and after the answer, in the embedded sandbox)' }),
      el('label', {}, 'Pre-processing', el('textarea', { 'data-snippet': 'pre', rows: 4, spellcheck: false, value: code('pre'), placeholder: '({ endpointParameters }) => ({ endpointParameters })' })),
      box('pre'),
      el('label', {}, 'Post-processing', el('textarea', { 'data-snippet': 'post', rows: 4, spellcheck: false, value: code('post'), placeholder: '({ response }) => ({ response })' })),
      box('post')),
    el('div', { class: 'row' },
      el('button', { type: 'button', 'data-action': 'apply', text: 'Apply', onclick: () => applyEndpoint(card, endpoint) }),
      el('button', { type: 'button', class: 'plain', 'data-action': 'remove', text: 'Remove endpoint', onclick: () => edit(card, { kind: 'remove', names: [endpoint.name] }) })));
  for (const d of problems) {
    (boxes[d.part] || boxes.endpoint).append(diagnostic(d));
  }
  return form;
}

function collectSettings(card, endpoint) {
  const settings = { reserved: [], unreserved: [], fixed: [], parameters: [] };
  const reserved = new Map(endpoint.reserved.map(([name, value]) => [name, value]));
  card.querySelectorAll('[data-reserved]').forEach((input) => {
    const name = input.dataset.reserved;
    const before = reserved.has(name) ? (reserved.get(name) ?? '') : '';
    if (input.value === String(before)) return;
    // A value cleared takes the reserved parameter away (to pick another `_path`).
    if (input.value === '') settings.unreserved.push(name);
    else settings.reserved.push([name, input.value]);
  });
  card.querySelectorAll('[data-param]').forEach((select) => {
    if (select.value) settings.parameters.push([select.dataset.param, select.value]);
  });
  const fixedName = card.querySelector('[data-fixed-name]').value.trim();
  if (fixedName) settings.fixed.push([fixedName, card.querySelector('[data-fixed-value]').value]);
  const added = card.querySelector('[data-field="add-param"]').value.trim();
  if (added) settings.parameters.push([added, 'add']);
  settings.unfixed = [...card.querySelectorAll('[data-unfix].chosen')].map((button) => button.dataset.unfix);
  const code = state.draft.snippets[endpoint.name] || {};
  for (const key of ['pre', 'post']) {
    const text = card.querySelector(`[data-snippet="${key}"]`).value;
    const before = code[key] || '';
    if (text.trim() && text !== before) settings[key] = text;
  }
  return settings;
}

async function applyEndpoint(card, endpoint) {
  const rename = card.querySelector('[data-field="rename"]').value.trim();
  if (rename) openCards.add(rename);
  // A renamed endpoint that Find showed by its old name stays in view under its new one.
  const find = $('endpoint-filter');
  const findsIt = find.value.trim() && !rename.toLowerCase().includes(find.value.trim().toLowerCase());
  if (rename && findsIt) { find.value = rename; }
  const view = await edit(card, { kind: 'set', name: endpoint.name, rename: rename || null, settings: collectSettings(card, endpoint) });
  if (!view && rename && findsIt) { find.value = endpoint.name; filterEndpoints(); }
  return view;
}

async function edit(card, body) {
  const started = performance.now();
  const problems = (card && card.querySelector('[data-part="endpoint"]')) || $('draft-problems');
  if (card) {
    card.querySelectorAll('.field-problems').forEach((box) => box.replaceChildren());
    card.querySelectorAll('.field-problem').forEach((field) => field.classList.remove('field-problem'));
  }
  let view = null;
  try {
    view = await api('/api/edit', { ...body, seen: state.draft ? state.draft.revision : null });
  } catch (error) {
    if (!error.refusal) { $('status').className = 'error'; $('status').textContent = String(error.message || error); return null; }
    // Refused because another tab changed the draft this edit was made on: the draft as it is
    // now is drawn, and said, instead of a refusal about what is no longer there.
    if (await catchUp()) return null;
    for (const d of error.refusal.diagnostics || []) placeRefusal(card, problems, d);
    return null;
  }
  problems.replaceChildren();
  render(view);
  timed('Edit', started);
  return view;
}

// A refusal goes beside the part of the form it is about, and the field it names is marked.
function placeRefusal(card, fallback, d) {
  if (!card) { fallback.append(diagnostic(d)); return; }
  const part = d.part;
  const named = [...card.querySelectorAll('[data-reserved], [data-param], [data-fixed-name], [data-field], [data-snippet]')]
    .find((field) => {
      const name = field.dataset.reserved || field.dataset.param || field.dataset.snippet || field.dataset.field;
      return name && (d.message.includes(`"${name}"`) || d.message.includes(`\`${name}\``) || d.message.startsWith(`${name} `));
    });
  const box = (part && card.querySelector(`[data-part="${part}"]`))
    || (named && named.closest('.grid') && named.closest('.grid').nextElementSibling && named.closest('.grid').nextElementSibling.classList.contains('field-problems') && named.closest('.grid').nextElementSibling)
    || fallback;
  box.append(diagnostic(d));
  if (named) { named.classList.add('field-problem'); named.focus(); }
}

function renderDraft(draft, changed) {
  for (const id of ['draft-section', 'try-section', 'feeds-section', 'update-section', 'text-section']) {
    $(id).hidden = !draft;
  }
  if (!draft) return;
  $('draft-name').textContent = `${draft.file || draft.name}${draft.dirty ? ' (not saved)' : ''}`;
  $('disk-banner').hidden = !draft.changedOnDisk;
  $('title-row').hidden = draft.titles.length < 2;
  options($('title-select'), draft.titles, draft.title);
  $('draft-problems').replaceChildren(...shownAtFirst(draft.diagnostics, diagnostic, 'problem(s)'));
  // After an edit that changed some endpoints (none came or went): only their cards are drawn
  // again (those shown), and a card whose problems moved gets its new lines.
  const patch = Boolean(changed) && !(drawing.get($('endpoints')) || {}).pending;
  if (patch) {
    // A card whose problems only moved is drawn again only when open (its form shows the lines).
    const moved = (changed.moved || []).filter((index) => shownCards.has(index) && shownCards.get(index).open);
    for (const index of new Set([...changed, ...moved])) {
      const shown = shownCards.get(index);
      if (!shown) continue;
      const card = endpointCard(draft.endpoints[index], index, draft.problems[index]);
      shown.replaceWith(card);
      shownCards.set(index, card);
    }
  } else {
    endpointLimit = PAGE;
    drawEndpoints();
  }
  $('undo').disabled = !state.undo;
  if (document.activeElement !== $('save-path')) $('save-path').value = draft.file || draft.suggested;
  // A big OIS's text comes to the page only when its section is open, or downloaded.
  if ($('text-details').open && document.activeElement !== $('draft-text')) showDraftText();
  $('download-ois').download = (draft.file || draft.suggested).split('/').pop();
  const names = draft.endpoints.map((e) => e.name);
  // The endpoints' names are the same after such an edit: the lists naming them stay.
  if (!patch) {
    options($('try-endpoint'), names);
    const chosenFeedEndpoint = $('feed-endpoint').value;
    options($('feed-endpoint'), names, chosenFeedEndpoint);
    if ($('feed-endpoint').value !== chosenFeedEndpoint || !$('feed-fields').childElementCount) renderFeedFields();
    markGone(keptNames());
  }
  renderTryParameters();
  renderByName(draft);
  renderMnemonic();
  $('secret-fields').replaceChildren(...draft.secretsNeeded.map((name) => el('label', {}, name,
    el('input', { type: 'password', autocomplete: 'off', 'data-secret': name, placeholder: state.secrets.includes(name) ? 'held' : '' }))));
  $('secrets-box').hidden = draft.secretsNeeded.length === 0;
  $('secrets-held').textContent = state.secrets.length ? `held: ${state.secrets.join(', ')}` : 'none held';
}

async function undo() {
  const started = performance.now();
  const view = await step($('save-problems'), () => api('/api/undo', { seen: state.draft ? state.draft.revision : null }));
  if (view) render(view);
  timed('Undo', started);
}

// The cards drawn, by endpoint index; how many of the endpoints found are shown.
let shownCards = new Map();
let endpointLimit = PAGE;

// Draws the cards of the endpoints the find box's words find (in name, method and path), the
// first `endpointLimit` of them, and says how many there are.
function drawEndpoints() {
  const draft = state.draft;
  const words = $('endpoint-filter').value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const found = [];
  draft.endpoints.forEach((endpoint, index) => {
    const text = `${endpoint.name} ${endpoint.operation || 'no API call'}`.toLowerCase();
    if (words.every((w) => text.includes(w))) found.push(index);
  });
  const shown = found.slice(0, endpointLimit);
  const parent = $('endpoints');
  shownCards = new Map();
  drawInChunks(parent, shown.map((index) => () => {
    const card = endpointCard(draft.endpoints[index], index, draft.problems[index]);
    shownCards.set(index, card);
    return card;
  }), null, () => {
    if (found.length > shown.length) {
      parent.append(moreButton('div', found.length - shown.length, () => { endpointLimit += PAGE; drawEndpoints(); }));
    }
  });
  const total = draft.endpoints.length;
  $('endpoint-count').textContent = words.length ? `${found.length} of ${total}` : `${total} endpoint(s)`;
}

function filterEndpoints() {
  const started = performance.now();
  endpointLimit = PAGE;
  if (state.draft) drawEndpoints();
  timed('Find', started);
}

// ---- 3b. feeds by name

let editingFeed = null;

function feedParameters(text) {
  return list(text).map((pair) => { const at = pair.indexOf('='); return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]; });
}

function feedForm(feed) {
  editingFeed = feed ? feed.name : null;
  $('bn-name').value = feed ? feed.name : '';
  $('bn-operation').value = '';
  $('bn-params').value = feed ? Object.entries(feed.parameters).map(([k, v]) => `${k}=${v}`).join(', ') : '';
  $('bn-value').value = feed && feed.value ? feed.value : '';
  $('bn-save').hidden = !feed;
  $('bn-add').hidden = Boolean(feed);
  if (feed) $('bn-name').focus();
}

function tryFeed(name) {
  options($('try-endpoint'), state.draft.endpoints.map((e) => e.name), 'feed');
  renderTryParameters();
  const input = $('try-params').querySelector('[data-param="name"]');
  if (input) input.value = name;
  $('try-section').scrollIntoView();
}

// Reserved parameters only Airnode's request–response protocol reads: a Feed ignores them.
const RRP_ONLY = new Set(['_gasPrice', '_minConfirmations']);
let convertedFor = null;
function forAirnode() {
  return Boolean(convertedFor && convertedFor.startsWith('airnode@'));
}

function renderByName(draft) {
  const feedsByName = draft.feeds;
  const table = $('by-name-table');
  const unreadable = feedsByName && !Array.isArray(feedsByName);
  $('by-name-problems').replaceChildren(...(unreadable ? [el('p', { class: 'error', text: feedsByName.error })] : []));
  const rows = Array.isArray(feedsByName) ? feedsByName : [];
  table.hidden = rows.length === 0;
  $('bn-batch').hidden = rows.length < 2;
  table.tBodies[0].replaceChildren(...rows.map((feed) => el('tr', { 'data-feed': feed.name },
    el('td', {}, el('input', { type: 'checkbox', 'aria-label': `choose ${feed.name}` })),
    el('td', { text: feed.name }),
    el('td', {}, el('code', { text: feed.path })),
    el('td', { text: Object.entries(feed.parameters).map(([k, v]) => `${k}=${v}`).join(' ') }),
    el('td', {}, feed.value ? el('code', { text: feed.value }) : el('span', { class: 'muted', text: feed.parserLines ? `parser, ${feed.parserLines} line(s)` : 'no value yet' })),
    el('td', {},
      el('button', { type: 'button', class: 'plain', text: 'edit', onclick: () => feedForm(feed) }),
      el('button', { type: 'button', class: 'plain', text: 'try', onclick: () => tryFeed(feed.name) }),
      el('button', { type: 'button', class: 'plain', text: 'remove', onclick: () => edit(null, { kind: 'removeFeeds', names: [feed.name] }) })))));
  // The operations a feed can use, listed again only when the conversion changed.
  const operations = state.openapi && state.openapi.operations;
  if ($('bn-operations').listed !== operations) {
    $('bn-operations').listed = operations;
    const gets = (operations || []).filter((o) => o.method === 'GET').map((o) => `GET ${o.path}`);
    options($('bn-operations'), gets);
    // Hints from this vendor's own document, not another's.
    $('bn-operation').placeholder = gets[0] || 'GET /path';
    $('bn-params').placeholder = 'NAME=VALUE, comma-separated';
    $('bn-value').placeholder = 'its path in the answer (a call lists them)';
  }
}

async function saveFeed(kind) {
  const body = {
    kind, name: editingFeed || $('bn-name').value.trim(),
    operation: $('bn-operation').value.trim() || null,
    parameters: feedParameters($('bn-params').value),
    value: $('bn-value').value.trim() || null,
  };
  if (kind === 'setFeed' && $('bn-name').value.trim() !== editingFeed) body.rename = $('bn-name').value.trim();
  const view = await step($('by-name-problems'), () => api('/api/edit', body));
  if (view) { render(view); feedForm(null); }
}

// ---- 4. request and call

let triedEndpoint = null;

function renderTryParameters() {
  const endpoint = state.draft.endpoints.find((e) => e.name === $('try-endpoint').value);
  // Values typed for one endpoint are not another's: they are kept only while it stays chosen.
  const same = triedEndpoint === $('try-endpoint').value;
  triedEndpoint = $('try-endpoint').value;
  const before = same ? Object.fromEntries([...$('try-params').querySelectorAll('input')].map((i) => [i.dataset.param, i.value])) : {};
  const names = endpoint ? endpoint.parameters.map((p) => p.name) : [];
  const reserved = endpoint ? endpoint.reserved.filter(([, v]) => v === null).map(([n]) => n) : [];
  $('try-params').replaceChildren(...[...names, ...reserved].map((name) => el('label', {}, name,
    el('input', { 'data-param': name, value: before[name] || '' }))));
}

function callBody(extra) {
  const parameters = [...$('try-params').querySelectorAll('input')]
    .filter((i) => i.value !== '')
    .map((i) => [i.dataset.param, i.value]);
  return { endpoint: $('try-endpoint').value, parameters, server: $('try-server').value || null, feed: $('try-feed').checked, record: $('try-record').value || null, ...extra };
}

function valueBox(response) {
  if (!response || !response.values) return null;
  return el('div', { class: 'value-box', 'data-testid': 'value' },
    el('div', {}, response.values.length > 1 ? 'Values: ' : 'Value: ', el('code', { text: response.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') })),
    response.encoded ? el('div', {}, 'Encoded: ', el('code', { 'data-testid': 'encoded', text: response.encoded })) : null);
}

function showRequest(exchange, curl) {
  const headers = Object.entries(exchange.headers || {});
  // DOM methods would show a missing part as the text "null": el() leaves it out.
  $('request-view').replaceChildren(el('div', {},
    el('h3', { text: 'The node\'s request' }),
    el('pre', { 'data-testid': 'request-line', text: exchange.method ? `${exchange.method.toUpperCase()} ${exchange.url}` : 'no API call' }),
    headers.length ? el('pre', { text: headers.map(([k, v]) => `${k}: ${v}`).join('\n') }) : null,
    exchange.body ? el('pre', { text: JSON.stringify(exchange.body, null, 2) }) : null,
    curl ? el('details', {}, el('summary', { text: 'as curl' }), el('pre', { 'data-testid': 'curl', text: curl })) : null,
    valueBox(exchange.response),
    exchange.logs ? el('pre', { text: exchange.logs.map((l) => `${l.phase}: ${l.line}`).join('\n') }) : null));
}

async function preview(extra) {
  const answer = await step($('try-problems'), () => api('/api/request', callBody(extra)));
  if (!answer) return;
  $('try-problems').replaceChildren(...diagnostics(answer.diagnostics));
  showRequest(answer.exchange, answer.curl);
}

function showAnswer(call, picker) {
  keep('answer', { call, picker });
  const view = $('answer-view');
  view.replaceChildren();
  if (call) {
    view.append(el('h3', { text: `The API answered ${call.status} in ${call.latencyMs} ms` }));
  }
  if (picker && picker.leaves.length) {
    view.append(el('p', { class: 'muted', text: 'Click a value to read it (_path), with the _type and _times that fit it.' }),
      el('div', { class: 'tree', 'data-testid': 'picker' }, ...picker.leaves.map((leaf, index) => [leaf, index]).filter(([leaf]) => leaf.path !== null).map(([leaf, index]) => el('button', {
        type: 'button', class: index === picker.suggested ? 'leaf suggested' : 'leaf', 'data-path': leaf.path, onclick: () => pick(leaf, picker),
        title: index === picker.suggested ? 'the likeliest value for a feed' : undefined,
      }, el('span', { class: 'path', text: leaf.path || '(the whole answer)' }), ' = ', JSON.stringify(leaf.value),
      index === picker.suggested ? el('span', { class: 'badge', text: ' likeliest' }) : null,
      leaf.suggestedType ? el('span', { class: 'muted', text: `  ${leaf.suggestedType}${leaf.suggestedTimes ? ` × ${leaf.suggestedTimes}` : ''}` }) : null))));
    if (picker.truncated) view.append(el('p', { class: 'muted', text: 'only the first leaves are shown' }));
  }
  if (call) {
    const copy = el('button', { type: 'button', class: 'plain', text: 'copy', title: 'copy the answer as JSON' });
    copy.onclick = async () => {
      try { await navigator.clipboard.writeText(JSON.stringify(call.body, null, 2)); copy.textContent = 'copied'; } catch { copy.textContent = 'the browser did not allow it'; }
    };
    view.append(el('details', { open: true, 'data-testid': 'answer-tree' }, el('summary', { text: 'the whole answer ' }, copy),
      jsonTree(call.body, [], picker, 0)));
  }
}

// The answer as a tree: objects and arrays open a level at a time (their children drawn when
// opened), each leaf the `_path` that reaches it; the one picked is marked.
function jsonTree(value, segments, picker, depth) {
  const byPath = new Map(((picker && picker.leaves) || []).filter((l) => l.path !== null).map((l) => [l.path, l]));
  const node = (value, segments, depth) => {
    const key = segments.length ? segments[segments.length - 1] : '(the whole answer)';
    if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
      const box = el('details', { class: 'branch', open: depth < 2 },
        el('summary', { text: `${key} ${Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`}` }));
      const draw = () => { if (box.childElementCount === 1) box.append(...entries.map(([k, v]) => node(v, [...segments, k], depth + 1))); };
      if (box.open) draw(); else box.addEventListener('toggle', draw);
      return box;
    }
    const path = segments.map((s) => s.replace(/\./g, '\\.')).join('.');
    const leaf = byPath.get(path);
    const shown = el('div', { class: `node${leaf && pickedPath === path ? ' picked' : ''}`, 'data-tree-path': path },
      el('span', { class: 'path', text: key }), ': ', el('code', { text: typeof value === 'string' ? value : JSON.stringify(value) }));
    if (leaf) {
      shown.append(' ', el('button', { type: 'button', class: 'plain', text: 'use this value', onclick: () => pick(leaf, picker) }));
    }
    return shown;
  };
  return node(value, segments, depth);
}

async function call() {
  const problems = $('try-problems');
  problems.replaceChildren();
  try {
    const answer = await api('/api/call', callBody({}));
    problems.replaceChildren(...diagnostics(answer.diagnostics));
    showRequest(answer.call, null);
    showAnswer(answer.call.call, answer.picker);
  } catch (error) {
    if (!error.refusal) return;
    problems.replaceChildren(...diagnostics(error.refusal.diagnostics || []));
    // No value from this call: the previous call's value box goes.
    $('request-view').replaceChildren();
    const detail = error.refusal.detail || {};
    showAnswer(detail.call, detail.picker);
    // The API answered: what is missing is the endpoint's choice of value, which is made below.
    if (detail.call && detail.call.status >= 200 && detail.call.status < 300) {
      $('status').className = '';
      $('status').textContent = detail.picker && detail.picker.leaves.length
        ? `the API answered ${detail.call.status}: pick the value below`
        : `the API answered ${detail.call.status}: no value yet (see below)`;
    }
  }
}

// The value a pick made, brought into view (the page above the answer tree may have grown).
function showPicked() {
  // After the layout the edit and the preview changed: the cards above may have grown.
  requestAnimationFrame(() => {
    const value = document.querySelector('[data-testid="value"]');
    if (value) value.scrollIntoView({ block: 'center' });
  });
}

// The `_path` picked last (the tree marks it).
let pickedPath = null;

async function pick(leaf, picker) {
  pickedPath = leaf.path;
  document.querySelectorAll('[data-tree-path].picked').forEach((n) => n.classList.remove('picked'));
  const node = document.querySelector(`[data-tree-path="${CSS.escape(leaf.path)}"]`);
  if (node) node.classList.add('picked');
  if (picker && picker.feed) {
    // A feed by name reads its value with its parser: the path becomes the feed's value.
    const view = await edit(null, { kind: 'setFeed', name: picker.feed, value: leaf.path });
    if (view) await preview({ useResponse: true });
    showPicked();
    return;
  }
  const reserved = [];
  if (leaf.path) reserved.push(['_path', leaf.path]);
  if (leaf.suggestedType) reserved.push(['_type', leaf.suggestedType]);
  if (leaf.suggestedTimes) reserved.push(['_times', leaf.suggestedTimes]);
  const name = $('try-endpoint').value;
  const card = [...document.querySelectorAll('.card')].find((c) => c.dataset.endpoint === name);
  const view = await edit(card, { kind: 'set', name, settings: { reserved } });
  if (view) await preview({ useResponse: true });
  showPicked();
}

async function holdSecrets() {
  const values = {};
  document.querySelectorAll('[data-secret]').forEach((input) => {
    if (input.value) values[input.dataset.secret] = input.value;
    input.value = '';
  });
  const answer = await step($('try-problems'), () => api('/api/secrets', values));
  if (answer) {
    state.secrets = answer.secrets;
    $('secrets-held').textContent = `held: ${answer.secrets.join(', ')}`;
  }
}

// ---- 5. feeds

function renderMnemonic() {
  $('mnemonic-held').textContent = state.secrets.includes(state.mnemonicSecret) ? 'held' : 'not held: the config is built without beacon IDs';
  $('mnemonic').placeholder = state.secrets.includes(state.mnemonicSecret) ? 'held (type another to replace it)' : '';
}

// A feed of section 5: `{endpoint, parameters: [[name, type, value], …]}`, shown as the command
// line writes it.
const feedText = (feed) => `${feed.endpoint}:${feed.parameters.map(([n, t, v]) => `${n}=${t}:${v}`).join(',')}`;

function renderFeeds() {
  keep('feeds', feeds);
  $('feed-list').replaceChildren(...feeds.map((feed, i) => el('li', { 'data-feed': feedText(feed) },
    el('code', { text: feedText(feed) }), ' ',
    el('button', { type: 'button', class: 'plain', text: 'remove', onclick: () => { feeds.splice(i, 1); renderFeeds(); } }))));
}

// A field a parameter of the chosen endpoint: its type (string32 first) and its value.
function renderFeedFields() {
  const endpoint = state.draft && state.draft.endpoints.find((e) => e.name === $('feed-endpoint').value);
  const names = endpoint ? endpoint.parameters.map((p) => p.name) : [];
  $('feed-fields').replaceChildren(...names.map((name) => el('fieldset', { class: 'typed', 'data-template-param': name },
    el('legend', { text: name }),
    el('select', { 'data-type': name, 'aria-label': `${name} type` }, ...state.parameterTypes.map((t) => el('option', { value: t, text: t }))),
    el('input', { 'data-value': name, 'aria-label': `${name} value` }))));
}

async function build() {
  const url = $('signed-url').value.trim();
  const body = {
    node: $('build-node').value,
    templates: feeds,
    signedApis: url ? [[$('signed-name').value.trim() || 'local', url]] : [],
    batch: $('feed-batch').checked,
    allFeeds: $('build-all-feeds').checked,
    fetchInterval: Number($('build-interval').value) || null,
    server: $('build-server').value.trim() || null,
  };
  const answer = await step($('build-problems'), () => api('/api/build', body));
  if (!answer) return;
  $('build-problems').replaceChildren(...diagnostics(answer.diagnostics));
  showBuild(answer);
  // Kept across a reload of the page (not the secrets template: it may name what is held).
  keep('build', { config: answer.config, ids: answer.ids, mnemonic: answer.mnemonic });
}

function showBuild(answer) {
  $('build-view').hidden = false;
  $('config-text').textContent = answer.config;
  $('secrets-text').textContent = answer.secrets || '(build again for the secrets template)';
  setDownload('download-config', 'config.json', answer.config);
  if (answer.secrets) setDownload('download-secrets', 'secrets.env', answer.secrets);
  setDownload('download-ids', 'ids.json', JSON.stringify(answer.ids, null, 2));
  $('ids-table').tBodies[0].replaceChildren(...answer.ids.templates.map((t) => el('tr', {},
    el('td', { text: t.endpointName }),
    el('td', { text: t.parameters.map((p) => `${p.name}=${p.type}:${p.value}`).join(', ') }),
    el('td', {}, el('code', { text: t.templateId })),
    el('td', {}, el('code', { text: t.beaconId || `— (hold ${answer.mnemonic} for beacon IDs)` })))));
  $('beacon-set').textContent = answer.ids.beaconSetId ? `Beacon set: ${answer.ids.beaconSetId}` : '';
}

async function save(body, problems) {
  const answer = await step(problems, () => api('/api/save', body));
  if (!answer) return;
  $('status').textContent = `saved ${answer.written.join(', ')}`;
  if (answer.diagnostics) problems.replaceChildren(...diagnostics(answer.diagnostics));
  if (answer.view) render(answer.view);
}

// ---- 6. update

async function showUpdate(body) {
  const answer = await step($('update-problems'), () => api('/api/update', body));
  if (!answer) return;
  $('update-view').hidden = false;
  const fates = { kept: 0, added: 0, removed: 0 };
  answer.endpoints.forEach((e) => { fates[e.fate] += 1; });
  $('update-tally').textContent = `${fates.kept} endpoint(s) kept, ${fates.added} added, ${fates.removed} removed, ${answer.conflicts} conflict(s) (each resolved as the diagnostics say; take it or leave it)`;
  $('update-endpoints').replaceChildren(...answer.endpoints.map((e) => el('li', { 'data-fate': e.fate, text: `${e.fate}: ${e.name}` })));
  $('update-problems').replaceChildren(...diagnostics(answer.diagnostics));
  $('update-diff').replaceChildren(...answer.diff.split('\n').map((line) => el('div', {
    class: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '', text: line,
  })));
}

// ---- the whole page

let drawnConversion = null;

// An edit's answer may carry only the endpoints it changed (`changed`: their indexes) and their
// problem counts: the rest of the draft is the one the page holds.
function mergeDraft(held, draft) {
  if (!draft || !draft.changed) return draft;
  const endpoints = held.endpoints.slice();
  const problems = held.problems.slice();
  draft.changed.forEach((index, i) => { endpoints[index] = draft.endpoints[i]; problems[index] = draft.problems[i]; });
  return { ...draft, endpoints, problems, changed: undefined, moved: undefined };
}

function render(view) {
  const conversion = view.openapi ? view.openapi.revision : null;
  let changed = null;
  if (view.draft && view.draft.changed) {
    changed = view.draft.changed.slice();
    changed.moved = view.draft.moved || [];
    view.draft = mergeDraft(state.draft, view.draft);
  }
  state = view;
  $('folder').textContent = view.folder;
  if (view.files) {
    options($('file-select'), view.files);
    options($('update-select'), view.files);
  }
  // An edit leaves the conversion as it was: its table is drawn again only when it changed.
  if (conversion === null || (conversion !== drawnConversion && view.openapi.operations)) {
    renderOperations(view.openapi);
    drawnConversion = conversion;
  }
  renderDraft(view.draft, changed);
}

function wire() {
  for (const id of ['try-endpoint', 'feed-endpoint', 'file-select', 'update-select', 'title-select']) fillWhenUsed($(id));
  fillWhenUsed($('bn-operation'), $('bn-operations'));
  $('open-file').addEventListener('click', () => open({ path: $('file-select').value }));
  $('file-input').addEventListener('change', (e) => { const f = e.target.files[0]; if (f) readFile(f, (name, text) => open({ name, text })); });
  $('open-paste').addEventListener('click', () => open({ name: $('paste-name').value || 'pasted.yaml', text: $('paste-text').value }));
  const drop = $('drop-zone');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer.files[0];
    if (f) readFile(f, (name, text) => open({ name, text }));
  });
  $('reconvert').addEventListener('click', async () => {
    const text = (id) => $(id).value.trim() || undefined;
    const body = {
      target: $('opt-target').value, server: text('opt-server'), security: list($('opt-security').value), apiKeyParameters: list($('opt-api-key-params').value),
      include: list($('opt-include').value), exclude: list($('opt-exclude').value), baseUrl: text('opt-base-url'),
      title: text('opt-title'), oisVersion: text('opt-version'), defaults: $('opt-defaults').checked,
    };
    const view = await step($('convert-summary'), () => api('/api/convert', body));
    if (view) render(view);
  });
  $('op-filter').addEventListener('input', () => filterOperations());
  $('keep-picked').addEventListener('click', () => {
    const filters = state.openapi.operations.filter((o) => o.endpoints.length && !unpicked.has(operationLabel(o))).map(operationLabel);
    return edit(null, { kind: 'keep', filters });
  });
  $('title-select').addEventListener('change', async () => { const view = await step($('draft-problems'), () => api('/api/choose', $('title-select').value)); if (view) render(view); });
  $('save-ois').addEventListener('click', () => save({ what: 'ois', path: $('save-path').value, force: $('save-force').checked }, $('save-problems')));
  $('undo').addEventListener('click', undo);
  document.addEventListener('keydown', (e) => {
    const typing = ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName);
    if ((e.ctrlKey || e.metaKey) && e.key === 'z' && !e.shiftKey && !typing && state.draft) { e.preventDefault(); undo(); }
    // Ctrl+Enter: in the request section, call the API; in the config section, build.
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
      if ($('try-section').contains(document.activeElement)) { e.preventDefault(); call(); }
      if ($('feeds-section').contains(document.activeElement)) { e.preventDefault(); build(); }
    }
  });
  $('endpoint-filter').addEventListener('input', () => filterEndpoints());
  // Enter in a field applies its form.
  $('by-name-form').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); saveFeed(editingFeed ? 'setFeed' : 'addFeed'); } });
  $('endpoints').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT') return;
    const card = e.target.closest('.card');
    const apply = card && card.querySelector('[data-action="apply"]');
    if (apply) { e.preventDefault(); apply.click(); }
  });
  $('show-disk').addEventListener('click', async () => {
    const answer = await step($('draft-problems'), () => api('/api/disk', {}));
    if (answer) { $('disk-diff').hidden = false; $('disk-diff').textContent = answer.diff || 'no difference'; }
  });
  $('take-disk').addEventListener('click', async () => { const view = await step($('draft-problems'), () => api('/api/reload', {})); if (view) { $('disk-diff').hidden = true; render(view); } });
  $('try-endpoint').addEventListener('change', renderTryParameters);
  $('preview').addEventListener('click', () => preview({ useResponse: state.hasResponse }));
  $('call').addEventListener('click', call);
  $('hold-secrets').addEventListener('click', holdSecrets);
  $('feed-endpoint').addEventListener('change', renderFeedFields);
  $('add-feed').addEventListener('click', () => {
    if (!$('feed-endpoint').value) {
      $('status').className = 'error';
      $('status').textContent = 'choose the endpoint of the feed first';
      return;
    }
    // A feed of an endpoint without parameters has none, as `ENDPOINT:` on the command line.
    const parameters = [...$('feed-fields').querySelectorAll('[data-template-param]')]
      .map((box) => [box.dataset.templateParam, box.querySelector('select').value, box.querySelector('input').value])
      .filter(([, , value]) => value !== '');
    feeds.push({ endpoint: $('feed-endpoint').value, parameters });
    $('feed-fields').querySelectorAll('input').forEach((input) => { input.value = ''; });
    renderFeeds();
  });
  $('build').addEventListener('click', build);
  $('hold-mnemonic').addEventListener('click', async () => {
    const value = $('mnemonic').value.trim();
    $('mnemonic').value = '';
    const answer = await step($('build-problems'), () => api('/api/secrets', { [state.mnemonicSecret]: value }));
    if (answer) { state.secrets = answer.secrets; renderMnemonic(); }
  });
  $('bn-add').addEventListener('click', () => saveFeed('addFeed'));
  $('bn-save').addEventListener('click', () => saveFeed('setFeed'));
  $('bn-batch').addEventListener('click', async () => {
    const names = [...$('by-name-table').tBodies[0].rows].filter((row) => row.querySelector('input').checked).map((row) => row.dataset.feed);
    // A batch refused (two feeds that would read one value) is said beside the feeds.
    const view = await step($('by-name-problems'), () => api('/api/edit', { kind: 'batchFeeds', names }));
    if (view) render(view);
  });
  $('save-config').addEventListener('click', () => save({ what: 'config', path: $('config-path').value, secretsPath: $('secrets-path').value || null, force: $('config-force').checked }, $('config-save-problems')));
  $('save-ids').addEventListener('click', () => save({ what: 'ids', path: $('ids-path').value, force: $('config-force').checked }, $('config-save-problems')));
  $('show-update').addEventListener('click', () => showUpdate({ path: $('update-select').value }));
  $('update-input').addEventListener('change', (e) => { const f = e.target.files[0]; if (f) readFile(f, (name, text) => showUpdate({ name, text })); });
  $('take-update').addEventListener('click', async () => { const view = await step($('update-problems'), () => api('/api/update/take', {})); if (view) { $('update-view').hidden = true; render(view); } });
  $('text-details').addEventListener('toggle', () => { if ($('text-details').open) showDraftText(); });
  $('download-ois').addEventListener('click', async (e) => {
    // The text is fetched first, then the link followed with it.
    if ($('download-ois').dataset.ready === 'yes') { $('download-ois').dataset.ready = ''; return; }
    e.preventDefault();
    const answer = await step($('save-problems'), () => api('/api/draft', {}));
    if (!answer) return;
    setDownload('download-ois', $('download-ois').download, answer.text);
    $('download-ois').dataset.ready = 'yes';
    $('download-ois').click();
  });
  $('apply-text').addEventListener('click', async () => { const view = await step($('draft-problems'), () => api('/api/text', $('draft-text').value)); if (view) render(view); });
}

wire();
// Another tab of the same studio may have changed the draft (or converted again): when this one
// comes back into view, it takes what the studio holds now instead of editing what it drew.
async function catchUp() {
  if (document.visibilityState !== 'visible' || !state) return false;
  let versions;
  try { versions = await api('/api/versions', undefined, { quiet: true }); } catch { return false; }
  const drawn = { draft: state.draft ? state.draft.version : null, conversion: state.openapi ? state.openapi.revision : null };
  if (versions.draft === drawn.draft && versions.conversion === drawn.conversion) return false;
  const view = await api('/api/state', undefined, { quiet: true });
  render(view);
  $('status').className = '';
  $('status').textContent = 'the draft changed in another tab: this is it now; make the change again if it still applies';
  return true;
}
document.addEventListener('visibilitychange', catchUp);
window.addEventListener('focus', catchUp);

api('/api/state').then((view) => { render(view); restore(); }).catch((error) => { $('status').textContent = String(error.message || error); });
