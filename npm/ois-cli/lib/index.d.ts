// The API's own declarations. The reports they resolve to are in types.d.ts, generated from the
// Rust report types (npm/scripts/types.mjs): each is what the command prints with --format json.

import type {
  CallConfigReport,
  CallReport,
  ConvertReport,
  Diagnostic,
  EditReport,
  FeedExportReport,
  FeedListReport,
  FileVerdict,
  IdsReport,
  IdsVerifyReport,
  Ois,
  RequestReport,
  ScaffoldReport,
} from './types';

export * from './types';

/**
 * A document: a path (relative to `cwd`), its text (JSON or YAML; a string holding a line break or
 * starting with `{` or `[`), or the parsed object.
 */
export type Input = string | Ois | object;

/** A node a config or OIS is made for: `airnode-feed@4`, `airnode-feed@3`, `airnode@0.15`, `airnode-feed@4.2.0`, … */
export type NodeTarget = `airnode-feed@${string}` | `airnode@${string}`;

/** Options every call takes. */
export interface CommonOptions {
  /** The folder relative paths are read from (default: the process's). */
  cwd?: string;
}

export interface ConvertOptions extends CommonOptions {
  /** Also write the OIS to this file (default: only returned). */
  output?: string;
  /** Replace `output` (and `secretsOut`) when it exists. */
  force?: boolean;
  /** The node the OIS is for (default: the newest released, airnode-feed@4). */
  target?: NodeTarget;
  /** The OIS format to write instead of the target's: `2.3.x` or `3.0.x`. */
  oisFormat?: '2.3.x' | '3.0.x';
  /** Only operations matching these filters (`GET /coins/*`, `tag:prices`, an operation ID). */
  include?: string[];
  /** Leave out operations matching these filters. */
  exclude?: string[];
  /** The server: its index in the document, or a URL. */
  server?: string | number;
  /** Values of the server's variables. */
  serverVar?: Record<string, string>;
  /** The base URL when the document's server is relative or missing. */
  baseUrl?: string;
  /** The OIS title (it makes the endpoint IDs). */
  title?: string;
  /** The OIS version (x.y.z). */
  oisVersion?: string;
  /** Warnings fail the conversion. */
  strict?: boolean;
  /** The security schemes to use: `NAME[+NAME]`, or `none`. */
  security?: string;
  /** Query or header parameters that are API keys: `[LOCATION:]NAME`. */
  apiKeyParam?: string[];
  /** Write each parameter's default. */
  defaults?: boolean;
  /** Write the secrets template to this file. */
  secretsOut?: string;
  /** The name of each scheme's secret: `SCHEME=NAME`. */
  secretName?: string[];
  /** Folders `$ref`s may read besides the document's own. */
  allowRoot?: string[];
  /** Write no `.convert.json` record beside `output`. */
  noRecord?: boolean;
}

export interface ValidateOptions extends CommonOptions {
  /** The node that reads it. */
  target?: NodeTarget;
  /** The OIS format family to check against. */
  oisFormat?: '2.3.x' | '3.0.x';
  /** Warnings make it invalid. */
  strict?: boolean;
  /** A secrets file, for a config's `${VAR}`s. */
  secrets?: string;
  /** Run the feed tables on the answers recorded in this folder. */
  replay?: string;
  /** Two feeds of one call may have one value. */
  allowEqual?: boolean;
}

/** A requester parameter's value: a string as given, anything else as JSON. */
export type ParameterValue = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };

export interface RequestOptions extends CommonOptions {
  /** With a file of several OIS objects: the title of the one to use. */
  ois?: string;
  /** A secrets file: the credentials (the node's own secrets in it are never sent). */
  secrets?: string;
  /** Also read these secrets from the environment when the file lacks them. */
  envSecret?: string[];
  /** Another server than the OIS's (a mock, a staging host). */
  server?: string;
  /** Request metadata for relay schemes: `chainId`, `requesterAddress`, … */
  metadata?: Record<string, string>;
  /** `node` (airnode-node: defaults applied) or `feed` (Airnode Feed). */
  mode?: 'node' | 'feed';
  /** Show credential values instead of `****`. */
  showSecrets?: boolean;
  /** A response to encode the value from (a file). */
  response?: string;
}

export interface CallOptions extends Omit<RequestOptions, 'response'> {
  /** Seconds before the call gives up. */
  timeout?: number;
  /** The largest answer read, in bytes. */
  maxResponseBytes?: number;
  /** Keep each exchange in this folder (no credentials). */
  record?: string;
  /** Answer from the recordings of this folder; nothing is sent. */
  replay?: string;
}

export interface ConfigCallOptions extends CallOptions {
  /** Call every feed served by name. */
  allFeeds?: boolean;
  /** Calls at once. */
  jobs?: number;
  /** Two feeds of one call may have one value. */
  allowEqual?: boolean;
}

export interface IdsOptions extends CommonOptions {
  /** Templates: `ENDPOINT:NAME=TYPE:VALUE,…`. */
  template?: string[];
  /** A file of templates, one per line. */
  templates?: string;
  /** A template per feed served by name. */
  allFeeds?: boolean;
  /** The Airnode's address (else from the mnemonic of `secrets`). */
  airnode?: string;
  /** The environment variable holding the mnemonic. */
  mnemonicEnv?: string;
  /** A secrets file holding the mnemonic. */
  secrets?: string;
  /** Also the beacon set of the beacons. */
  set?: boolean;
}

