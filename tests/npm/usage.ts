// A TypeScript integrator's script against the packed package (tests/it/npm_package.rs): compiled
// with `tsc --strict` and run with node. It prints one line per step, which the test reads.

import { OisError, call, convert, feed, request, scaffoldFeed, validate, verifyIds } from 'ois-cli';
import type { CallConfigReport, Diagnostic, DiagnosticCode, Ois, OisEndpoint } from 'ois-cli';

export async function integrate(): Promise<string[]> {
  const { ois, diagnostics, summary } = await convert('coins.yaml', { target: 'airnode-feed@4' });
  const typed: Ois = ois;
  const names: string[] = typed.endpoints.map((endpoint: OisEndpoint) => endpoint.name);
  const codes: DiagnosticCode[] = diagnostics.map((d: Diagnostic) => d.code);
  const lines = [`converted ${summary?.operations_kept ?? 0} operations: ${names.join(' ')} (${codes.length} diagnostics)`];

  const verdict = await validate(ois);
  lines.push(`valid ${verdict.valid}, ${verdict.counts.errors} errors`);

  const shown = await request(ois, 'simplePrice', { ids: 'bitcoin', vs_currencies: 'usd', precision: 2 });
  lines.push(`${shown.method ?? '-'} ${shown.url ?? '-'}`);

  const feedSpec = 'simplePrice:ids=string:bitcoin,vs_currencies=string:usd,_type=string:int256,_path=string:bitcoin.usd';
  const scaffolded = await scaffoldFeed(ois, { feed: [feedSpec], output: 'feed-config.json', force: true });
  const verified = await verifyIds('feed-config.json');
  lines.push(`${scaffolded.node}: ${scaffolded.templates.length} template(s), ${verified.mismatches} ID(s) wrong`);

  try {
    await feed.list('no-such.ois.json');
  } catch (error) {
    if (!(error instanceof OisError)) throw error;
    const exit: number = error.exitCode;
    lines.push(`refused (exit ${exit}): ${error.diagnostics.map((d) => d.code).join(' ')}`);
  }
  return lines;
}

/** Typed here, not run: it calls the API the config names. */
export async function watch(config: string): Promise<number> {
  const report: CallConfigReport = await call(config, null, null, { secrets: 'secrets.env', allFeeds: true });
  return report.beacons.filter((beacon) => beacon.verdict !== 'ok').length;
}

// A rejection is left unhandled: node then exits 1 with it.
void integrate().then((lines) => console.log(lines.join('\n')));
