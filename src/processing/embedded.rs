//! The embedded engine: QuickJS (rquickjs) in-process, sandboxed.
//!
//! Each snippet runs in a fresh context, as commons gives each one a fresh `vm` context; the value
//! passed from one snippet to the next stays a live JavaScript value (the contexts share one
//! runtime). Nothing outside the language is reachable: QuickJS has no I/O of its own and we add
//! none beyond `console` (captured) and the timers commons provides. Time is bounded by an
//! interrupt handler, memory by the runtime's limit.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::function::Opt;
use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Function, Object, Persistent, Promise, Runtime, Value};
use serde_json::Value as Json;

use super::outcome::{Failure, FailureKind, MAX_LOG_LINES, Processed, locate_in_stack};
use super::{Environment, Job, MEMORY_LIMIT, NODE_BUILTINS, PHASE_TIMEOUT, Phase, Snippet, Specification};

const SNIPPET_FILE: &str = "snippet.js";
/// The longest console line kept, in characters; longer ones are cut.
const MAX_LOG_LINE_CHARS: usize = 4_096;
/// Console output kept of one snippet, in characters; the rest is not shown.
const MAX_LOG_CHARS: usize = 64 * 1024;

/// Timers one snippet may have pending.
const MAX_TIMERS: usize = 10_000;
const STACK_SIZE: usize = 1 << 20;

/// Console capture and the Node.js module names that fail with a clear message when used.
const SANDBOX_SETUP: &str = r#"(function (log, builtins, lineChars, totalChars, late) {
  // QuickJS asks whether to stop only every 10,000 steps: a loop whose every step is one native
  // call making megabytes (`for (;;) s = 'x'.repeat(1 << 24)`) would run for minutes past its
  // deadline. These calls ask first (not `fill`: an array's memory is its constructor's).
  for (const [object, name] of [[String.prototype, 'repeat'], [String.prototype, 'padStart'],
      [String.prototype, 'padEnd'], [Array.prototype, 'join']]) {
    const original = object[name];
    Object.defineProperty(object, name, {
      value: { [name](...args) { if (late()) throw new Error('the deadline has passed'); return original.apply(this, args); } }[name],
      writable: true, configurable: true, enumerable: false,
    });
  }
  const show = (value) => {
    if (typeof value === 'string') return value;
    try {
      const text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  // Cut in the sandbox, before it leaves it: a line copied out is time the deadline cannot stop
  // and memory the limit does not count.
  let left = totalChars;
  const write = (...values) => {
    if (left <= 0) return;
    let text = values.map(show).join(' ');
    const room = Math.min(lineChars, left);
    if (text.length > room) text = text.slice(0, room) + ` … (${text.length - room} more characters not shown)`;
    left -= text.length;
    log(text);
  };
  globalThis.console = { log: write, info: write, warn: write, error: write, debug: write, trace: write };
  for (const name of builtins) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        const error = new Error(name);
        error.name = 'NodeBuiltinUnavailable';
        throw error;
      },
      set(value) {
        Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: true });
      },
    });
  }
})"#;

/// The shape check and JSON conversion both engines share.
pub(super) const FINISH: &str = include_str!("finish.js");

struct Timer {
    due: Instant,
    every: Option<Duration>,
    callback: Persistent<Function<'static>>,
}

/// A snippet's pending timers. They are dropped with the snippet (as commons clears them): a
/// callback kept past its context would be a cycle through Rust the collector cannot see.
#[derive(Default)]
struct Timers(Rc<RefCell<Vec<Timer>>>);

impl Drop for Timers {
    fn drop(&mut self) {
        if let Ok(mut queue) = self.0.try_borrow_mut() {
            queue.clear();
        }
    }
}

/// The interrupt handler's view: when to stop, and whether it did.
#[derive(Clone)]
struct Clock {
    deadline: Arc<Mutex<Instant>>,
    interrupted: Arc<AtomicBool>,
}

impl Clock {
    fn set(&self, deadline: Instant) {
        if let Ok(mut slot) = self.deadline.lock() {
            *slot = deadline;
        }
        self.interrupted.store(false, Ordering::SeqCst);
    }

    fn deadline(&self) -> Instant {
        self.deadline.lock().map_or_else(|_| Instant::now(), |d| *d)
    }

