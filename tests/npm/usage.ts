// A TypeScript integrator's script, type-checked with `tsc --strict` against the packed package's
// declarations (tests/it/npm_package.rs): what the README shows, and the reports' fields read.

import { OisError, call, convert, feed, request, validate } from 'ois-cli';
import type { CallConfigReport, Diagnostic, DiagnosticCode, Ois, OisEndpoint } from 'ois-cli';

export async function integrate(): Promise<string[]> {
  const { ois, diagnostics, summary } = await convert('coins.yaml', { target: 'airnode-feed@4', include: ['GET /simple/*'] });
  const typed: Ois = ois;
  const names: string[] = typed.endpoints.map((endpoint: OisEndpoint) => endpoint.name);
  const kept: number | undefined = summary?.operations_kept;
  const codes: DiagnosticCode[] = diagnostics.map((d: Diagnostic) => d.code);
  const verdict = await validate(ois, { strict: true });
  if (!verdict.valid) {
    const located: Array<[string | null, number | null]> = verdict.diagnostics.map((d) => [d.file, d.line]);
    return located.map(([file, line]) => `${file ?? '-'}:${line ?? 0}`);
  }
  const shown = await request(ois, names[0] ?? 'simplePrice', { ids: 'bitcoin', precision: 2, flags: ['a'] });
  const url: string | null = shown.url;
  try {
    const config: CallConfigReport = await call('config.json', null, null, { secrets: 'secrets.env', allFeeds: true });
    config.beacons.forEach((beacon) => beacon.templateId.startsWith('0x'));
  } catch (error) {
    if (error instanceof OisError) {
      const exit: number = error.exitCode;
      return [String(exit), ...error.diagnostics.map((d) => d.message)];
    }
    throw error;
  }
  const listed = await feed.list('api.ois.json');
  return [url ?? '', String(kept), ...codes, ...listed.feeds.map((f) => f.name)];
}
