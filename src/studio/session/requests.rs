//! What the page sends with each step.

use super::*;

/// Which endpoint's diagnostics the page asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemsRequest {
    /// Its index in the last view sent.
    pub endpoint: usize,
}

/// A document to open: a file of the folder, or text the page read (a file picked
/// in the browser, dropped or pasted).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct OpenRequest {
    /// A file below the folder.
    #[serde(default)]
    pub path: Option<String>,
    /// The name of text given.
    #[serde(default)]
    pub name: Option<String>,
    /// The text.
    #[serde(default)]
    pub text: Option<String>,
    /// How an OpenAPI document is converted (as `ois convert`'s flags say it).
    #[serde(default)]
    pub options: Option<GivenOptions>,
}

/// A step that changes the draft (undo, redo): which draft view the page holds, so that only what
/// changed of it is sent.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SeenRequest {
    /// The revision of the draft view the page holds.
    pub seen: Option<u64>,
}

/// Settings of an endpoint edit, as the page's form gives them.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SettingsRequest {
    /// Reserved parameters: name and fixed value (`None`: the requester's).
    pub reserved: Vec<(String, Option<String>)>,
    /// Reserved parameters taken away (a value cleared in the form).
    pub unreserved: Vec<String>,
    /// Operation parameters fixed: name and value.
    pub fixed: Vec<(String, String)>,
    /// Operation parameters no longer fixed (the requester gives them again).
    pub unfixed: Vec<String>,
    /// Endpoint parameters changed: name and the change, typed (`"required"`, `{"rename": NEW}`).
    pub parameters: Vec<(String, crate::edit::ParameterChange)>,
    /// Pre-processing (a V2 function).
    pub pre: Option<String>,
    /// Post-processing (a V2 function).
    pub post: Option<String>,
}

impl SettingsRequest {
    pub(super) fn settings(self) -> crate::edit::Settings {
        let mut settings = crate::edit::Settings {
            reserved: self.reserved,
            unreserved: self.unreserved,
            fixed: self.fixed,
            unfixed: self.unfixed,
            parameters: self.parameters,
            ..crate::edit::Settings::default()
        };
        settings.pre = self.pre.filter(|code| !code.trim().is_empty()).map(crate::edit::Snippet::v2);
        settings.post = self.post.filter(|code| !code.trim().is_empty()).map(crate::edit::Snippet::v2);
        settings
    }
}

/// An endpoint edit, as `ois endpoint add|set|rm|keep` takes it.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum EditRequest {
    /// `ois endpoint add`.
    Add {
        /// Its name.
        name: String,
        /// `GET /path`.
        operation: String,
        /// What to set.
        #[serde(default)]
        settings: SettingsRequest,
    },
    /// `ois endpoint set`.
    Set {
        /// The endpoint.
        name: String,
        /// Its new name.
        #[serde(default)]
        rename: Option<String>,
        /// What to set.
        #[serde(default)]
        settings: SettingsRequest,
    },
    /// `ois endpoint rm`.
    Remove {
        /// The endpoints.
        names: Vec<String>,
    },
    /// `ois endpoint keep`.
    Keep {
        /// Names or `GET /path`s.
        filters: Vec<String>,
    },
    /// `ois feed add` (checked against the OpenAPI document open in the studio).
    AddFeed {
        /// The feed.
        #[serde(flatten)]
        feed: FeedRequestFields,
    },
    /// `ois feed set`.
    SetFeed {
        /// The feed and what changes.
        #[serde(flatten)]
        feed: FeedRequestFields,
        /// Its new name.
        #[serde(default)]
        rename: Option<String>,
        /// Parameters taken away.
        #[serde(default)]
        dropped: Vec<String>,
    },
    /// `ois feed rm`.
    RemoveFeeds {
        /// The feeds.
        names: Vec<String>,
    },
    /// `ois feed batch`.
    BatchFeeds {
        /// The feeds, two or more on one vendor path.
        names: Vec<String>,
    },
}

/// A feed by name as the page gives it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedRequestFields {
    /// Its name.
    pub name: String,
    /// The vendor operation: an operation ID of the open document, or `GET /path`.
    #[serde(default)]
    pub operation: Option<String>,
    /// Its vendor parameters, name and value.
    #[serde(default)]
    pub parameters: Vec<(String, String)>,
    /// The value's path in the vendor's answer.
    #[serde(default)]
    pub value: Option<String>,
    /// A parser snippet instead.
    #[serde(default)]
    pub parser: Option<String>,
}

/// A request preview or a call (kept with a past call, and sent back to make it again).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CallRequest {
    /// The endpoint.
    pub endpoint: String,
    /// The requester's parameters, name and text.
    #[serde(default)]
    pub parameters: Vec<(String, String)>,
    /// A server to call instead of the OIS's.
    #[serde(default)]
    pub server: Option<String>,
    /// Preview the value from the API's last answer.
    #[serde(default)]
    pub use_response: bool,
    /// Airnode Feed's request instead of Airnode's.
    #[serde(default)]
    pub feed: bool,
    /// A folder (below the studio's) to keep the call's exchange in, as a recording.
    #[serde(default)]
    pub record: Option<String>,
}

/// The node a config is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildNode {
    /// Airnode Feed.
    Feed,
    /// Airnode (config.json).
    Airnode,
}

/// Feeds for a node config.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BuildRequest {
    /// The node the config is for.
    pub node: BuildNode,
    /// Feeds, `ENDPOINT:NAME=TYPE:VALUE,...` each.
    #[serde(default)]
    pub feeds: Vec<String>,
    /// Feeds as the form gives them: an endpoint and its parameters, (name, type, value) each.
    #[serde(default)]
    pub templates: Vec<TemplateRequest>,
    /// Signed APIs: name and URL.
    #[serde(default)]
    pub signed_apis: Vec<(String, String)>,
    /// One trigger per API call the feeds can share.
    #[serde(default)]
    pub batch: bool,
    /// A staging config: every OIS calls this server (a mock, a staging host) instead of its own.
    #[serde(default)]
    pub server: Option<String>,
    /// A template for every feed served by name.
    #[serde(default)]
    pub all_feeds: bool,
    /// Seconds between a trigger's API calls (the scaffold's default when none).
    #[serde(default)]
    pub fetch_interval: Option<u64>,
}

/// One feed of the form: an endpoint and its template parameters.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateRequest {
    /// The endpoint.
    pub endpoint: String,
    /// Its parameters: name, type (string32, uint256, …) and value.
    #[serde(default)]
    pub parameters: Vec<(String, String, String)>,
}

/// A file written.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaveRequest {
    /// `ois`, `config` (with its secrets template) or `ids`.
    pub what: String,
    /// Where, below the folder.
    pub path: String,
    /// The secrets template's path (with `config`).
    #[serde(default)]
    pub secrets_path: Option<String>,
    /// Replace a file that exists.
    #[serde(default)]
    pub force: bool,
}

/// `/api/status`: what is live of the config built last.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatusRequest {
    /// The Signed API to read instead of the one the config pushes to.
    #[serde(default)]
    pub signed_api_url: Option<String>,
    /// A server to call instead of the OIS's (the staging server the config was built for).
    #[serde(default)]
    pub server: Option<String>,
}
