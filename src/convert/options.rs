//! What the caller of a conversion can choose.

use super::filter::Filter;

/// What the caller can choose; everything else follows from the document. Start from
/// `ConvertOptions::default()` and set what you need.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ConvertOptions {
    /// The server to use: an index into `servers` or one of their URLs (default: the first).
    pub server: Option<String>,
    /// Server variable values (name, value), applied over the variables' defaults.
    pub server_vars: Vec<(String, String)>,
    /// Resolves a relative server URL, or is the server when the document has none.
    pub base_url: Option<String>,
    /// The `oisFormat` written (default: the newest released node's, [`Target::NEWEST_RELEASED`](crate::node::Target::NEWEST_RELEASED)).
    pub ois_format: Option<String>,
    /// The title, instead of `info.title` made to fit.
    pub title: Option<String>,
    /// The OIS version, instead of `info.version` made x.y.z.
    pub ois_version: Option<String>,
    /// Files referenced by `$ref` may be anywhere below this folder (default: the document's own
    /// folder).
    pub allow_root: Option<std::path::PathBuf>,
    /// Only operations matching one of these (all when empty).
    pub include: Vec<Filter>,
    /// No operation matching one of these.
    pub exclude: Vec<Filter>,
    /// Write the document's defaults of optional parameters as OIS defaults (the node then sends
    /// them whenever the requester gives no value); required parameters never get one.
    pub defaults: bool,
    /// The security alternatives allowed, in order of preference, each a set of scheme names (the
    /// first that serves the most operations is used); `Some(vec![])` for none (a public API);
    /// `None` chooses the smallest set that serves every operation.
    pub security: Option<Vec<Vec<String>>>,
    /// Parameters that carry the API's key though the document declares no scheme for them
    /// (`NAME`, or `LOCATION:NAME` when the name is used in more than one place): each becomes an
    /// apiKey scheme the node fills from its secrets, and no endpoint parameter.
    pub api_key_parameters: Vec<String>,
}

impl ConvertOptions {
    /// With [`base_url`](Self::base_url) set.
    pub fn with_base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// With [`server`](Self::server) set: an index or a URL.
    pub fn with_server(mut self, server: impl Into<String>) -> Self {
        self.server = Some(server.into());
        self
    }

    /// With a value for one server variable.
    pub fn with_server_var(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.server_vars.push((name.into(), value.into()));
        self
    }

    /// With [`ois_format`](Self::ois_format) set.
    pub fn with_ois_format(mut self, format: impl Into<String>) -> Self {
        self.ois_format = Some(format.into());
        self
    }

    /// With [`title`](Self::title) set.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// With [`ois_version`](Self::ois_version) set.
    pub fn with_ois_version(mut self, version: impl Into<String>) -> Self {
        self.ois_version = Some(version.into());
        self
    }

    /// With [`allow_root`](Self::allow_root) set.
    pub fn with_allow_root(mut self, folder: impl Into<std::path::PathBuf>) -> Self {
        self.allow_root = Some(folder.into());
        self
    }

    /// With one more allowed [`security`](Self::security) alternative (no names: none at all).
    pub fn with_security(mut self, schemes: &[&str]) -> Self {
        let alternatives = self.security.get_or_insert_with(Vec::new);
        if !schemes.is_empty() {
            alternatives.push(schemes.iter().map(|name| (*name).to_owned()).collect());
        }
        self
    }

    /// With one more [`api_key_parameters`](Self::api_key_parameters) entry.
    pub fn with_api_key_parameter(mut self, parameter: impl Into<String>) -> Self {
        self.api_key_parameters.push(parameter.into());
        self
    }

    /// With [`defaults`](Self::defaults) on.
    pub fn with_defaults(mut self) -> Self {
        self.defaults = true;
        self
    }

    /// With one more [`include`](Self::include) filter.
    pub fn including(mut self, filter: Filter) -> Self {
        self.include.push(filter);
        self
    }

    /// With one more [`exclude`](Self::exclude) filter.
    pub fn excluding(mut self, filter: Filter) -> Self {
        self.exclude.push(filter);
        self
    }
}