    fn expired(&self) -> bool {
        let expired = Instant::now() >= self.deadline();
        if expired {
            self.interrupted.store(true, Ordering::SeqCst);
        }
        expired
    }

    fn was_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }
}

/// The engine failing us, not the snippet.
fn quickjs(error: rquickjs::Error) -> Failure {
    Failure::new(FailureKind::Engine, format!("QuickJS: {error}"))
}

/// A runtime with the sandbox's memory and stack limits, stopped by its clock at `deadline`.
fn sandbox(deadline: Instant) -> Result<(Runtime, Clock), Failure> {
    let runtime = Runtime::new().map_err(quickjs)?;
    runtime.set_memory_limit(MEMORY_LIMIT);
    runtime.set_max_stack_size(STACK_SIZE);
    let clock = Clock { deadline: Arc::new(Mutex::new(deadline)), interrupted: Arc::new(AtomicBool::new(false)) };
    let watcher = clock.clone();
    runtime.set_interrupt_handler(Some(Box::new(move || watcher.expired())));
    Ok((runtime, clock))
}

pub(super) fn run(job: &Job<'_>) -> Result<Processed, Failure> {
    let phase_deadline = Instant::now() + PHASE_TIMEOUT;
    let (runtime, clock) = sandbox(phase_deadline)?;
    let logs: Rc<RefCell<Vec<String>>> = Rc::default();
    let with_logs = |mut failure: Failure| {
        failure.logs = logs.borrow().clone();
        failure
    };

    let v2 = matches!(job.specification, Specification::V2(_));
    let mut carried: Option<Persistent<Value<'static>>> = None;
    for snippet in job.specification.snippets() {
        let now = Instant::now();
        let budget = Job::budget(snippet, phase_deadline.saturating_duration_since(now));
        clock.set(now + budget);
        let context = Context::full(&runtime).map_err(quickjs)?;
        let step = context.with(|ctx| {
            let scope = Scope { ctx: ctx.clone(), clock: &clock, logs: &logs, snippet };
            scope.run(job, v2, carried.take())
        });
        carried = Some(step.map_err(|failure| with_logs(failure.at(&snippet.pointer)))?);
    }
    // Reading the result (getters, toJSON) runs the snippet's code too: it gets the last snippet's
    // time, within the phase's.
    let left = phase_deadline.saturating_duration_since(Instant::now());
    let budget = job.specification.snippets().last().map_or(left, |last| Job::budget(last, left));
    clock.set(Instant::now() + budget);
    let context = Context::full(&runtime).map_err(quickjs)?;
    let finished = context.with(|ctx| finish(&ctx, job.phase, v2, job.requires_response(), carried, &clock));
    let (value, timestamp) = finished.map_err(with_logs)?;
    let logs = logs.borrow().clone();
    Ok(Processed { value, timestamp, logs })
}

/// One snippet's run in its own context.
struct Scope<'a, 'js> {
    ctx: Ctx<'js>,
    clock: &'a Clock,
    logs: &'a Rc<RefCell<Vec<String>>>,
    snippet: &'a Snippet,
}

