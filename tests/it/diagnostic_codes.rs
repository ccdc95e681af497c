//! One test per diagnostic code, as ruff has a snapshot per rule: an input that triggers the code,
//! and the diagnostic rendered as a person sees it (code, message, file:line:column, pointer, help)
//! in `tests/codes/<CODE>.txt`. Adding a code without a test fails `every_code_has_a_test`.
//!
//! Each code's input is a fixture beside its snapshot (`tests/codes/<CODE>.<kind>`, and a
//! `<CODE>.in/` folder of files for a command line); [`fixtures`] says which kind runs how. Only
//! the cases with no input to write down stay here ([`cases`]).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // tests fail by panicking

use crate::common;
#[path = "diagnostic_codes/fixtures.rs"]
mod fixtures;
#[path = "diagnostic_codes/status.rs"]
pub(crate) mod status;

use std::sync::OnceLock;

use serde_json::{Value, json};

use ois::Source;
use ois::report::{RenderStyle, render};
use ois::{Code, Diagnostic};
use ois::{ConvertOptions, convert};

/// One diagnostic as a person sees it: its code, and the text `ois` renders for it (plain).
type Shown = (Code, String);

/// Renders `diagnostics` (located in `source` when they point into it).
fn shown(diagnostics: &[Diagnostic], source: Option<&Source>) -> Vec<Shown> {
    diagnostics
        .iter()
        .map(|diagnostic| {
            let mut diagnostic = diagnostic.clone();
            if let Some(source) = source {
                source.locate_diagnostic(&mut diagnostic);
            }
            (diagnostic.code, render(&diagnostic, RenderStyle::default(), source))
        })
        .collect()
}

/// Diagnostics of converting `source`, rendered.
fn converted(source: &Source, options: &ConvertOptions) -> Vec<Shown> {
    match convert(source, options) {
        Ok(conversion) => shown(&conversion.diagnostics, Some(source)),
        Err(failure) => shown(&failure.diagnostics, Some(source)),
    }
}

fn text_codes(name: &str, bytes: &[u8]) -> Vec<Shown> {
    match Source::from_bytes(name, None, bytes.to_vec()) {
        Ok(source) => converted(&source, &ConvertOptions::default()),
        Err(diagnostic) => shown(&[diagnostic], None),
    }
}

/// Calling the base OIS's endpoint with a V2 `phase`-processing snippet, in the embedded engine.
fn processing_codes(phase: &str, code: &str) -> Vec<Shown> {
    use ois::processing::Engine;
    use ois::request::{RequestOptions, exchange};
    let mut ois = common::base_ois();
    let snippet = json!({"environment": "Node", "value": code, "timeoutMs": 300});
    ois["endpoints"][0][format!("{phase}ProcessingSpecificationV2")] = snippet;
    let mut options = RequestOptions::new("item");
    options.parameters.insert("id".into(), json!("1"));
    match exchange(&ois, &options, &Engine::Embedded, Some(&json!({"price": 1})), 0) {
        Ok(_) => Vec::new(),
        Err(stopped) => shown(&[stopped.diagnostic], None),
    }
}