export interface ScaffoldFeedOptions extends CommonOptions {
  /** Feeds: `ENDPOINT:NAME=TYPE:VALUE,…`. */
  feed?: string[];
  /** A file of feeds, one per line. */
  feeds?: string;
  /** The node release (default: the newest released Airnode Feed for the OIS's format). */
  target?: NodeTarget;
  /** A signed API to push to: `NAME=URL`. */
  signedApi?: string[];
  /** Seconds between fetches. */
  fetchInterval?: number;
  /** One API call for the templates that differ only in what their processing drops. */
  batch?: boolean;
  /** A template per feed served by name, a trigger per batch. */
  allFeeds?: boolean;
  /** Another server than the OIS's. */
  server?: string;
  /** Also write the config to this file (default: only returned). */
  output?: string;
  /** Write the secrets template to this file (its filled values kept). */
  secretsOut?: string;
  /** Replace files that exist. */
  force?: boolean;
  /** The name of each scheme's secret: `SCHEME=NAME`. */
  secretName?: string[];
}

export interface FeedOptions extends CommonOptions {
  /** With a file of several OIS objects: the title of the one to use. */
  ois?: string;
  /** Show the change and write nothing. */
  dryRun?: boolean;
}

export interface FeedValueOptions extends FeedOptions {
  /** The vendor operation: an operation ID of `openapi`'s document, or `GET /path`. */
  operation?: string;
  /** The vendor's OpenAPI document, to check the operation and parameters against. */
  openapi?: string;
  /** Vendor parameters, as text (a POST body's property typed as the document says). */
  param?: Record<string, string>;
  /** A POST body's properties with JSON values (`{ depth: 2, fields: ['last'] }`). */
  paramJson?: Record<string, unknown>;
  /** A POST operation's JSON body: an object, its text, or `@FILE`. */
  body?: string | Record<string, unknown>;
  /** The value's path in the response (`quotes.USD.price`). */
  value?: string;
  /** A parser from a .js file, `(response) => …`. */
  parser?: string;
}

export interface FeedSetOptions extends FeedValueOptions {
  /** Its new name. */
  rename?: string;
  /** Parameters taken away. */
  dropParam?: string[];
}

/** A command that failed: exit code 1 (the input has errors) or 2 (the call was wrong). */
export declare class OisError extends Error {
  readonly name: 'OisError';
  readonly exitCode: number;
  /** The JSON report the command printed, when it printed one. */
  readonly report: unknown;
  /** Every diagnostic of that report. */
  readonly diagnostics: Diagnostic[];
  /** What the command wrote for people. */
  readonly stderr: string;
  /** The arguments it ran with. */
  readonly args: string[];
}

/** An OpenAPI document converted: the report, and the OIS itself. */
export declare function convert(document: Input, options?: ConvertOptions): Promise<ConvertReport & { ois: Ois }>;

/** An OIS, a config or a Signed API config checked against every rule the nodes apply. */
export declare function validate(input: Input, options?: ValidateOptions): Promise<FileVerdict>;

/** The node's exact request for a call of `endpoint`, and the value it would encode from `options.response`. */
export declare function request(
  ois: Input,
  endpoint: string,
  parameters?: Readonly<Record<string, ParameterValue>>,
  options?: RequestOptions,
): Promise<RequestReport>;

/** The real API call of `endpoint` and the value the node would sign. */
export declare function call(
  ois: Input,
  endpoint: string,
  parameters?: Readonly<Record<string, ParameterValue>>,
  options?: CallOptions,
): Promise<CallReport>;
/** A whole config called as its node calls it: a row per beacon. */
export declare function call(config: Input, endpoint?: null, parameters?: null, options?: ConfigCallOptions): Promise<CallConfigReport>;

/** The endpoint, template, beacon and beacon-set IDs to deploy with. */
export declare function ids(input: Input, options?: IdsOptions): Promise<IdsReport>;

/** Every ID of a config derived again (resolves with `mismatches` when one differs). */
export declare function verifyIds(config: Input, options?: CommonOptions): Promise<IdsVerifyReport>;

/** A whole Airnode Feed config for an OIS: the report, and the config itself. */
export declare function scaffoldFeed(
  ois: Input,
  options?: ScaffoldFeedOptions,
): Promise<ScaffoldReport & { config: Record<string, unknown> }>;

/** Feeds by name: the OIS's `feed` endpoint made and kept in place (the file is given by its path). */
export declare const feed: {
  list(file: string, options?: FeedOptions): Promise<FeedListReport>;
  add(file: string, name: string, options: FeedValueOptions): Promise<EditReport>;
  set(file: string, name: string, options: FeedSetOptions): Promise<EditReport>;
  rm(file: string, names: string | readonly string[], options?: FeedOptions): Promise<EditReport>;
  batch(file: string, names?: readonly string[], options?: FeedOptions & { batches?: string; answer?: string }): Promise<EditReport>;
  import(
    file: string,
    from: string,
    options?: FeedOptions & {
      batches?: string;
      openapi?: string;
      /** An RPC feeds catalog's chains and their JSON-RPC URLs (`${NAME}` after the host: a secret). */
      chainUrl?: Record<string, string>;
      /** An RPC catalog's provider: each chain's OIS is titled `NAME CHAIN`. */
      provider?: string;
    },
  ): Promise<EditReport>;
  export(file: string, to: string, options?: FeedOptions & { batches?: string; force?: boolean }): Promise<FeedExportReport>;
};

/** What a command printed and its exit code, for what the API does not wrap. */
export interface RawResult {
  code: number;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Any command, its arguments as an array (no shell). */
export declare function raw(args: readonly string[], options?: CommonOptions & { input?: string; env?: Record<string, string> }): Promise<RawResult>;

/** The binary's version (`0.1.0`). */
export declare function version(): Promise<string>;

/** The path of the binary the API runs. */
export declare function binaryPath(): string;