impl<'js> Scope<'_, 'js> {
    fn run(
        &self,
        job: &Job<'_>,
        v2: bool,
        carried: Option<Persistent<Value<'static>>>,
    ) -> Result<Persistent<Value<'static>>, Failure> {
        let ctx = &self.ctx;
        self.install_sandbox()?;
        let globals = ctx.globals();
        let input = match carried {
            Some(value) => value.restore(ctx).map_err(|e| self.engine(e))?,
            None => self.json(job.input)?,
        };
        let parameters = self.json(&Json::Object(job.parameters.clone()))?;
        let value = if v2 {
            let payload = Object::new(ctx.clone()).map_err(|e| self.engine(e))?;
            if job.phase == Phase::Post {
                payload.set("response", input).map_err(|e| self.engine(e))?;
            }
            payload.set("endpointParameters", parameters).map_err(|e| self.engine(e))?;
            globals.set("payload", payload).map_err(|e| self.engine(e))?;
            let timers = self.install_timers()?;
            // As commons: `(async () => { return await (value)(payload) })()`, the code starting
            // on the second line.
            let wrapped = format!("(async () => {{ return await (\n{})(payload) }})();", self.snippet.code);
            let promise: Promise<'js> = self.eval(&wrapped, 1)?;
            self.settle(&promise, &timers, 1)?
        } else {
            globals.set("input", input).map_err(|e| self.engine(e))?;
            globals.set("endpointParameters", parameters).map_err(|e| self.engine(e))?;
            match self.snippet.environment {
                Environment::Node => {
                    self.eval::<Value<'js>>(&format!("{}; deferredOutput = output;", self.snippet.code), 0)?;
                    globals.get::<_, Value<'js>>("deferredOutput").map_err(|e| self.engine(e))?
                }
                Environment::NodeAsync => {
                    let (promise, resolve, reject) = ctx.promise().map_err(|e| self.engine(e))?;
                    globals.set("resolve", resolve).map_err(|e| self.engine(e))?;
                    globals.set("reject", reject.clone()).map_err(|e| self.engine(e))?;
                    let timers = self.install_timers()?;
                    // A throw while the code runs rejects the promise, as inside commons'
                    // `new Promise` executor.
                    self.eval::<Value<'js>>(&self.snippet.code, 0)?;
                    self.settle(&promise, &timers, 0)?
                }
            }
        };
        Ok(Persistent::save(ctx, value))
    }

    fn engine(&self, error: rquickjs::Error) -> Failure {
        if self.clock.was_interrupted() {
            return self.timeout();
        }
        quickjs(error)
    }

    fn timeout(&self) -> Failure {
        let limit = match self.snippet.timeout_ms {
            Some(ms) => format!("its timeoutMs ({ms} ms) or the node's {} s for the phase", PHASE_TIMEOUT.as_secs()),
            None => format!("the node's {} s for the phase", PHASE_TIMEOUT.as_secs()),
        };
        Failure::new(FailureKind::Timeout, format!("the snippet ran past {limit}"))
    }

    fn json(&self, value: &Json) -> Result<Value<'js>, Failure> {
        let text = serde_json::to_string(value).map_err(|e| Failure::new(FailureKind::Engine, e.to_string()))?;
        self.ctx.json_parse(text).map_err(|e| self.engine(e))
    }

    fn install_sandbox(&self) -> Result<(), Failure> {
        let ctx = &self.ctx;
        let setup: Function<'js> = self.eval_internal(SANDBOX_SETUP)?;
        let sink = Rc::clone(self.logs);
        let log = Function::new(ctx.clone(), move |line: String| {
            let mut logs = sink.borrow_mut();
            if logs.len() < MAX_LOG_LINES {
                logs.push(line);
            } else if logs.len() == MAX_LOG_LINES {
                logs.push("… (more console output not shown)".to_owned());
            }
        })
        .map_err(|e| self.engine(e))?;
        let builtins: Vec<&str> = NODE_BUILTINS.to_vec();
        let (deadline, interrupted) = (Arc::clone(&self.clock.deadline), Arc::clone(&self.clock.interrupted));
        let late = Function::new(ctx.clone(), move || {
            let late = deadline.lock().map_or(true, |deadline| Instant::now() >= *deadline);
            if late {
                interrupted.store(true, Ordering::SeqCst);
            }
            late
        })
        .map_err(|e| self.engine(e))?;
        setup.call::<_, ()>((log, builtins, MAX_LOG_LINE_CHARS, MAX_LOG_CHARS, late)).map_err(|e| self.engine(e))
    }

    /// `setTimeout` and `setInterval` as commons gives them to async snippets: they queue the
    /// callback and return nothing (so `clearTimeout` clears nothing).
    fn install_timers(&self) -> Result<Timers, Failure> {
        let ctx = &self.ctx;
        let timers = Timers::default();
        for (name, repeat) in [("setTimeout", false), ("setInterval", true)] {
            let queue = Rc::clone(&timers.0);
            let function = Function::new(
                ctx.clone(),
                move |ctx: Ctx<'js>, callback: Function<'js>, ms: Opt<f64>| -> rquickjs::Result<()> {
                    let mut queue = queue.borrow_mut();
                    if queue.len() >= MAX_TIMERS {
                        return Err(rquickjs::Exception::throw_range(&ctx, "too many timers"));
                    }
                    // Node runs a delay below 1 ms (or not a number) after 1 ms.
                    let ms = ms.0.filter(|ms| ms.is_finite() && *ms >= 1.0).unwrap_or(1.0).min(1e10);
                    let delay = Duration::from_secs_f64(ms / 1000.0);
                    let every = repeat.then_some(delay);
                    queue.push(Timer {
                        due: Instant::now() + delay,
                        every,
                        callback: Persistent::save(&ctx, callback),
                    });
                    Ok(())
                },
            )
            .map_err(|e| self.engine(e))?;
            ctx.globals().set(name, function).map_err(|e| self.engine(e))?;
        }
        let nothing = Function::new(ctx.clone(), || ()).map_err(|e| self.engine(e))?;
        ctx.globals().set("clearTimeout", nothing.clone()).map_err(|e| self.engine(e))?;
        ctx.globals().set("clearInterval", nothing).map_err(|e| self.engine(e))?;
        Ok(timers)
    }

    fn eval_internal<V: rquickjs::FromJs<'js>>(&self, code: &str) -> Result<V, Failure> {
        let mut options = EvalOptions::default();
        options.strict = false;
        options.filename = Some("sandbox.js".to_owned());
        self.ctx.eval_with_options(code, options).map_err(|e| self.engine(e))
    }

    /// Evaluates `code` as a sloppy global script; `line_offset` wrapper lines come before the
    /// snippet's first line.
    fn eval<V: rquickjs::FromJs<'js>>(&self, code: &str, line_offset: u32) -> Result<V, Failure> {
        let mut options = EvalOptions::default();
        options.strict = false;
        options.global = true;
        options.filename = Some(SNIPPET_FILE.to_owned());
        self.ctx.eval_with_options(code, options).map_err(|error| self.caught(error, line_offset))
    }

    fn caught(&self, error: rquickjs::Error, line_offset: u32) -> Failure {
        if self.clock.was_interrupted() {
            return self.timeout();
        }
        match error {
            rquickjs::Error::Exception => {
                let thrown = self.ctx.catch();
                thrown_failure(&thrown, line_offset, self.clock)
            }
            other => self.engine(other),
        }
    }

    /// Runs jobs and due timers until `promise` settles, the deadline passes, or nothing is left
    /// that could settle it.
    fn settle(&self, promise: &Promise<'js>, timers: &Timers, line_offset: u32) -> Result<Value<'js>, Failure> {
        let ctx = &self.ctx;
        loop {
            while ctx.execute_pending_job() {
                if self.clock.was_interrupted() {
                    return Err(self.timeout());
                }
            }
            if self.clock.was_interrupted() {
                return Err(self.timeout());
            }
            match promise.state() {
                PromiseState::Resolved => {
                    return promise
                        .result::<Value<'js>>()
                        .unwrap_or(Ok(Value::new_undefined(ctx.clone())))
                        .map_err(|e| self.caught(e, line_offset));
                }
                PromiseState::Rejected => {
                    let reason = match promise.result::<Value<'js>>() {
                        Some(Err(rquickjs::Error::Exception)) => ctx.catch(),
                        _ => Value::new_undefined(ctx.clone()),
                    };
                    return Err(thrown_failure(&reason, line_offset, self.clock));
                }
                PromiseState::Pending => {}
            }
            let next = {
                let queue = timers.0.borrow();
                queue.iter().enumerate().min_by_key(|(_, t)| t.due).map(|(i, t)| (i, t.due))
            };
            let Some((index, due)) = next else {
                return Err(Failure::new(
                    FailureKind::Timeout,
                    "the snippet never settles: nothing is left to run and it has not returned (or called resolve)",
                ));
            };
            if due > self.clock.deadline() {
                return Err(self.timeout());
            }
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
            let callback = {
                let mut queue = timers.0.borrow_mut();
                let Some(timer) = queue.get_mut(index) else { continue };
                match timer.every {
                    Some(every) => {
                        timer.due += every;
                        timer.callback.clone()
                    }
                    None => queue.swap_remove(index).callback,
                }
            };
            let callback = callback.restore(ctx).map_err(|e| self.engine(e))?;
            // A throw in a timer callback is an uncaught exception in the node's process.
            callback.call::<_, ()>(()).map_err(|e| self.caught(e, line_offset))?;
        }
    }
}