/// Building a request of `ois` for `call`: `{"endpoint", "parameters", "credentials": [[SCHEME,
/// VALUE]], "metadata": {"chainId", …}}`.
fn request_codes(ois: Value, call: &Value) -> Vec<Shown> {
    use ois::request::{Credential, Metadata, RequestOptions, build};
    let mut options = RequestOptions::new(call["endpoint"].as_str().unwrap());
    options.parameters = call["parameters"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let credentials: Vec<(String, String)> = serde_json::from_value(call["credentials"].clone()).unwrap();
    options.credentials =
        credentials.into_iter().map(|(scheme, value)| Credential { ois_title: "Base".into(), scheme, value }).collect();
    if let Some(metadata) = call["metadata"].as_object() {
        let field = |name: &str| metadata.get(name).and_then(Value::as_str).map(str::to_owned);
        options.metadata = Some(Metadata {
            chain_id: field("chainId"),
            chain_type: field("chainType"),
            requester_address: field("requesterAddress"),
            sponsor_address: field("sponsorAddress"),
            sponsor_wallet_address: field("sponsorWalletAddress"),
            request_id: field("requestId"),
        });
    }
    let source = Source::from_text("ois.json", None, serde_json::to_string_pretty(&ois).unwrap());
    match build(&ois, &options) {
        Ok(request) => shown(&request.diagnostics(), Some(&source)),
        Err(error) => shown(&[error], Some(&source)),
    }
}

fn response_codes(data: Value, reserved: Value) -> Vec<Shown> {
    match ois::request::extract_and_encode(&data, reserved.as_object().unwrap(), 0) {
        Ok(_) => vec![],
        Err(error) => shown(&[error], None),
    }
}

/// Each diagnostic of a JSON report (`--report json`; a batch's is a list of them), by its code.
fn json_report_codes(stderr: &[u8]) -> Vec<Shown> {
    let report: Value = serde_json::from_slice(stderr).expect("JSON report");
    let reports = match &report {
        Value::Array(reports) => reports.iter().collect(),
        report => vec![report],
    };
    reports
        .into_iter()
        .flat_map(|report| report["diagnostics"].as_array().expect("diagnostics"))
        .filter_map(|d| {
            let code = Code::ALL.iter().copied().find(|code| d["code"] == code.as_str())?;
            Some((code, serde_json::to_string_pretty(d).unwrap() + "\n"))
        })
        .collect()
}

/// Every case: the fixtures', and the two with no input to write down: a host name that does not
/// resolve (looking one up would leave this machine) and a studio asked for a file above its
/// folder (the studio is a server; its own tests go through sockets).
fn cases() -> Vec<(Code, Vec<Shown>)> {
    let mut cases = fixtures::cases();
    cases.extend(status::cases());
    cases.push((
        Code::HostNotFound,
        shown(&[ois::call::host_not_found("api.example.invalid", "Name or service not known")], None),
    ));
    cases.push((Code::PathOutsideFolder, {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = ois::studio::Folder::new(dir.path()).expect("the folder");
        shown(&[folder.existing("../config.json").expect_err("must refuse")], None)
    }));
    cases
}

/// A relative server with a base URL given is no longer relative: no CNV002.
#[test]
fn a_base_url_resolves_a_relative_server() {
    let text = std::fs::read_to_string(fixtures::folder().join("CNV002.in/openapi.json")).unwrap();
    let source = Source::from_text("openapi.json", None, text);
    let options = ConvertOptions::default().with_base_url("https://base.example");
    assert!(!converted(&source, &options).iter().any(|(code, _)| *code == Code::RelativeServer));
    assert!(converted(&source, &ConvertOptions::default()).iter().any(|(code, _)| *code == Code::RelativeServer));
}

/// Every case, computed once for all the tests of this file.
fn all_cases() -> &'static [(Code, Vec<Shown>)] {
    static CASES: OnceLock<Vec<(Code, Vec<Shown>)>> = OnceLock::new();
    CASES.get_or_init(cases)
}

/// The first case for `code` produces it, rendered exactly as `tests/codes/<CODE>.txt` says
/// (`EXPECTORATE=overwrite cargo test --test it diagnostic_codes` rewrites them; review the diff), and
/// every further case of it (`<CODE>.2.<kind>`, …) produces it too.
fn check(code: Code) {
    let mut of_code = all_cases().iter().filter(|(c, _)| *c == code).map(|(_, produced)| produced);
    let first = of_code.next().unwrap_or_else(|| panic!("{code} has no case"));
    for produced in std::iter::once(first).chain(of_code) {
        if !produced.iter().any(|(c, _)| *c == code) {
            let codes: Vec<Code> = produced.iter().map(|(c, _)| *c).collect();
            panic!("{code}: a case produced {codes:?}");
        }
    }
    let text = first.iter().find(|(c, _)| *c == code).map(|(_, text)| text.as_str()).unwrap_or_default();
    let path = format!("{}/tests/codes/{code}.txt", env!("CARGO_MANIFEST_DIR"));
    expectorate::assert_contents(path, text);
}

macro_rules! one_test_per_code {
    ($($test:ident: $code:ident,)*) => {
        $(
            #[test]
            fn $test() {
                check(Code::$code);
            }
        )*

        #[test]
        fn every_code_has_a_test() {
            let tested = [$(Code::$code,)*];
            let missing: Vec<&Code> = Code::ALL.iter().filter(|c| !tested.contains(c)).collect();
            assert!(missing.is_empty(), "codes without a test: {missing:?}");
        }
    };
}

