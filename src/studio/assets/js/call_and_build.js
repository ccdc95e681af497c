// ois studio's page, part 3 of 3 (joined in order into one script): 4. request and call,
// 5. feeds and the node's config, 6. update, and the whole page.

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
  const started = performance.now();
  const answer = await step($('try-problems'), () => api('/api/request', callBody(extra)));
  if (!answer) return;
  $('try-problems').replaceChildren(...diagnostics(answer.diagnostics));
  showRequest(answer.exchange, answer.curl);
  timed('Preview', started);
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
    // The copy button beside the summary, not in it: a control inside a summary's control is
    // one a keyboard or a screen reader cannot reach alone.
    view.append(el('details', { open: true, 'data-testid': 'answer-tree' }, el('summary', { text: 'the whole answer' }), copy,
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

// The last calls, newest first: each with what came of it, its answer, and a button making it
// again (its endpoint, parameters, server and node put back in the form first).
async function showPastCalls() {
  let answer;
  try { answer = await api('/api/calls', {}, { quiet: true }); } catch { return; }
  const calls = answer.calls || [];
  if (!calls.length) { $('past-calls').replaceChildren(); return; }
  $('past-calls').replaceChildren(el('h3', { text: 'Last calls' }), el('ol', { class: 'past' }, ...calls.map((past) => {
    const asked = past.request.parameters.map(([n, v]) => `${n}=${v}`).join(' ');
    const outcome = past.refused
      ? `refused: ${past.refused}`
      : `${past.status} in ${past.latencyMs} ms${past.values ? `: ${past.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}` : ''}`;
    const again = el('button', { type: 'button', class: 'plain', text: 'call again', onclick: () => callAgain(past.request) });
    return el('li', { 'data-testid': 'past-call' },
      el('span', { class: 'muted', text: `${new Date(past.at * 1000).toLocaleTimeString()} ` }),
      el('code', { text: `${past.request.endpoint}${asked ? ` ${asked}` : ''}` }), ` → ${outcome} `, again,
      past.answer !== null && past.answer !== undefined
        ? el('details', {}, el('summary', { text: 'its answer' }), el('pre', { text: JSON.stringify(past.answer, null, 2) }))
        : null);
  })));
}

async function callAgain(request) {
  $('try-endpoint').value = request.endpoint;
  renderTryParameters();
  const given = Object.fromEntries(request.parameters);
  $('try-params').querySelectorAll('input').forEach((input) => { input.value = given[input.dataset.param] || ''; });
  $('try-server').value = request.server || '';
  $('try-record').value = request.record || '';
  $('try-feed').checked = request.feed;
  await call();
}

async function call() {
  try {
    await callOnce();
  } finally {
    await showPastCalls();
  }
}

async function callOnce() {
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

// What is live of the config built: its Signed API read, each beacon judged as `ois status` does
// (the mnemonic held says which beacons are the deployment's; the API keys held call the API now).
async function checkLive() {
  const token = $('live-token').value;
  if (token) {
    await step($('live-problems'), () => api('/api/secrets', { SIGNED_API_REAL_TIME_TOKEN: token }));
    $('live-token').value = '';
  }
  const body = { signedApiUrl: $('live-url').value.trim() || null, server: $('build-server').value.trim() || null };
  const answer = await step($('live-problems'), () => api('/api/status', body));
  if (!answer) { $('live-view').replaceChildren(); return; }
  $('live-problems').replaceChildren(...diagnostics(answer.diagnostics));
  $('live-view').replaceChildren(
    el('p', { text: `${answer.live} live, ${answer.failing} not, at ${answer.signedApi} (Airnode ${answer.airnode})` }),
    el('table', {}, el('thead', {}, el('tr', {}, ...['Beacon', 'Feed', 'Age', 'Pushed', 'API now', 'Verdict'].map((h) => el('th', { text: h })))),
      el('tbody', {}, ...answer.beacons.map((b) => el('tr', { 'data-verdict': b.verdict },
        el('td', {}, el('code', { text: `${b.beaconId.slice(0, 10)}…` })),
        el('td', { text: b.feed || b.endpoint }),
        el('td', { text: b.ageSeconds === null || b.ageSeconds === undefined ? '—' : `${b.ageSeconds} s` }),
        el('td', { text: b.pushed || '—' }),
        el('td', { text: b.now || '—' }),
        el('td', { class: b.verdict === 'live' ? '' : 'error', text: b.verdict }))))));
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
  $('redo').addEventListener('click', redo);
  document.addEventListener('keydown', (e) => {
    const typing = ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName);
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && key === 'z' && !e.shiftKey && !typing && state.draft) { e.preventDefault(); undo(); }
    const redoKey = (key === 'z' && e.shiftKey) || (key === 'y' && !e.shiftKey);
    if ((e.ctrlKey || e.metaKey) && redoKey && !typing && state.draft) { e.preventDefault(); redo(); }
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
  $('live-check').addEventListener('click', checkLive);
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
    if (view) {
      render(view);
      // Batched: the choice is done with.
      for (const box of $('by-name-table').querySelectorAll('input')) box.checked = false;
    }
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
