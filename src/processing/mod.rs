//! Pre- and post-processing as the node runs it: `@api3/commons` processing (0.9.1 in airnode-node
//! 0.15, 0.13 in Airnode Feed 3, 2.0 today, all alike; ground truth §3.4).
//!
//! - V1 (`preProcessingSpecifications`, `postProcessingSpecifications`): snippets run in order,
//!   each in a fresh global scope; `Node` code sees `input` and `endpointParameters` and assigns
//!   `output`; `Node async` code calls `resolve(value)` instead.
//! - V2 (`…SpecificationV2`): `value` is a function expression called as
//!   `await (value)(payload)`; pre-processing gets `{endpointParameters}` and returns
//!   `{endpointParameters}`, post-processing gets `{response, endpointParameters}` and returns
//!   `{response, timestamp?}`. When an endpoint has V2, its V1 list for the phase is not run.
//! - Reserved parameters are removed before processing and put back afterwards.
//! - Each snippet is bounded by its `timeoutMs`, the whole phase by [`PHASE_TIMEOUT`].
//!
//! Two engines run the code. [`Engine::Embedded`] is an in-process QuickJS sandbox with no file
//! system, network, process or environment, bounded in time and memory. [`Engine::Node`] runs the
//! system `node` as the node does (Node built-ins included, no sandbox) for exact fidelity.

mod embedded;
mod node;
mod outcome;

use crate::pointer::Member as _;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::ois::model::RESERVED_NAMES;

pub use outcome::{Failure, FailureKind, Processed};

/// The whole of a phase (all its snippets) is bounded by this, as commons' default
/// `totalTimeoutMs` bounds it.
pub const PHASE_TIMEOUT: Duration = Duration::from_secs(10);

/// The memory one phase may use in the embedded engine.
pub const MEMORY_LIMIT: usize = 256 << 20;

/// The Node.js modules commons puts in every snippet's global scope (`fs`, `crypto`, …). The
/// embedded engine has none of them; using one there is [`FailureKind::NodeBuiltin`].
pub const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "constants",
    "crypto",
    "dgram",
    "dns",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "timers",
    "tls",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "worker_threads",
    "zlib",
];

/// Before the API call (on the endpoint parameters) or after it (on the response).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `preProcessing…`: changes the endpoint parameters.
    Pre,
    /// `postProcessing…`: changes the response.
    Post,
}

impl Phase {
    /// `pre` or `post`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Pre => "pre",
            Phase::Post => "post",
        }
    }
}

/// A V1 snippet's `environment`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Environment {
    /// `Node`: synchronous, assigns `output`.
    Node,
    /// `Node async`: calls `resolve(value)` (or `reject`).
    NodeAsync,
}

/// One processing snippet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// How the code is run (always [`Environment::Node`] for V2).
    pub environment: Environment,
    /// The JavaScript source.
    pub code: String,
    /// `timeoutMs`, when given.
    pub timeout_ms: Option<u64>,
    /// The JSON pointer of the snippet's `value` in the OIS.
    pub pointer: String,
}

/// What one phase of an endpoint runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Specification {
    /// A V1 list, chained in order.
    V1(Vec<Snippet>),
    /// A V2 function expression.
    V2(Snippet),
}

impl Specification {
    /// The snippets, in the order they run.
    pub fn snippets(&self) -> &[Snippet] {
        match self {
            Specification::V1(list) => list,
            Specification::V2(one) => std::slice::from_ref(one),
        }
    }
}

/// An endpoint's processing, as commons picks it: V2 when present, else a non-empty V1 list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndpointProcessing {
    /// Runs on the endpoint parameters before the API call.
    pub pre: Option<Specification>,
    /// Runs on the response.
    pub post: Option<Specification>,
    /// Which `@api3/commons` runs it.
    pub commons: Commons,
}