one_test_per_code! {
    ois081_node_secret_as_credential: NodeSecretAsCredential,
    ois082_unreleased_node_version: UnreleasedNodeVersion,
    ois083_configs_disagree: ConfigsDisagree,
    ois084_duplicate_entry: DuplicateEntry,
    ois085_fetch_interval_too_short: FetchIntervalTooShort,
    ois086_template_credential: TemplateCredential,
    ois087_batch_split: BatchSplit,
    ois088_feed_without_parser: FeedWithoutParser,
    ois089_feed_parser_broken: FeedParserBroken,
    ois090_feed_name_unusable: FeedNameUnusable,
    ois091_node_secret_out_of_place: NodeSecretOutOfPlace,
    ois092_feeds_read_one_value: FeedsReadOneValue,
    ois093_node_version_not_target: NodeVersionNotTarget,
    ois094_unused_endpoints: UnusedEndpoints,
    ois095_values_replayed: ValuesReplayed,
    ois096_rrp_templates_unchecked: RrpTemplatesUnchecked,
    cnv074_secret_name_suffixed: SecretNameSuffixed,
    cnv075_credential_looking_parameter: CredentialLookingParameter,
    cnv092_feed_operation_gone: FeedOperationGone,
    ois073_bad_template_parameter: BadTemplateParameter,
    ois074_template_value_surprise: TemplateValueSurprise,
    ois075_id_mismatch: IdMismatch,
    cal001_host_not_found: HostNotFound,
    cal002_connection_failed: ConnectionFailed,
    cal003_tls_failed: TlsFailed,
    cal004_call_timeout: CallTimeout,
    cal005_redirect_loop: RedirectLoop,
    cal006_http_status: HttpStatus,
    cal007_not_json: NotJson,
    cal008_response_too_large: ResponseTooLarge,
    cal009_call_failed: CallFailed,
    cal010_credential_redirected: CredentialRedirected,
    cal011_no_recording: NoRecording,
    cal012_answer_drifted: AnswerDrifted,
    cal013_values_equal: ValuesEqual,
    edt001_bad_edit: BadEdit,
    edt002_edit_breaks_ois: EditBreaksOis,
    edt003_edit_note: EditNote,
    edt004_bad_feed: BadFeed,
    edt005_feed_table_unreadable: FeedTableUnreadable,
    ois071_snippet_unrunnable: SnippetUnrunnable,
    ois072_no_snippet_result: NoSnippetResult,
    req030_processing_syntax: ProcessingSyntax,
    req031_processing_threw: ProcessingThrew,
    req032_processing_timeout: ProcessingTimeout,
    req033_processing_shape: ProcessingShape,
    req034_processing_value: ProcessingValue,
    req035_node_builtin: NodeBuiltin,
    req036_processing_engine: ProcessingEngine,
    req037_unsandboxed: Unsandboxed,
    inp001_input_unreadable: InputUnreadable,
    inp002_input_not_utf8: InputNotUtf8,
    inp003_input_empty: InputEmpty,
    inp004_json_syntax: JsonSyntax,
    inp005_yaml_syntax: YamlSyntax,
    inp006_too_deep: TooDeep,
    inp007_duplicate_key: DuplicateKey,
    inp008_alias_limit: AliasLimit,
    inp009_root_not_object: RootNotObject,
    inp010_not_a_number: NotANumber,
    inp011_input_too_large: InputTooLarge,
    inp012_input_not_regular: InputNotRegular,
    inp013_tag_ignored: TagIgnored,
    inp015_too_many_values: TooManyValues,
    oas001_not_open_api: NotOpenApi,
    oas002_unsupported_version: UnsupportedVersion,
    oas010_ref_missing: RefMissing,
    oas011_ref_cycle: RefCycle,
    oas012_ref_external: RefExternal,
    oas013_ref_url: RefUrl,
    oas014_ref_malformed: RefMalformed,
    oas015_ref_escapes: RefEscapes,
    oas020_invalid_item: InvalidItem,
    oas021_schema_too_deep: SchemaTooDeep,
    cnv001_no_server: NoServer,
    cnv002_relative_server: RelativeServer,
    cnv003_bad_server_url: BadServerUrl,
    cnv004_server_choice: ServerChoice,
    cnv005_server_variable: ServerVariable,
    cnv006_server_chosen: ServerChosen,
    cnv007_operation_server: OperationServer,
    cnv008_base_url_unused: BaseUrlUnused,
    cnv009_server_variable_template: ServerVariableTemplate,
    cnv020_scheme_as_bearer: SchemeAsBearer,
    cnv021_scheme_dropped: SchemeDropped,
    cnv022_security_unmet: SecurityUnmet,
    cnv023_security_choice: SecurityChoice,
    cnv024_scheme_undefined: SchemeUndefined,
    cnv025_security_not_available: SecurityNotAvailable,
    cnv026_security_clash: SecurityClash,
    cnv030_method_skipped: MethodSkipped,
    cnv031_path_unusable: PathUnusable,
    cnv032_no_operations: NoOperations,
    cnv033_path_reserved_placeholder: PathReservedPlaceholder,
    cnv034_bad_filter: BadFilter,
    cnv035_operations_filtered: OperationsFiltered,
    cnv036_not_open_api_file: NotOpenApiFile,
    cnv037_filter_unmatched: FilterUnmatched,
    cnv040_header_ignored: HeaderIgnored,
    cnv041_reserved_name: ReservedName,
    cnv042_path_param_added: PathParamAdded,
    cnv043_path_param_dropped: PathParamDropped,
    cnv044_duplicate_parameter: DuplicateParameter,
    cnv045_param_location: ParamLocation,
    cnv046_param_renamed: ParamRenamed,
    cnv047_default_not_written: DefaultNotWritten,
    cnv048_header_name_invalid: HeaderNameInvalid,
    cnv050_body_on_get: BodyOnGet,
    cnv051_body_unsupported: BodyUnsupported,
    cnv052_body_form_encoded: BodyFormEncoded,
    cnv053_body_nested: BodyNested,
    cnv054_body_union: BodyUnion,
    cnv055_body_not_object: BodyNotObject,
    cnv056_body_collision: BodyCollision,
    cnv057_body_read_only: BodyReadOnly,
    cnv058_body_free_form: BodyFreeForm,
    cnv059_value_fixed: ValueFixed,
    cnv060_endpoint_renamed: EndpointRenamed,
    cnv070_title_changed: TitleChanged,
    cnv071_version_changed: VersionChanged,
    cnv072_template_escaped: TemplateEscaped,
    cnv073_template_nested: TemplateNested,
    cnv099_self_check_failed: SelfCheckFailed,
    ois001_wrong_type: WrongType,
    ois002_missing_field: MissingField,
    ois003_unknown_field: UnknownField,
    ois004_bad_ois_format: BadOisFormat,
    ois005_bad_title: BadTitle,
    ois006_bad_version: BadVersion,
    ois007_open_api_not_ois: OpenApiNotOis,
    ois010_server_count: ServerCount,
    ois011_invalid_server_url: InvalidServerUrl,
    ois012_server_not_absolute_http: ServerNotAbsoluteHttp,
    ois013_server_trailing_slash: ServerTrailingSlash,
    ois014_bad_path_key: BadPathKey,
    ois015_bad_method: BadMethod,
    ois016_bad_location: BadLocation,
    ois017_reserved_operation_parameter: ReservedOperationParameter,
    ois018_path_template_mismatch: PathTemplateMismatch,
    ois019_duplicate_operation_parameter: DuplicateOperationParameter,
    ois020_bad_security_scheme: BadSecurityScheme,
    ois021_unmapped_parameter: UnmappedParameter,
    ois022_unknown_operation_parameter: UnknownOperationParameter,
    ois023_parameter_mapped_twice: ParameterMappedTwice,
    ois024_unknown_operation: UnknownOperation,
    ois025_undefined_security: UndefinedSecurity,
    ois026_security_not_empty: SecurityNotEmpty,
    ois027_bad_parameter_name: BadParameterName,
    ois028_duplicate_parameter_name: DuplicateParameterName,
    ois029_underscore_parameter_name: UnderscoreParameterName,
    ois030_not_a_string: NotAString,
    ois031_bad_reserved_name: BadReservedName,
    ois032_fixed_and_default: FixedAndDefault,
    ois033_bad_reserved_number: BadReservedNumber,
    ois034_missing_type: MissingType,
    ois035_bad_processing: BadProcessing,
    ois036_processing_both_forms: ProcessingBothForms,
    ois037_no_operation_rules: NoOperationRules,
    ois038_fixed_value_missing: FixedValueMissing,
    ois039_duplicate_endpoint_name: DuplicateEndpointName,
    ois040_bad_enum_value: BadEnumValue,
    ois050_empty_fixed: EmptyFixed,
    ois051_unencodable_type: UnencodableType,
    ois052_array_type_broken: ArrayTypeBroken,
    ois053_timestamp_with_path: TimestampWithPath,
    ois054_times_not_numeric: TimesNotNumeric,
    ois055_path_value_unsafe: PathValueUnsafe,
    ois056_path_unencoded: PathUnencoded,
    ois057_reserved_count_mismatch: ReservedCountMismatch,
    ois058_bad_header_name: BadHeaderName,
    ois059_schemes_clash: SchemesClash,
    ois060_unescaped_template: UnescapedTemplate,
    ois061_unknown_credential_title: UnknownCredentialTitle,
    ois062_unknown_credential_scheme: UnknownCredentialScheme,
    ois063_missing_credential: MissingCredential,
    ois064_literal_secret: LiteralSecret,
    ois065_duplicate_title: DuplicateTitle,
    ois066_relay_with_gateway: RelayWithGateway,
    ois067_bad_trigger: BadTrigger,
    ois068_concurrency_too_low: ConcurrencyTooLow,
    ois069_bad_mnemonic: BadMnemonic,
    ois070_bad_template_id: BadTemplateId,
    req001_unknown_endpoint: UnknownEndpoint,
    req002_missing_path_value: MissingPathValue,
    req003_missing_secret: MissingSecret,
    req004_path_value_changes_url: PathValueChangesUrl,
    req005_basic_not_base64: BasicNotBase64,
    req006_invalid_request_url: InvalidRequestUrl,
    req007_invalid_ois: InvalidOis,
    req008_ois_choice: OisChoice,
    req009_bad_argument: BadArgument,
    req010_parameter_ignored: ParameterIgnored,
    req011_invalid_header_value: InvalidHeaderValue,
    req012_response_lenient: ResponseLenient,
    req013_bad_secrets_entry: BadSecretsEntry,
    req014_secret_expression: SecretExpression,
    req015_client_refused: ClientRefused,
    req020_value_not_found: ValueNotFound,
    req021_cast_failed: CastFailed,
    req022_invalid_type: InvalidType,
    req023_reserved_mismatch: ReservedMismatch,
    req024_encoded_too_large: EncodedTooLarge,
    req025_encoding_failed: EncodingFailed,
    out001_output_exists: OutputExists,
    inp014_path_outside_folder: PathOutsideFolder,
    out002_output_write: OutputWrite,
    out003_strict_warnings: StrictWarnings,
    cnv080_update_no_base: UpdateNoBase,
    cnv081_update_conflict: UpdateConflict,
    cnv082_endpoint_removed: EndpointRemoved,
    cnv083_endpoint_added: EndpointAdded,
    cnv084_api_parameter_removed: ApiParameterRemoved,
    cnv085_api_parameter_moved: ApiParameterMoved,
    cnv086_update_breaks_ois: UpdateBreaksOis,
    cnv087_record_unreadable: RecordUnreadable,
    cnv088_update_changes: UpdateChanges,
    cnv089_record_changes_calls: RecordChangesCalls,
    cnv090_format_moved: FormatMoved,
    cnv091_parameter_renamed: ParameterRenamed,
    cnv049_credential_parameter: CredentialParameter,
    req016_credential_not_given: CredentialNotGiven,
    req017_server_replaced: ServerReplaced,
    out004_secrets_kept: SecretsKept,
    out005_deploy_secret_empty: DeploySecretEmpty,
    out006_deploy_elsewhere: DeployElsewhere,
    out007_rrp_templates_kept: RrpTemplatesKept,
    out008_rrp_template_dropped: RrpTemplateDropped,
    ois076_template_parameter_unknown: TemplateParameterUnknown,
    ois077_template_parameter_missing: TemplateParameterMissing,
    ois078_template_unservable: TemplateUnservable,
    ois079_batch_not_one_call: BatchNotOneCall,
    ois080_undecodable_parameters: UndecodableParameters,
    req018_relay_value_missing: RelayValueMissing,
    cal014_beacon_not_live: BeaconNotLive,
    cal015_beacon_mis_signed: BeaconMisSigned,
    cal016_beacon_moved: BeaconMoved,
    cal017_signed_api_unusable: SignedApiUnusable,
}

