'use strict';
// Which installed binary runs: the platform package npm chose for this machine (by os, cpu and
// libc, from the optional dependencies), or OIS_BINARY when set (a binary built with cargo).

const fs = require('node:fs');
const path = require('node:path');
const platforms = require('./platforms.json');

/** Whether this Linux runs on musl (Alpine) rather than glibc. */
function isMusl() {
  if (process.platform !== 'linux') return false;
  try {
    const header = process.report && process.report.getReport().header;
    if (header) return !header.glibcVersionRuntime;
  } catch {
    // A report may be refused (a policy, a sandbox): the files below tell too.
  }
  return fs.existsSync('/etc/alpine-release') || fs.readdirSync('/lib').some((name) => name.startsWith('ld-musl-'));
}

/** The platform package for this machine, or undefined when none is published for it. */
function platformPackage() {
  const libc = isMusl() ? 'musl' : 'glibc';
  return platforms.find(
    (p) => p.os === process.platform && p.cpu === process.arch && (p.libc === undefined || p.libc === libc),
  );
}

/** The path of the ois binary to run; throws an Error saying what to do when there is none. */
function binaryPath() {
  const given = process.env.OIS_BINARY;
  if (given) return path.resolve(given);
  const entry = platformPackage();
  const where = `${process.platform} ${process.arch}${process.platform === 'linux' ? (isMusl() ? ' (musl)' : ' (glibc)') : ''}`;
  if (!entry) {
    throw new Error(`no prebuilt ois binary for ${where}: build one with \`cargo install ois\` and set OIS_BINARY to its path`);
  }
  const file = process.platform === 'win32' ? 'ois.exe' : 'ois';
  try {
    return require.resolve(`${entry.package}/bin/${file}`);
  } catch {
    throw new Error(
      `${entry.package}, the ois binary for ${where}, is not installed: npm installs it with ois-cli unless ` +
        'optional dependencies are left out (--omit=optional, --no-optional); install again without that',
    );
  }
}

module.exports = { binaryPath, platformPackage };