/// A thrown value as a failure: its kind from the error's name, its place from the stack.
fn thrown_failure(thrown: &Value<'_>, line_offset: u32, clock: &Clock) -> Failure {
    let Some(object) = thrown.as_object() else {
        let text = describe(thrown);
        return Failure::new(FailureKind::Threw, format!("the snippet threw {text}"));
    };
    let name: String = object.get("name").unwrap_or_default();
    let message: String = object.get("message").unwrap_or_default();
    let stack: String = object.get("stack").unwrap_or_default();
    if clock.was_interrupted() {
        return Failure::new(FailureKind::Timeout, "the snippet ran past its time");
    }
    let place = locate_in_stack(&stack, SNIPPET_FILE, line_offset);
    let mut failure = if name == "NodeBuiltinUnavailable" {
        Failure::new(
            FailureKind::NodeBuiltin,
            format!(
                "the snippet uses `{message}`, a Node.js module the node gives snippets; the embedded sandbox has none"
            ),
        )
    } else if message.contains("out of memory") {
        Failure::new(
            FailureKind::Engine,
            format!("the snippet used more than the sandbox's {} MiB of memory", MEMORY_LIMIT >> 20),
        )
    } else if name == "SyntaxError" && !stack.contains(" (") {
        // A compile error has a bare location; a SyntaxError thrown while running (JSON.parse)
        // has call frames.
        Failure::new(FailureKind::Syntax, format!("the snippet does not parse: SyntaxError: {message}"))
    } else if name == "ReferenceError" && message == "require is not defined" {
        Failure::new(
            FailureKind::Threw,
            "the snippet calls `require`, which the node does not give snippets either: ReferenceError: require is not defined",
        )
    } else {
        let name = if name.is_empty() { "Error".to_owned() } else { name };
        Failure::new(FailureKind::Threw, format!("the snippet threw {name}: {message}"))
    };
    failure.line_column = place;
    failure
}