/// Which `@api3/commons` runs an OIS's processing: the node that reads the OIS decides, and so
/// its `oisFormat` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Commons {
    /// 0.x (zod 3): Airnode 0.15 and Airnode Feed 3, which read OIS 2.3.x.
    #[default]
    V0,
    /// 1.x (zod 4): Airnode Feed 4, which reads OIS 3.0.x. What a V2 post-processing function
    /// returns must hold `response` (`{timestamp}` alone, or `response: undefined`, is refused).
    V1,
}

impl Commons {
    /// The commons of the node that reads `ois`, by its `oisFormat`.
    pub fn for_ois(ois: &Value) -> Commons {
        let family = ois.member("oisFormat").and_then(Value::as_str).and_then(crate::ois::model::FormatFamily::of);
        if family == Some(crate::ois::model::FormatFamily::V3_0) { Commons::V1 } else { Commons::V0 }
    }
}

impl EndpointProcessing {
    /// Reads the processing of `endpoint`, whose pointer in the OIS is `at`, as commons 0.x runs it.
    pub fn of(endpoint: &Value, at: &str) -> Self {
        EndpointProcessing {
            pre: specification(endpoint, at, "preProcessingSpecifications", "preProcessingSpecificationV2"),
            post: specification(endpoint, at, "postProcessingSpecifications", "postProcessingSpecificationV2"),
            commons: Commons::V0,
        }
    }

    /// Reads the processing of `endpoint` of `ois`, as the commons of the node that reads `ois`
    /// runs it.
    pub fn of_endpoint_in(ois: &Value, endpoint: &Value, at: &str) -> Self {
        EndpointProcessing { commons: Commons::for_ois(ois), ..EndpointProcessing::of(endpoint, at) }
    }

    /// The specification of `phase`.
    pub fn phase(&self, phase: Phase) -> Option<&Specification> {
        match phase {
            Phase::Pre => self.pre.as_ref(),
            Phase::Post => self.post.as_ref(),
        }
    }

    /// Whether the endpoint has any processing.
    pub fn is_empty(&self) -> bool {
        self.pre.is_none() && self.post.is_none()
    }
}

fn specification(endpoint: &Value, at: &str, v1_key: &str, v2_key: &str) -> Option<Specification> {
    // commons tests the V2 object for truthiness: any object counts.
    if let Some(v2) = endpoint.get(v2_key).filter(|v| v.is_object()) {
        return snippet(v2, format!("{at}/{v2_key}")).map(Specification::V2);
    }
    let list = endpoint.get(v1_key)?.as_array()?;
    let snippets: Vec<Snippet> =
        list.iter().enumerate().filter_map(|(i, item)| snippet(item, format!("{at}/{v1_key}/{i}"))).collect();
    (!snippets.is_empty()).then_some(Specification::V1(snippets))
}

fn snippet(item: &Value, at: String) -> Option<Snippet> {
    let environment = match item.member("environment")?.as_str()? {
        "Node" => Environment::Node,
        "Node async" => Environment::NodeAsync,
        _ => return None,
    };
    Some(Snippet {
        environment,
        code: item.member("value")?.as_str()?.to_owned(),
        timeout_ms: item.member("timeoutMs").and_then(Value::as_f64).filter(|t| *t >= 0.0).map(|t| t as u64),
        pointer: format!("{at}/value"),
    })
}

/// Which JavaScript engine runs the snippets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// In-process QuickJS, sandboxed: no Node built-ins, no file system, network, process or
    /// environment; bounded by the timeouts and [`MEMORY_LIMIT`].
    #[default]
    Embedded,
    /// The system `node` (or the program given), with the Node built-ins commons gives snippets.
    /// Not sandboxed: the snippet can do anything the user can.
    Node {
        /// The program to run, `node` when `None`.
        program: Option<std::path::PathBuf>,
    },
}

