//! What a scaffold is asked to make: the kind of config and what it is made with, and where it
//! goes.

use std::path::PathBuf;

use crate::node::Target;

/// Where a scaffold goes.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ScaffoldOutputs {
    /// The configuration (`None`: standard output).
    pub output: Option<PathBuf>,
    /// The secrets.env template.
    pub secrets_out: Option<PathBuf>,
    /// Replace files that exist.
    pub force: bool,
    /// The secret names chosen for schemes' credentials (scheme, name), instead of those derived.
    pub secret_names: Vec<(String, String)>,
}

/// An Airnode Feed config's feeds and settings.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct FeedRequest {
    /// Feeds written `ENDPOINT:NAME=TYPE:VALUE,...`.
    pub feeds: Vec<String>,
    /// A JSON file of feeds.
    pub feeds_file: Option<PathBuf>,
    /// Feeds given as values (the studio's form), after those written out.
    pub templates: Vec<crate::scaffold::node::Feed>,
    /// The node (`None`: the Feed of `node_version`, else the Feed that reads the OIS's format).
    pub target: Option<Target>,
    /// `nodeSettings.nodeVersion`: the exact release targeted (`None`: the target's newest).
    pub node_version: Option<String>,
    /// Signed APIs: (name, URL).
    pub signed_apis: Vec<(String, String)>,
    /// Seconds between a trigger's calls.
    pub fetch_interval: u64,
    /// One trigger for the feeds of an endpoint whose pre-processed parameters are equal.
    pub batch: bool,
    /// Another server for every OIS of the config (a mock, a staging host): a staging config.
    pub server: Option<String>,
    /// A template for every feed served by name (each OIS's `feed` endpoint, `name` as
    /// string32), batched as their requests are the same.
    pub all_feeds: bool,
}

impl Default for FeedRequest {
    /// No feeds yet; a trigger's calls 5 s apart (never 0: the Feed would call the API back to
    /// back).
    fn default() -> Self {
        FeedRequest {
            feeds: Vec::new(),
            feeds_file: None,
            templates: Vec::new(),
            target: None,
            node_version: None,
            signed_apis: Vec::new(),
            fetch_interval: DEFAULT_FETCH_INTERVAL,
            batch: false,
            server: None,
            all_feeds: false,
        }
    }
}

/// Seconds between a trigger's API calls when none is asked for.
pub const DEFAULT_FETCH_INTERVAL: u64 = 5;

/// The Signed API config asked for.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SignedApiRequest {
    /// Which signed API of the Feed config (`None`: its only one).
    pub signed_api: Option<String>,
    /// Where the Airnode's address comes from (the mnemonic, or the address).
    pub airnode: crate::jobs::ids::Airnode,
    /// A public endpoint serving data this many seconds late.
    pub delayed: Option<u64>,
}

/// What to scaffold.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ScaffoldKind {
    /// The config.json fragment (`ois` and `apiCredentials`), for `target` when given.
    Fragment {
        /// Refuse an OIS this node does not read.
        target: Option<Target>,
    },
    /// A whole Airnode Feed config.
    Feed(FeedRequest),
    /// The Signed API's config for a signed API of the Airnode Feed config that is the job's file.
    SignedApi(SignedApiRequest),
    /// A whole Airnode config.json.
    Airnode(AirnodeRequest),
}

/// What an Airnode config.json is made with, beside its OIS.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct AirnodeRequest {
    /// The node's settings: gateways, chains, gas, authorizers.
    pub options: crate::scaffold::node::AirnodeOptions,
    /// RRP templates, `ENDPOINT:NAME=TYPE:VALUE,...` each, their IDs derived from `airnode`.
    pub templates: Vec<String>,
    /// The Airnode the templates' IDs derive from (needed with templates).
    pub airnode: crate::jobs::ids::Airnode,
    /// Another server every OIS calls instead of its own (a staging config).
    pub server: Option<String>,
}

/// What `ois scaffold` is asked to do.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ScaffoldJob {
    /// The OIS files.
    pub files: Vec<PathBuf>,
    /// What to write.
    pub kind: ScaffoldKind,
    /// Where.
    pub outputs: ScaffoldOutputs,
}

impl ScaffoldJob {
    /// A job for `files`.
    pub fn new(files: Vec<PathBuf>, kind: ScaffoldKind, outputs: ScaffoldOutputs) -> ScaffoldJob {
        ScaffoldJob { files, kind, outputs }
    }
}