fn describe(value: &Value<'_>) -> String {
    if let Some(text) = value.as_string().and_then(|s| s.to_string().ok()) {
        return format!("\"{text}\"");
    }
    if value.is_undefined() {
        return "undefined".to_owned();
    }
    value
        .ctx()
        .json_stringify(value.clone())
        .ok()
        .flatten()
        .and_then(|s| s.to_string().ok())
        .unwrap_or_else(|| "a value".to_owned())
}

/// Checks the shape the phase must return and reads it as JSON.
fn finish(
    ctx: &Ctx<'_>,
    phase: Phase,
    v2: bool,
    requires_response: bool,
    carried: Option<Persistent<Value<'static>>>,
    clock: &Clock,
) -> Result<(Option<Json>, Option<u64>), Failure> {
    let engine = |e: rquickjs::Error| {
        if clock.was_interrupted() {
            Failure::new(FailureKind::Timeout, "the phase ran past the node's time while its result was read")
        } else {
            quickjs(e)
        }
    };
    let mut options = EvalOptions::default();
    options.filename = Some("sandbox.js".to_owned());
    let check: Function<'_> = ctx.eval_with_options(FINISH, options).map_err(engine)?;
    let value = match carried {
        Some(value) => value.restore(ctx).map_err(engine)?,
        None => Value::new_undefined(ctx.clone()),
    };
    let result: Vec<Option<String>> = check.call((phase.name(), v2, value, requires_response)).map_err(engine)?;
    let mut parts = result.into_iter();
    let (kind, text, timestamp) = (parts.next().flatten(), parts.next().flatten(), parts.next().flatten());
    match kind.as_deref() {
        Some("ok") => {
            let value =
                match text {
                    Some(text) => Some(serde_json::from_str(&text).map_err(|e| {
                        Failure::new(FailureKind::NotSerialisable, format!("the result is not JSON: {e}"))
                    })?),
                    None => None,
                };
            Ok((value, timestamp.and_then(|t| t.parse().ok())))
        }
        Some("shape") => Err(Failure::new(FailureKind::Shape, shape_message(phase, v2, text.unwrap_or_default()))),
        _ => Err(Failure::new(
            FailureKind::NotSerialisable,
            format!("the {}-processed value cannot be carried as JSON: {}", phase.name(), text.unwrap_or_default()),
        )),
    }
}

