//! The convert options as the caller gave them: text (filters, security choices, a target's
//! name), as a command line, the studio's form and a conversion record hold them, and the
//! [`ConvertOptions`] they say.

use serde::{Deserialize, Serialize};

use super::{ConvertOptions, Filter};
use crate::diagnostic::{Code, Diagnostic};
use crate::node::Target;

/// The convert options as given (the text of filters and security choices), so that the API's
/// new document is converted the same way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[non_exhaustive]
pub struct GivenOptions {
    /// The server chosen (index or URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Server variable values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub server_vars: Vec<(String, String)>,
    /// The base URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The title asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The OIS version asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ois_version: Option<String>,
    /// The node written for (`airnode-feed@3`); its format is [`ois_format`](Self::ois_format).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The `oisFormat` written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ois_format: Option<String>,
    /// Operation filters to include.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    /// Operation filters to exclude.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// `NAME` or `NAME+NAME` alternatives, or `["none"]`; empty: the converter chooses.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub security: Vec<String>,
    /// Whether the document's defaults were written.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub defaults: bool,
    /// Parameters made the API's key (`NAME` or `LOCATION:NAME`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_key_parameters: Vec<String>,
    /// Secret names chosen for schemes' credentials (scheme, name), in secrets templates and
    /// config fragments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub secret_names: Vec<(String, String)>,
}

impl GivenOptions {
    /// `self` with every option `given` sets taken from it (the command line overrides the
    /// record).
    pub fn overridden_by(&self, given: &GivenOptions) -> GivenOptions {
        fn pick<T: Clone>(given: &Option<T>, recorded: &Option<T>) -> Option<T> {
            given.clone().or_else(|| recorded.clone())
        }
        fn pick_list<T: Clone>(given: &[T], recorded: &[T]) -> Vec<T> {
            if given.is_empty() { recorded.to_vec() } else { given.to_vec() }
        }
        GivenOptions {
            server: pick(&given.server, &self.server),
            server_vars: pick_list(&given.server_vars, &self.server_vars),
            base_url: pick(&given.base_url, &self.base_url),
            title: pick(&given.title, &self.title),
            ois_version: pick(&given.ois_version, &self.ois_version),
            // A format given now replaces the recorded target with it (and a target its format).
            target: if given.says_format() { given.target.clone() } else { self.target.clone() },
            ois_format: if given.says_format() { given.ois_format.clone() } else { self.ois_format.clone() },
            include: pick_list(&given.include, &self.include),
            exclude: pick_list(&given.exclude, &self.exclude),
            security: pick_list(&given.security, &self.security),
            defaults: given.defaults || self.defaults,
            // Added to: a key named once stays the key through every later update.
            api_key_parameters: {
                let mut all = self.api_key_parameters.clone();
                all.extend(given.api_key_parameters.iter().filter(|p| !self.api_key_parameters.contains(p)).cloned());
                all
            },
            // A scheme named now is named so from now on; the others keep their recorded names.
            secret_names: {
                let mut all: Vec<(String, String)> = self
                    .secret_names
                    .iter()
                    .filter(|(scheme, _)| !given.secret_names.iter().any(|(named, _)| named == scheme))
                    .cloned()
                    .collect();
                all.extend(given.secret_names.iter().cloned());
                all
            },
        }
    }

    /// Whether these name the format to write (a target, or an `oisFormat`).
    pub fn says_format(&self) -> bool {
        self.target.is_some() || self.ois_format.is_some()
    }

    /// These with the target and format of `target` (the others kept).
    pub fn with_target(mut self, target: Target) -> GivenOptions {
        self.target = Some(target.name().to_owned());
        self.ois_format = Some(target.ois_format().to_owned());
        self
    }

    /// These, naming the newest released node when they name no format: what a conversion writes
    /// by default, kept in its record so that a later update (or a later default) does not move it.
    pub fn with_default_target(self) -> GivenOptions {
        if self.says_format() { self } else { self.with_target(Target::NEWEST_RELEASED) }
    }

    /// The [`ConvertOptions`] these say (filters and security choices parsed).
    pub fn convert_options(&self) -> Result<ConvertOptions, Diagnostic> {
        Ok(ConvertOptions {
            server: self.server.clone(),
            server_vars: self.server_vars.clone(),
            base_url: self.base_url.clone(),
            title: self.title.clone(),
            ois_version: self.ois_version.clone(),
            ois_format: self
                .ois_format
                .clone()
                .or_else(|| self.target.as_deref().and_then(Target::named).map(|t| t.ois_format().to_owned())),
            include: self.include.iter().map(|f| Filter::parse(f)).collect::<Result<_, _>>()?,
            exclude: self.exclude.iter().map(|f| Filter::parse(f)).collect::<Result<_, _>>()?,
            defaults: self.defaults,
            security: security_choice(&self.security)?,
            api_key_parameters: self.api_key_parameters.clone(),
            ..ConvertOptions::default()
        })
    }
}

/// `--security` values: `NAME`, `NAME+NAME` (alternatives in order), or `none` alone.
pub fn security_choice(values: &[String]) -> Result<Option<Vec<Vec<String>>>, Diagnostic> {
    if values.is_empty() {
        return Ok(None);
    }
    if values.len() > 1 && values.iter().any(|s| s == "none") {
        return Err(Diagnostic::elsewhere(
            Code::BadArgument,
            "the security choice `none` cannot be combined with other schemes",
        ));
    }
    Ok(Some(
        values
            .iter()
            .filter(|s| *s != "none")
            .map(|s| s.split('+').map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned).collect())
            .collect(),
    ))
}