/// docs/diagnostics.md's code table is generated from the code list; `UPDATE_README=1 cargo test` rewrites it.
#[test]
fn readme_code_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md");
    let readme = std::fs::read_to_string(path).expect("docs/diagnostics.md");
    let start_marker = "<!-- codes:start (generated from src/diagnostic/codes.rs) -->\n";
    let end_marker = "<!-- codes:end -->";
    let start = readme.find(start_marker).expect("start marker") + start_marker.len();
    let end = readme.find(end_marker).expect("end marker");
    let mut table = String::from("| code | severity | meaning |\n|---|---|---|\n");
    for code in Code::ALL {
        table.push_str(&format!(
            "| `{code}` | {} | {} |\n",
            code.severity().as_str(),
            code.summary().replace('|', "\\|")
        ));
    }
    if readme[start..end] != table {
        if std::env::var_os("UPDATE_README").is_some() {
            std::fs::write(path, format!("{}{table}{}", &readme[..start], &readme[end..]))
                .expect("write docs/diagnostics.md");
        } else {
            panic!(
                "the code table of docs/diagnostics.md is out of date: run UPDATE_README=1 cargo test --test it diagnostic_codes"
            );
        }
    }
}

/// What a code's severity means for the user, on its page.
fn why_it_matters(code: Code) -> &'static str {
    match code.severity() {
        ois::Severity::Error => {
            "It is an error: the node would reject the input or fail on it, so `ois` exits 1 and writes nothing."
        }
        ois::Severity::Warning => {
            "It is a warning: the node would run, but not as the document or the user likely meant; `--strict` makes it an error."
        }
        _ => "It is a note: what `ois` decided or kept, said so that nothing changes in silence.",
    }
}

