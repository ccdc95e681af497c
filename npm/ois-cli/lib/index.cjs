'use strict';
// The typed API over the ois binary: each call runs one command with `--format json` (or
// `--report json`) and resolves to the report it prints, the one schema `ois schema --reports`
// gives. Arguments go to the binary as an array (no shell); a document given as an object or as
// text goes through standard input or a private temporary file, removed afterwards.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { binaryPath } = require('./binary.cjs');

/** A command that failed: its exit code, its JSON report when it printed one, and its words. */
class OisError extends Error {
  constructor(message, { exitCode, report, stderr, args }) {
    super(message);
    this.name = 'OisError';
    /** 1: the input has errors (or --strict warnings); 2: the call itself was wrong. */
    this.exitCode = exitCode;
    /** The report the command printed (its diagnostics say why), when it printed one. */
    this.report = report;
    /** Every diagnostic of the report (empty when there is none). */
    this.diagnostics = (report && Array.isArray(report.diagnostics) && report.diagnostics) || [];
    /** What the command wrote for people, on standard error. */
    this.stderr = stderr;
    /** The arguments it was run with. */
    this.args = args;
  }
}

const kebab = (key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * `options` as flags: `true` → `--name`, a value → `--name value`, an array → the flag repeated,
 * an object → `--name KEY=VALUE` for each of its entries.
 */
function flags(options, skip = []) {
  const out = [];
  for (const [key, value] of Object.entries(options || {})) {
    if (skip.includes(key) || value === undefined || value === null || value === false) continue;
    const flag = `--${kebab(key)}`;
    if (value === true) out.push(flag);
    else if (Array.isArray(value)) for (const item of value) out.push(flag, String(item));
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(flag, `${k}=${v}`);
    else out.push(flag, String(value));
  }
  return out;
}

/** Requester parameters as `--param NAME=VALUE` (strings) and `--param-json NAME=JSON` (the rest). */
function parameterFlags(parameters) {
  const out = [];
  for (const [name, value] of Object.entries(parameters || {})) {
    if (typeof value === 'string') out.push('--param', `${name}=${value}`);
    else out.push('--param-json', `${name}=${JSON.stringify(value)}`);
  }
  return out;
}

/** A string holding a document rather than naming a file: a line break, or JSON's first bracket. */
const isText = (value) => typeof value === 'string' && (/[\r\n]/.test(value) || /^\s*[{[]/.test(value));

/**
 * Where a command reads `input`: a path as given, else the document's text, written to standard
 * input (`stdin: true`, for commands that read `-`) or to a file of a private temporary folder.
 */
async function place(input, name, tmp, stdin) {
  if (typeof input === 'string' && !isText(input)) return { arg: input };
  const text = typeof input === 'string' ? input : JSON.stringify(input, null, 2);
  if (input === null || (typeof input !== 'string' && typeof input !== 'object')) {
    throw new TypeError(`${name}: expected a path, a document's text or an object, got ${typeof input}`);
  }
  if (stdin) return { arg: '-', text };
  const file = path.join(await tmp(), /^\s*[{[]/.test(text) ? `${name}.json` : `${name}.yaml`);
  await fs.promises.writeFile(file, text, { mode: 0o600 });
  return { arg: file };
}

/** A private temporary folder made on first use, and its removal. */
function scratch() {
  let dir;
  return {
    async dir() {
      dir = dir || (await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ois-')));
      return dir;
    },
    async remove() {
      if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the binary with `args`; resolves to its exit code and output, whatever the code. */
function run(args, { input, cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(binaryPath(), args, {
        cwd,
        env: { ...process.env, ...env, NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      reject(error);
      return;
    }
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code: code === null ? (signal ? 128 : 1) : code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => {}); // a command that does not read its input closes it early
    child.stdin.end(input === undefined ? '' : input);
  });
}

const parse = (text) => {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** The report a run printed; an OisError when it failed (or printed none) unless `failing` accepts it. */
function reportOf(result, args, { from = 'stdout', accept = [0] } = {}) {
  const report = parse(result[from]);
  if (accept.includes(result.code) && report !== undefined) return report;
  const said = report === undefined ? result.stderr : '';
  const stop = report && Array.isArray(report.diagnostics) && report.diagnostics.findLast((d) => d.severity === 'error');
  const first = (stop && `${stop.code}: ${stop.message}`) || said.split('\n').find((line) => line.trim()) || `ois exited with ${result.code}`;
  throw new OisError(first, { exitCode: result.code, report, stderr: result.stderr, args });
}

/** Runs `build(tmp)`'s arguments, and removes the temporary folder whatever happened. */
async function withScratch(build) {
  const tmp = scratch();
  try {
    return await build(() => tmp.dir());
  } finally {
    await tmp.remove();
  }
}

async function convert(document, options = {}) {
  return withScratch(async (tmp) => {
    const { arg, text } = await place(document, 'openapi', tmp, true);
    const output = options.output || path.join(await tmp(), 'ois.json');
    const args = ['convert', arg, '-o', output, '--format', 'json', '--report', 'json', ...flags(options, ['output', 'cwd'])];
    const result = await run(args, { input: text, cwd: options.cwd });
    const report = reportOf(result, args, { from: 'stderr' });
    const ois = JSON.parse(await fs.promises.readFile(path.resolve(options.cwd || '.', output), 'utf8'));
    return { ...report, ois };
  });
}

async function validate(input, options = {}) {
  return withScratch(async (tmp) => {
    const { arg, text } = await place(input, 'input', tmp, true);
    const args = ['validate', arg, '--format', 'json', ...flags(options, ['cwd'])];
    const verdicts = reportOf(await run(args, { input: text, cwd: options.cwd }), args, { accept: [0, 1] });
    return verdicts[0];
  });
}

async function request(ois, endpointName, parameters, options = {}) {
  return exchange('request', ois, endpointName, parameters, options);
}

async function call(input, endpointName, parameters, options = {}) {
  if (endpointName === undefined || endpointName === null) {
    return withScratch(async (tmp) => {
      const { arg, text } = await place(input, 'config', tmp, true);
      const args = ['call', arg, '--format', 'json', ...flags(options, ['cwd'])];
      return reportOf(await run(args, { input: text, cwd: options.cwd }), args);
    });
  }
  return exchange('call', input, endpointName, parameters, options);
}

async function exchange(command, ois, endpointName, parameters, options) {
  return withScratch(async (tmp) => {
    const { arg, text } = await place(ois, 'ois', tmp, true);
    const args = [command, arg, '--endpoint', endpointName, ...parameterFlags(parameters), '--format', 'json'];
    args.push(...flags(options, ['cwd']));
    return reportOf(await run(args, { input: text, cwd: options.cwd }), args);
  });
}

async function ids(input, options = {}) {
  return withScratch(async (tmp) => {
    const { arg } = await place(input, 'input', tmp, false);
    const args = ['ids', arg, '--format', 'json', ...flags(options, ['cwd'])];
    return reportOf(await run(args, { cwd: options.cwd }), args);
  });
}

async function verifyIds(config, options = {}) {
  return withScratch(async (tmp) => {
    const { arg } = await place(config, 'config', tmp, false);
    const args = ['ids', 'verify', arg, '--format', 'json', ...flags(options, ['cwd'])];
    return reportOf(await run(args, { cwd: options.cwd }), args, { accept: [0, 1] });
  });
}

async function scaffoldFeed(ois, options = {}) {
  return withScratch(async (tmp) => {
    const { arg } = await place(ois, 'ois', tmp, false);
    const output = options.output || path.join(await tmp(), 'airnode-feed.json');
    const args = ['scaffold', 'feed', arg, '-o', output, '--report', 'json', ...flags(options, ['output', 'cwd'])];
    const report = reportOf(await run(args, { cwd: options.cwd }), args, { from: 'stderr' });
    const config = JSON.parse(await fs.promises.readFile(path.resolve(options.cwd || '.', output), 'utf8'));
    return { ...report, config };
  });
}

/** `ois feed COMMAND FILE …ARGS --format json`: every feed command edits or reads a file in place. */
async function feedCommand(command, file, rest, options) {
  if (typeof file !== 'string' || isText(file)) {
    throw new TypeError(`feed.${command}: the OIS is edited in place, so it is given by its path`);
  }
  // A POST body and body properties go as JSON, whatever their type (`--body`, `--param-json`).
  const { body, paramJson, ...plain } = options;
  const json = [];
  if (body !== undefined && body !== null) json.push('--body', typeof body === 'string' ? body : JSON.stringify(body));
  for (const [name, value] of Object.entries(paramJson || {})) json.push('--param-json', `${name}=${JSON.stringify(value)}`);
  const args = ['feed', command, file, ...rest, '--format', 'json', ...flags(plain, ['cwd']), ...json];
  return reportOf(await run(args, { cwd: options.cwd }), args);
}

const feed = {
  list: (file, options = {}) => feedCommand('list', file, [], options),
  add: (file, name, options = {}) => feedCommand('add', file, [name], options),
  set: (file, name, options = {}) => feedCommand('set', file, [name], options),
  rm: (file, names, options = {}) => feedCommand('rm', file, [].concat(names), options),
  batch: (file, names, options = {}) => feedCommand('batch', file, [].concat(names || []), options),
  import: (file, from, options = {}) => feedCommand('import', file, [from], options),
  export: (file, to, options = {}) => feedCommand('export', file, [to], options),
};

/** Any command with its own arguments: its exit code and output, for what the API does not wrap. */
async function raw(args, options = {}) {
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    throw new TypeError('raw: the arguments are an array of strings');
  }
  return run(args, options);
}

async function version() {
  const result = await run(['--version']);
  return result.stdout.trim().replace(/^ois\s+/, '');
}

module.exports = { convert, validate, request, call, ids, verifyIds, scaffoldFeed, feed, raw, version, OisError, binaryPath };