pub(super) fn shape_message(phase: Phase, v2: bool, detail: String) -> String {
    let expected = match (phase, v2) {
        (Phase::Pre, true) => "a V2 pre-processing function must return { endpointParameters: {...} }",
        (Phase::Post, true) => "a V2 post-processing function must return { response, timestamp? }",
        (Phase::Pre, false) => "V1 pre-processing must leave an object of endpoint parameters in `output`",
        (Phase::Post, false) => "post-processing returned the wrong shape",
    };
    format!("{expected} ({detail})")
}

/// How long checking one snippet's syntax may take.
const CHECK_TIME: Duration = Duration::from_millis(250);

/// Parses `snippet` without running it (V1: as a function body), or, for V2, evaluates its
/// `value` as an expression in the sandbox (a function expression's body does not run) to see
/// that it is a function.
/// Parses `snippet` without running it; a V2 `value` is also evaluated, to see that it is a
/// function, for as much of `budget` as it needs (at most [`CHECK_TIME`]): what it uses is taken
/// from `budget`, shared by the checks of one validation, so that a file of many endpoints whose
/// `value`s run code (`(() => { for (;;); })() || (p => p)`, 250 ms each) costs at most the
/// budget. With nothing left, a `value` is only parsed.
pub(super) fn check(snippet: &Snippet, v2: bool, budget: &mut Duration) -> Result<(), Failure> {
    let evaluation = if v2 { CHECK_TIME.min(*budget) } else { Duration::ZERO };
    let started = Instant::now();
    let checked = check_within(snippet, v2, evaluation);
    *budget = budget.saturating_sub(started.elapsed().min(evaluation));
    checked
}

fn check_within(snippet: &Snippet, v2: bool, evaluation: Duration) -> Result<(), Failure> {
    let (runtime, clock) = sandbox(Instant::now() + CHECK_TIME)?;
    let context = Context::full(&runtime).map_err(quickjs)?;
    let logs: Rc<RefCell<Vec<String>>> = Rc::default();
    context.with(|ctx| {
        let scope = Scope { ctx: ctx.clone(), clock: &clock, logs: &logs, snippet };
        scope.install_sandbox()?;
        if !v2 {
            // `new Function` parses the code as a function body and cannot be escaped from.
            ctx.globals().set("__code", snippet.code.as_str()).map_err(|e| scope.engine(e))?;
            let mut options = EvalOptions::default();
            options.strict = false;
            let compiled: rquickjs::Result<Value<'_>> = ctx.eval_with_options("new Function(__code);", options);
            return match compiled {
                Ok(_) => Ok(()),
                Err(rquickjs::Error::Exception) => {
                    let thrown = ctx.catch();
                    let object = thrown.as_object();
                    let message: String = object.and_then(|o| o.get("message").ok()).unwrap_or_default();
                    let stack: String = object.and_then(|o| o.get("stack").ok()).unwrap_or_default();
                    let mut failure = Failure::new(
                        FailureKind::Syntax,
                        format!("the snippet does not parse: SyntaxError: {message}"),
                    );
                    // The body starts two lines down, past `(function anonymous(\n) {`.
                    failure.line_column = locate_in_stack(&stack, "<input>", 2);
                    Err(failure)
                }
                Err(other) => Err(scope.engine(other)),
            };
        }
        if evaluation.is_zero() {
            // Out of budget: parsed as the expression it is, not run.
            ctx.globals().set("__code", format!("return (\n{}\n)", snippet.code)).map_err(|e| scope.engine(e))?;
            return match ctx.eval::<Value<'_>, _>("new Function(__code);") {
                Ok(_) => Ok(()),
                Err(rquickjs::Error::Exception) => {
                    let thrown = ctx.catch();
                    let message: String = thrown.as_object().and_then(|o| o.get("message").ok()).unwrap_or_default();
                    Err(Failure::new(
                        FailureKind::Syntax,
                        format!("the snippet does not parse: SyntaxError: {message}"),
                    ))
                }
                Err(other) => Err(scope.engine(other)),
            };
        }
        clock.set(Instant::now() + evaluation);
        let value: Value<'_> = scope.eval(&format!("(\n{})", snippet.code), 1)?;
        if value.is_function() {
            return Ok(());
        }
        let kind = value.type_name();
        Err(Failure::new(FailureKind::Shape, format!("it evaluates to a {kind}, not a function")))
    })
}
