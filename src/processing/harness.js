// Runs one processing phase the way @api3/commons does (node:vm contexts with the Node.js
// built-ins, `output` / `resolve` / V2 function calls, its timeouts), for `ois`'s `node` engine.
// Reads the job as JSON on standard input; writes one JSON line as the result. `FINISH` (the
// shared shape check) is prepended by the Rust side.
'use strict';
const vm = require('node:vm');

const builtins = {};
for (const name of BUILTIN_NAMES) builtins[name] = require(`node:${name}`);

const logs = [];
const MAX_LOG_LINES = 200;
// As the embedded engine keeps them: a line cut at 4,096 characters, 64 Ki characters in all.
const MAX_LINE_CHARS = 4096;
let charsLeft = 64 * 1024;
const util = require('node:util');
const write = (...values) => {
  if (logs.length >= MAX_LOG_LINES || charsLeft <= 0) return;
  let text = util.format(...values);
  const room = Math.min(MAX_LINE_CHARS, charsLeft);
  if (text.length > room) text = text.slice(0, room) + ` … (${text.length - room} more characters not shown)`;
  charsLeft -= text.length;
  logs.push(text);
};
// Snippets get the node:console module; ours records what they write instead of printing it.
builtins.console = { log: write, info: write, warn: write, error: write, debug: write, trace: write };

const createTimers = () => {
  const pending = [];
  return {
    // As commons: the id is not returned, so clearing from the snippet clears nothing.
    setTimeout: (fn, ms) => { pending.push(['t', setTimeout(fn, ms)]); },
    setInterval: (fn, ms) => { pending.push(['i', setInterval(fn, ms)]); },
    clearTimeout: (id) => clearTimeout(id),
    clearInterval: (id) => clearInterval(id),
    clearAll: () => {
      for (const [kind, id] of pending) (kind === 't' ? clearTimeout : clearInterval)(id);
      pending.length = 0;
    },
  };
};

const withTimeout = (promise, ms, message) => {
  if (ms === undefined) return promise;
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(message), { timedOut: true })), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
};

const options = (timeout) => ({ displayErrors: true, timeout, filename: 'snippet.js' });

const runSync = (code, globals, timeout) => {
  const context = { ...globals, ...builtins, deferredOutput: undefined };
  vm.runInNewContext(`${code}; deferredOutput = output;`, context, options(timeout));
  return context.deferredOutput;
};

const runAsync = (code, globals, timeout) => {
  let rejectOuter;
  const timeoutTimer = setTimeout(() => rejectOuter(Object.assign(new Error('Timeout exceeded'), { timedOut: true })), timeout);
  return new Promise((resolve, reject) => {
    const timers = createTimers();
    const done = (settle) => (value) => {
      timers.clearAll();
      clearTimeout(timeoutTimer);
      settle(value);
    };
    rejectOuter = done(reject);
    const context = {
      ...globals,
      ...builtins,
      resolve: done(resolve),
      reject: rejectOuter,
      setTimeout: timers.setTimeout,
      setInterval: timers.setInterval,
      clearTimeout: timers.clearTimeout,
      clearInterval: timers.clearInterval,
    };
    vm.runInNewContext(code, context, options(timeout));
  });
};

const runV2 = async (code, payload, timeout) => {
  const timers = createTimers();
  try {
    return await withTimeout(
      (async () =>
        vm.runInNewContext(`(async () => { return await (\n${code})(payload) })();`, {
          ...builtins,
          setTimeout: timers.setTimeout,
          setInterval: timers.setInterval,
          clearTimeout: timers.clearTimeout,
          clearInterval: timers.clearInterval,
          payload,
        }, options(timeout)))(),
      timeout,
      'Timeout exceeded',
    );
  } finally {
    timers.clearAll();
  }
};

const runPhase = async (job) => {
  const parameters = job.parameters;
  if (job.v2) {
    const snippet = job.snippets[0];
    const payload = job.phase === 'post' ? { response: job.input, endpointParameters: parameters } : { endpointParameters: parameters };
    return [0, await runV2(snippet.code, payload, snippet.timeoutMs)];
  }
  let current = job.input;
  for (const [index, snippet] of job.snippets.entries()) {
    const globals = { input: current, endpointParameters: structuredClone(parameters) };
    try {
      current = snippet.environment === 'Node'
        ? runSync(snippet.code, globals, snippet.timeoutMs)
        : await runAsync(snippet.code, globals, snippet.timeoutMs);
    } catch (error) {
      throw { snippetFailure: true, index, error };
    }
  }
  return [job.snippets.length - 1, current];
};

const describe = (error) => {
  if (error === null || typeof error !== 'object') {
    return { kind: 'threw', name: '', message: typeof error === 'string' ? `"${error}"` : String(error), stack: '' };
  }
  const stack = String(error.stack ?? '');
  const name = String(error.name ?? 'Error');
  if (error.timedOut || error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { kind: 'timeout', name, message: String(error.message), stack };
  if (name === 'SyntaxError' && stack.startsWith('snippet.js:')) return { kind: 'syntax', name, message: String(error.message), stack };
  return { kind: 'threw', name, message: String(error.message ?? error), stack };
};

const main = async () => {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  let result;
  try {
    const [, value] = await withTimeout(runPhase(job), job.phaseTimeoutMs, 'the phase ran past the node\'s time');
    const [kind, text, timestamp] = FINISH(job.phase, job.v2, value, job.requireResponse);
    result = { kind, text, timestamp };
  } catch (caught) {
    const inSnippet = caught !== null && typeof caught === 'object' && caught.snippetFailure === true;
    result = { ...describe(inSnippet ? caught.error : caught), snippetIndex: inSnippet ? caught.index : 0 };
  }
  result.logs = logs;
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
};

main();