/// Whether a help names a setting of the library (`ConvertOptions::base_url`), as a case run
/// through the library words it.
fn names_a_library_item(help: &str) -> bool {
    help.split(|c: char| !(c.is_alphanumeric() || c == ':' || c == '_'))
        .any(|word| word.contains("::") && word.split("::").all(|part| !part.is_empty()))
}

/// The page of one code: what it means, why it matters, how to fix it, and an example taken from
/// the code's own test (its input when the test reads one from a file, and the rendered
/// diagnostic).
fn code_page(code: Code) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codes");
    let shown = std::fs::read_to_string(dir.join(format!("{code}.txt"))).unwrap_or_default();
    let shown = shown.trim_end();
    let mut page = format!(
        "# {code}: {}\n\n{} · stage `{}`\n\n{}\n",
        code.summary(),
        code.severity().as_str(),
        code.stage().prefix(),
        why_it_matters(code)
    );
    // The helps its cases gave, worded as the command line words them (a case run through the
    // library names library settings, which `ois explain` readers cannot set), without the
    // `ois explain` every help ends with.
    let suffix = format!(" (ois explain {code})");
    let mut helps: Vec<&str> = Vec::new();
    let of_code = all_cases().iter().filter(|(c, _)| *c == code).flat_map(|(_, produced)| produced);
    for (_, text) in of_code.filter(|(c, _)| *c == code) {
        for help in text.lines().filter_map(|l| l.trim_start().strip_prefix("= help: ")) {
            let Some(help) = help.strip_suffix(suffix.as_str()) else { continue };
            if !names_a_library_item(help) && !helps.contains(&help) {
                helps.push(help);
            }
        }
    }
    if !helps.is_empty() {
        page.push_str("\n## How to fix it\n\n");
        for help in helps.iter().take(3) {
            page.push_str(&format!("- {help}\n"));
        }
    }
    let mut inputs: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/codes")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with(&format!("{code}.")) && !name.ends_with(".txt")
        })
        .collect();
    // The files of a `<CODE>.in/` folder, each by its path below `tests/codes`.
    let mut files = Vec::new();
    while let Some(input) = inputs.pop() {
        match std::fs::read_dir(&input) {
            Ok(entries) => inputs.extend(entries.flatten().map(|e| e.path())),
            Err(_) => files.push(input),
        }
    }
    files.sort();
    page.push_str("\n## Example\n\n");
    for input in files {
        let text = std::fs::read_to_string(&input).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let cut = if lines.len() > 40 { format!("\n… ({} more lines)", lines.len() - 40) } else { String::new() };
        let name = input.strip_prefix(&dir).unwrap_or(&input).display().to_string();
        page.push_str(&format!(
            "`{name}`:\n\n```text\n{}{cut}\n```\n\n",
            lines.iter().take(40).copied().collect::<Vec<_>>().join("\n")
        ));
    }
    page.push_str(&format!("What `ois` says:\n\n```text\n{shown}\n```\n"));
    page
}

