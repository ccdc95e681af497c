//! What each step answers the page, typed: one shape per route (beside the view, `PageView`, and
//! the report, `ReportView`), so that the page's contract is written down in one place. Each is
//! serialized as it is sent; a secret held is masked in it afterwards, as in every answer.

use serde::Serialize;
use serde_json::Value;

use super::view::Placed;
use crate::jobs::ids::IdsReport;
use crate::request::Log;
use crate::request::paths::Leaf;
use crate::update::EndpointChange;

/// `/api/request`: the node's request, as `ois request --format json` shows it, and as curl.
#[derive(Debug, Serialize)]
pub struct RequestAnswer {
    /// The exchange (request, and the value when a response was given).
    pub exchange: Value,
    /// The request as a curl command line, credentials masked.
    pub curl: Option<String>,
    /// Notes and warnings.
    pub diagnostics: Vec<Placed>,
}

/// What the snippets logged before a step was refused.
#[derive(Debug, Serialize)]
pub struct Logged {
    /// The lines, in order.
    pub logs: Vec<Log>,
}

/// `/api/secrets`: the names of the secrets held (never their values).
#[derive(Debug, Serialize)]
pub struct SecretNames<'a> {
    /// The names, in order.
    pub secrets: Vec<&'a String>,
}

/// `/api/build`: a node config of the draft, its secrets template and every ID.
#[derive(Debug, Serialize)]
pub struct Built {
    /// The config's text.
    pub config: String,
    /// Its secrets template's text.
    pub secrets: String,
    /// The IDs (`ois ids` of the config).
    pub ids: IdsReport,
    /// The secret the config's mnemonic is read from.
    pub mnemonic: String,
    /// Warnings and notes about the config.
    pub diagnostics: Vec<Placed>,
}

/// The values of an API's answer the page offers to pick.
#[derive(Debug, Serialize)]
pub struct Picker {
    /// Every leaf with the `_path` to it.
    pub leaves: Vec<Leaf>,
    /// Whether there were more than are listed.
    pub truncated: bool,
    /// The likeliest value's index.
    pub suggested: Option<usize>,
    /// The feed by name the call asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
    /// The element of the answer that is the feed's own, when one call answers it with others:
    /// the leaves are only those inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
}

/// `/api/call`: the call as `ois call --format json` shows it, and the values to pick from.
#[derive(Debug, Serialize)]
pub struct Called {
    /// The call.
    pub call: crate::call::CallView,
    /// The values of its answer.
    pub picker: Picker,
    /// Notes and warnings.
    pub diagnostics: Vec<Placed>,
}

/// What a refused call still tells: the call as far as it went, its answer's values, the logs.
#[derive(Debug, Serialize)]
pub struct CallFailed {
    /// The call, when it was made.
    pub call: Option<crate::call::ReplyView>,
    /// The values of its answer (none without one).
    pub picker: Picker,
    /// What the snippets logged.
    pub logs: Vec<Log>,
}

/// One call the page made, kept to be seen and made again: what was asked, and what came of it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PastCall {
    /// What the page asked (sent back as it is to make the call again).
    pub request: super::CallRequest,
    /// When, in seconds since the Unix epoch.
    pub at: u64,
    /// The HTTP status, when the API answered.
    pub status: Option<u16>,
    /// How long the API took, in milliseconds, when it answered.
    pub latency_ms: Option<u64>,
    /// The values read from the answer, when the call went through.
    pub values: Option<Value>,
    /// Why it stopped, when it did: the first error, as `CODE: message`.
    pub refused: Option<String>,
    /// The answer's body (secrets masked), when it is small enough to keep.
    pub answer: Option<Value>,
}

/// `/api/calls`: the page's last calls, newest first.
#[derive(Debug, Serialize)]
pub struct PastCalls<'a> {
    /// The calls.
    pub calls: &'a std::collections::VecDeque<PastCall>,
}

/// `/api/status`: the deployment of the config built last, beacon by beacon.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Live {
    /// The Signed API read.
    pub signed_api: String,
    /// The config's Airnode.
    pub airnode: String,
    /// Each beacon, judged.
    pub beacons: Vec<crate::jobs::status::BeaconStatus>,
    /// How many are live.
    pub live: usize,
    /// How many are not.
    pub failing: usize,
    /// What is wrong, each beacon's once, and the notes.
    pub diagnostics: Vec<Placed>,
}

/// `/api/draft`: the draft's text.
#[derive(Debug, Serialize)]
pub struct DraftText<'a> {
    /// The text.
    pub text: &'a str,
}

/// `/api/save`: the files written, below the folder; with what the write said, or the view
/// after it.
#[derive(Debug, Serialize)]
pub struct Saved {
    /// The files, relative to the folder.
    pub written: Vec<String>,
    /// The page's view after saving the draft (its file named now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<Value>,
    /// What writing a config said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Vec<Placed>>,
}

/// `/api/disk`: the draft's file as it is on disk, against the draft.
#[derive(Debug, Serialize)]
pub struct OnDisk<'a> {
    /// The file, relative to the folder.
    pub file: &'a str,
    /// The unified difference from the draft to the file.
    pub diff: String,
}

/// `/api/update`: the three-way update shown before it is taken.
#[derive(Debug, Serialize)]
pub struct UpdateShown<'a> {
    /// The unified difference from the draft to the update.
    pub diff: String,
    /// What became of each endpoint.
    pub endpoints: &'a [EndpointChange],
    /// How many conflicts it holds.
    pub conflicts: usize,
    /// Everything the update said.
    pub diagnostics: Vec<Placed>,
}

/// `/api/problems`: an endpoint's diagnostics, for the card that opened.
#[derive(Debug, Serialize)]
pub struct Problems {
    /// The view they belong to.
    pub revision: u64,
    /// The diagnostics.
    pub diagnostics: Vec<Placed>,
}