/// Checks a snippet without running its code: that it parses, and that a V2 `value` is a
/// function expression (evaluated in the sandbox, which runs nothing but the expression).
pub fn check_snippet(snippet: &Snippet, v2: bool) -> Result<(), Failure> {
    check_snippet_within(snippet, v2, &mut { CHECK_BUDGET })
}

/// The time the checks of one validation may spend evaluating V2 `value` expressions together.
pub const CHECK_BUDGET: std::time::Duration = std::time::Duration::from_millis(500);

/// [`check_snippet`], evaluating a V2 `value` only for what is left of `budget` (shared by the
/// checks of one validation, and reduced by what this one uses); with nothing left, it is only
/// parsed.
pub fn check_snippet_within(snippet: &Snippet, v2: bool, budget: &mut std::time::Duration) -> Result<(), Failure> {
    embedded::check(snippet, v2, budget).map_err(|failure| failure.at(&snippet.pointer))
}

/// Whether a V1 snippet can produce its value, by a look at its text (best effort): `Node` code
/// must declare or assign `output`, `Node async` code must mention `resolve`.
pub fn mentions_its_result(snippet: &Snippet) -> bool {
    let code = snippet.code.as_str();
    match snippet.environment {
        Environment::NodeAsync => identifiers(code).any(|(name, _, _)| name == "resolve"),
        Environment::Node => identifiers(code).any(|(name, before, after)| {
            let (before, after) = (before.trim_end(), after.trim_start());
            let assigned = after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=>");
            let declared = ["var", "let", "const"].iter().any(|keyword| before.ends_with(keyword));
            let destructured = before.ends_with(['{', '[', ',']) && after.starts_with(['}', ']', ',']);
            name == "output" && (assigned || declared || destructured)
        }),
    }
}

/// Each identifier of `code` that is not a property (`.name`), with the text before and after it.
fn identifiers(code: &str) -> impl Iterator<Item = (&str, &str, &str)> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let rest = code.get(from..)?;
            let start = from + rest.find(word)?;
            let length = code.get(start..)?.find(|c: char| !word(c)).unwrap_or(code.len() - start);
            from = start + length;
            let before = code.get(..start)?;
            let trimmed = before.trim_end();
            if trimmed.ends_with('.') && !trimmed.ends_with("...") {
                continue;
            }
            return Some((code.get(start..from)?, before, code.get(from..)?));
        }
    })
}

/// The parameters without the reserved ones, as commons' `removeReservedParameters` makes them.
pub fn without_reserved(parameters: &Map<String, Value>) -> Map<String, Value> {
    parameters
        .iter()
        .filter(|(k, _)| !RESERVED_NAMES.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Pre-processing: the endpoint parameters the API call is built from. Without
/// pre-processing they are `parameters` as given.
pub fn pre_process(
    engine: &Engine,
    processing: &EndpointProcessing,
    parameters: &Map<String, Value>,
) -> Result<Processed, Failure> {
    let Some(specification) = &processing.pre else {
        return Ok(Processed { value: Some(Value::Object(parameters.clone())), ..Processed::default() });
    };
    let mut processed = run(
        engine,
        Phase::Pre,
        specification,
        &Value::Object(without_reserved(parameters)),
        parameters,
        processing.commons,
    )?;
    // commons puts the reserved parameters given back, over what the snippet returned.
    if let Some(Value::Object(map)) = &mut processed.value {
        for (name, value) in parameters.iter().filter(|(k, _)| RESERVED_NAMES.contains(&k.as_str())) {
            map.insert(name.clone(), value.clone());
        }
        crate::js::order_keys(map);
    }
    Ok(processed)
}

/// Post-processing: the response the value is extracted from, and the timestamp a V2 snippet
/// returned. `parameters` are the endpoint parameters as given (not pre-processed), as the node
/// passes them.
pub fn post_process(
    engine: &Engine,
    processing: &EndpointProcessing,
    response: &Value,
    parameters: &Map<String, Value>,
) -> Result<Processed, Failure> {
    let Some(specification) = &processing.post else {
        return Ok(Processed { value: Some(response.clone()), ..Processed::default() });
    };
    run(engine, Phase::Post, specification, response, parameters, processing.commons)
}

fn run(
    engine: &Engine,
    phase: Phase,
    specification: &Specification,
    input: &Value,
    parameters: &Map<String, Value>,
    commons: Commons,
) -> Result<Processed, Failure> {
    let job = Job { phase, specification, input, parameters: without_reserved(parameters), commons };
    let ran = match engine {
        Engine::Embedded => embedded::run(&job),
        Engine::Node { program } => node::run(&job, program.as_deref()),
    };
    // What the phase returned is the last snippet's doing.
    ran.map_err(|failure| match specification.snippets().last() {
        Some(last) => failure.at(&last.pointer),
        None => failure,
    })
}

/// One phase to run: what each engine receives.
struct Job<'a> {
    phase: Phase,
    specification: &'a Specification,
    /// Pre: the parameters without the reserved ones; post: the response.
    input: &'a Value,
    /// The `endpointParameters` every snippet sees: without the reserved ones.
    parameters: Map<String, Value>,
    /// Which commons' checks the result must pass.
    commons: Commons,
}

impl Job<'_> {
    /// Whether a V2 post-processing result must hold a `response` key (commons 1.x).
    fn requires_response(&self) -> bool {
        self.commons == Commons::V1
    }
}

