// ois studio's page, part 2 of 3 (joined in order into one script): 1. open, 2. operations,
// 3. endpoints and feeds by name.

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
  $('redo').disabled = !state.redo;
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

async function redo() {
  const view = await step($('save-problems'), () => api('/api/redo', { seen: state.draft ? state.draft.revision : null }));
  if (view) render(view);
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
  // A redraw (an answer arriving) keeps the feeds chosen: a check must not vanish under the click.
  const chosen = new Set([...table.tBodies[0].rows].filter((row) => row.querySelector('input')?.checked).map((row) => row.dataset.feed));
  table.tBodies[0].replaceChildren(...rows.map((feed) => el('tr', { 'data-feed': feed.name },
    el('td', {}, el('input', { type: 'checkbox', 'aria-label': `choose ${feed.name}`, checked: chosen.has(feed.name) })),
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
