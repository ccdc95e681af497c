// ois studio's page: shows what the studio's session holds and sends each step to it. Nothing is
// decided here: every rule, conversion, edit, request, call and config is the ois library's.
// Text from documents and APIs is only ever set as text (never as HTML).
// Part 1 of 3 (src/studio/assets/js/, joined in order into one script when built): talking to the
// studio, building the page, what it keeps, long lists.
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