/// A page tells a reader of `ois explain` what to type: a code whose cases word their help only in
/// the library's terms (`ConvertOptions::…`) needs a case run from the command line.
#[test]
fn every_help_on_a_page_is_worded_for_the_command_line() {
    let mut library_only = Vec::new();
    for code in Code::ALL {
        let helps: Vec<&str> = all_cases()
            .iter()
            .filter(|(c, _)| c == code)
            .flat_map(|(_, produced)| produced)
            .filter(|(c, _)| c == code)
            .flat_map(|(_, text)| text.lines().filter_map(|l| l.trim_start().strip_prefix("= help: ")))
            .collect();
        if !helps.is_empty() && helps.iter().all(|help| names_a_library_item(help)) {
            library_only.push(code.as_str());
        }
    }
    assert!(library_only.is_empty(), "helps worded only for the library: {library_only:?}");
    assert!(names_a_library_item("set ConvertOptions::base_url to it"));
    assert!(names_a_library_item("run it with processing::Engine::Node"));
    assert!(!names_a_library_item("pass --base-url https://api.example.com (ois explain CNV001)"));
}

/// One page per code in docs/codes/, generated from the code table and each code's test; the
/// binary's `ois explain` pages are the same files. `UPDATE_README=1 cargo test` rewrites them.
#[test]
fn every_code_has_its_current_page() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("docs/codes");
    let update = std::env::var_os("UPDATE_README").is_some();
    let mut stale = Vec::new();
    let mut index = String::from(
        "// Generated by tests/it/diagnostic_codes.rs (`UPDATE_README=1 cargo test --test it diagnostic_codes`):\n// each code's page, for `ois explain`.\n\npub(crate) const PAGES: &[(&str, &str)] = &[\n",
    );
    for code in Code::ALL {
        let page = code_page(*code);
        let path = dir.join(format!("{code}.md"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(page.as_str()) {
            if update {
                std::fs::create_dir_all(&dir).expect("docs/codes");
                std::fs::write(&path, &page).expect("write a page");
            } else {
                stale.push(code.as_str());
            }
        }
        index.push_str(&format!("    (\"{code}\", include_str!(\"../../docs/codes/{code}.md\")),\n"));
    }
    index.push_str("];\n");
    let index_path = root.join("src/cli/explain_pages.rs");
    if std::fs::read_to_string(&index_path).ok().as_deref() != Some(index.as_str()) {
        if update {
            std::fs::write(&index_path, &index).expect("write the page index");
        } else {
            stale.push("src/cli/explain_pages.rs");
        }
    }
    // No page for a code that is gone.
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().trim_end_matches(".md").to_owned();
        if !Code::ALL.iter().any(|c| c.as_str() == name) {
            if update {
                std::fs::remove_file(entry.path()).expect("remove a stale page");
            } else {
                stale.push("a page of a code that is gone");
            }
        }
    }
    assert!(
        stale.is_empty(),
        "missing or stale pages: {stale:?}: run UPDATE_README=1 cargo test --test it diagnostic_codes"
    );
}