impl Job<'_> {
    /// The time a snippet may run: its `timeoutMs`, within what is left of the phase.
    fn budget(snippet: &Snippet, left: Duration) -> Duration {
        snippet.timeout_ms.map_or(left, |ms| Duration::from_millis(ms).min(left))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn endpoint(processing: Value) -> EndpointProcessing {
        EndpointProcessing::of(&processing, "/endpoints/0")
    }

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    fn v2(phase: &str, code: &str, timeout: u64) -> Value {
        json!({ format!("{phase}ProcessingSpecificationV2"): {"environment": "Node", "value": code, "timeoutMs": timeout} })
    }

    #[test]
    fn v2_pre_processing_maps_a_name_to_a_path_and_keeps_reserved_parameters() {
        let processing = endpoint(v2(
            "pre",
            "({ endpointParameters }) => ({ endpointParameters: { path: endpointParameters.name.toLowerCase() } })",
            5000,
        ));
        let given = params(json!({"name": "BTC/USD", "_type": "int256"}));
        let processed = pre_process(&Engine::Embedded, &processing, &given).unwrap();
        assert_eq!(processed.value, Some(json!({"path": "btc/usd", "_type": "int256"})));
    }

    #[test]
    fn v1_snippets_chain_and_each_sees_the_original_parameters() {
        let processing = endpoint(json!({"preProcessingSpecifications": [
            {"environment": "Node", "value": "const output = {...input, step1: Object.keys(endpointParameters).length};", "timeoutMs": 1000},
            {"environment": "Node async", "value": "setTimeout(() => resolve({...input, step2: true}), 5);", "timeoutMs": 1000},
        ]}));
        let given = params(json!({"a": "1", "_path": "x"}));
        let processed = pre_process(&Engine::Embedded, &processing, &given).unwrap();
        assert_eq!(processed.value, Some(json!({"a": "1", "step1": 1, "step2": true, "_path": "x"})));
    }

    #[test]
    fn post_processing_returns_the_response_and_timestamp_and_captures_console() {
        let processing = endpoint(v2(
            "post",
            "async ({ response }) => { console.log('got', response); return { response: response.a * 2, timestamp: 1700000000 }; }",
            5000,
        ));
        let processed = post_process(&Engine::Embedded, &processing, &json!({"a": 21}), &Map::new()).unwrap();
        assert_eq!(processed.value, Some(json!(42)));
        assert_eq!(processed.timestamp, Some(1_700_000_000));
        assert_eq!(processed.logs, vec!["got {\"a\":21}".to_owned()]);
    }

    #[test]
    fn console_output_is_cut_in_the_sandbox_and_keeps_the_deadline() {
        // 20 lines of 16 MiB each: copied out whole, they took seconds past the deadline and
        // gigabytes of memory the limit never saw.
        let processing = endpoint(v2(
            "post",
            "({ response }) => { const big = 'x'.repeat(16 * 1024 * 1024); for (let i = 0; i < 20; i++) console.log(big); return { response: 1 }; }",
            2000,
        ));
        let processed = post_process(&Engine::Embedded, &processing, &json!({}), &Map::new()).unwrap();
        let kept: usize = processed.logs.iter().map(String::len).sum();
        assert!(kept < 128 * 1024, "{kept} bytes of console output kept");
        assert!(processed.logs.first().is_some_and(|line| line.contains("more characters not shown")));
    }

    #[test]
    fn a_loop_of_native_calls_that_make_megabytes_keeps_the_deadline() {
        // QuickJS polls for its interrupt every 10,000 steps; each step here is 16 MiB of work.
        let processing = endpoint(v2("post", "() => { for (;;) globalThis.g = 'x'.repeat(1 << 24); }", 50));
        let started = std::time::Instant::now();
        let failure = post_process(&Engine::Embedded, &processing, &json!({}), &Map::new()).unwrap_err();
        assert_eq!(failure.kind, FailureKind::Timeout, "{failure:?}");
        // Not a benchmark: without the check it ran for minutes.
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
    }

    fn failure(engine: &Engine, processing: Value, phase: Phase) -> Failure {
        let processing = endpoint(processing);
        match phase {
            Phase::Pre => pre_process(engine, &processing, &Map::new()).unwrap_err(),
            Phase::Post => post_process(engine, &processing, &json!(1), &Map::new()).unwrap_err(),
        }
    }

    /// The engines to try: the embedded one, and `node` when it is installed.
    fn engines() -> Vec<Engine> {
        let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
        let mut engines = vec![Engine::Embedded];
        if node {
            engines.push(Engine::Node { program: None });
        }
        engines
    }

    #[test]
    fn failures_say_what_and_where() {
        for engine in engines() {
            failures_say_what_and_where_with(&engine);
        }
    }

    fn snippet(environment: Environment, code: &str) -> Snippet {
        Snippet { environment, code: code.to_owned(), timeout_ms: Some(100), pointer: "/x".to_owned() }
    }

    #[test]
    fn a_snippets_result_is_looked_for_in_its_text() {
        let node = |code: &str| mentions_its_result(&snippet(Environment::Node, code));
        for assigns in [
            "const output = 1;",
            "let output=2",
            "var output;",
            "output = input",
            "[output] = [1]",
            "({ a, output } = x)",
        ] {
            assert!(node(assigns), "{assigns}");
        }
        for misses in
            ["const result = 1;", "input.output = 1", "if (output == 1) {}", "const f = output => 1", "outputs = 1"]
        {
            assert!(!node(misses), "{misses}");
        }
        assert!(mentions_its_result(&snippet(Environment::NodeAsync, "setTimeout(() => resolve(1), 5)")));
        assert!(mentions_its_result(&snippet(Environment::NodeAsync, "p.then(resolve)")));
        assert!(!mentions_its_result(&snippet(Environment::NodeAsync, "x.resolve(1)")));
    }

    #[test]
    fn checking_a_snippet_runs_none_of_its_body() {
        let v1 = snippet(Environment::Node, "while (true) {} const output = 1;");
        assert_eq!(check_snippet(&v1, false), Ok(()));
        let broken = snippet(Environment::Node, "const a = 1;\nconst output = {;");
        assert_eq!(check_snippet(&broken, false).unwrap_err().line_column.map(|(l, _)| l), Some(2));
        let function = snippet(Environment::Node, "async ({ response }) => { while (true) {} }");
        assert_eq!(check_snippet(&function, true), Ok(()));
        let number = check_snippet(&snippet(Environment::Node, "40 + 2"), true).unwrap_err();
        assert_eq!(number.kind, FailureKind::Shape);
        // Not a function expression: evaluated, but only in the sandbox and only briefly.
        let looping = check_snippet(&snippet(Environment::Node, "(() => { while (true) {} })()"), true).unwrap_err();
        assert_eq!(looping.kind, FailureKind::Timeout);
        let escape = check_snippet(&snippet(Environment::Node, "1); while (true) {} (1"), false).unwrap_err();
        assert_eq!(escape.kind, FailureKind::Syntax);
    }

    #[test]
    fn a_missing_node_is_an_engine_failure() {
        let processing = endpoint(v2("post", "() => ({ response: 1 })", 100));
        let engine = Engine::Node { program: Some("/nonexistent/node".into()) };
        let failure = post_process(&engine, &processing, &json!(1), &Map::new()).unwrap_err();
        assert_eq!(failure.kind, FailureKind::Engine);
        assert!(failure.message.contains("was not found"), "{failure:?}");
    }

    fn failures_say_what_and_where_with(engine: &Engine) {
        let embedded = *engine == Engine::Embedded;
        let syntax = failure(engine, v2("pre", "({ endpointParameters }) => {\n  const = 1;\n}", 100), Phase::Pre);
        assert_eq!(syntax.kind, FailureKind::Syntax, "{syntax:?}");
        assert_eq!(syntax.line_column.map(|(line, _)| line), Some(2), "{syntax:?}");
        assert_eq!(syntax.pointer.as_deref(), Some("/endpoints/0/preProcessingSpecificationV2/value"));
        let threw = failure(engine, v2("post", "({ response }) => {\n  return response.x.y;\n}", 100), Phase::Post);
        assert_eq!(threw.kind, FailureKind::Threw, "{threw:?}");
        assert_eq!(threw.line_column.map(|(line, _)| line), Some(2), "{threw:?}");
        let looped = failure(engine, v2("post", "() => { while (true) {} }", 50), Phase::Post);
        assert_eq!(looped.kind, FailureKind::Timeout);
        let late = failure(engine, v2("post", "() => new Promise((r) => setTimeout(r, 60000))", 50), Phase::Post);
        assert_eq!(late.kind, FailureKind::Timeout);
        let never = failure(engine, v2("post", "() => new Promise(() => {})", 50), Phase::Post);
        assert_eq!(never.kind, FailureKind::Timeout);
        let builtin = post_process(
            engine,
            &endpoint(v2("post", "() => ({ response: typeof crypto.randomUUID() })", 100)),
            &json!(1),
            &Map::new(),
        );
        if embedded {
            assert_eq!(builtin.unwrap_err().kind, FailureKind::NodeBuiltin);
        } else {
            assert_eq!(builtin.unwrap().value, Some(json!("string")));
        }
        let shape = failure(engine, v2("pre", "() => 5", 100), Phase::Pre);
        assert_eq!(shape.kind, FailureKind::Shape);
        let big = failure(engine, v2("post", "() => ({ response: 10n })", 100), Phase::Post);
        assert_eq!(big.kind, FailureKind::NotSerialisable);
        if embedded {
            let memory = failure(
                engine,
                v2("post", "() => { const a = []; while (true) a.push(new Array(1e6).fill(1)); }", 10_000),
                Phase::Post,
            );
            assert_eq!(memory.kind, FailureKind::Engine);
        }
        let v1 = failure(
            engine,
            json!({"postProcessingSpecifications": [{"environment": "Node", "value": "let x = 1", "timeoutMs": 100}]}),
            Phase::Post,
        );
        assert_eq!(v1.kind, FailureKind::Threw, "{v1:?}");
    }
}
