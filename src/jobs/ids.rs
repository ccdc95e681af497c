//! `ois ids`, `ois endpoint-ids` and `ois ids verify`: the IDs a node derives, from an OIS file
//! and templates, or re-derived from a whole config.

use std::path::PathBuf;

use alloy_primitives::{Address, B256};
use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Fix, Severity};
use crate::node::ids::{self, TemplateParameter};
use crate::scaffold::node::Feed;
use crate::source::Source;

/// Where the Airnode address comes from.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub enum Airnode {
    /// None given: no beacon or RRP template IDs.
    #[default]
    None,
    /// The address itself.
    Address(String),
    /// The environment variable holding the Airnode's wallet mnemonic (never shown).
    MnemonicIn(String),
    /// A secrets file holding the mnemonic under the name the config's
    /// `nodeSettings.airnodeWalletMnemonic` gives (or the scaffolds' name), never shown.
    SecretsFile(PathBuf),
    /// Secrets held in memory (the studio's), read as the secrets file is.
    Secrets(crate::request::Secrets),
}

/// What `ois ids` is asked for.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct IdsJob {
    /// An OIS, a list of them or a config.
    pub file: PathBuf,
    /// Templates written `ENDPOINT:NAME=TYPE:VALUE,...`.
    pub templates: Vec<String>,
    /// A JSON file of templates.
    pub templates_file: Option<PathBuf>,
    /// A template for every feed served by name (each OIS's `feed` endpoint).
    pub all_feeds: bool,
    /// The Airnode, for beacon and RRP template IDs.
    pub airnode: Airnode,
    /// Also the beacon set of the templates' beacons, in the order given.
    pub set: bool,
    /// Sponsors whose wallets to derive (RRP): the Airnode's mnemonic is needed.
    pub sponsors: Vec<String>,
    /// The document already in hand (the studio's), read instead of `file`.
    pub held: Option<super::Held>,
}

/// An endpoint and the ID the node derives from (title, name).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EndpointId {
    /// The OIS's title.
    pub ois_title: String,
    /// The endpoint's name.
    pub endpoint_name: String,
    /// `keccak256(abi.encode(title, name))`.
    pub endpoint_id: String,
}

/// A template and every ID derived from it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TemplateIds {
    /// The OIS the endpoint is in.
    pub ois_title: String,
    /// The endpoint.
    pub endpoint_name: String,
    /// Its ID.
    pub endpoint_id: String,
    /// The template's parameters.
    pub parameters: Vec<TemplateParameter>,
    /// In Airnode ABI, `0x…`.
    pub encoded_parameters: String,
    /// The Airnode Feed template ID.
    pub template_id: String,
    /// Its OEV template ID.
    pub oev_template_id: String,
    /// The Airnode, checksummed (when given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airnode: Option<String>,
    /// The Airnode (RRP) template ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rrp_template_id: Option<String>,
    /// The call data of `AirnodeRrpV0.createTemplate(airnode, endpointId, parameters)`: an RRP
    /// template must exist on chain before a request names it (the copy in config.json only
    /// saves the node the read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_template: Option<String>,
    /// The beacon ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacon_id: Option<String>,
    /// The OEV beacon ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oev_beacon_id: Option<String>,
}

/// What `ois ids` derived.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct IdsReport {
    /// Every endpoint of the file.
    pub endpoints: Vec<EndpointId>,
    /// The Airnode, checksummed (when given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airnode: Option<String>,
    /// Every template asked for (or, for an Airnode Feed config without any, its own).
    pub templates: Vec<TemplateIds>,
    /// The beacon set of the templates' beacons, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beacon_set_id: Option<String>,
    /// An Airnode Feed config's hash as the Feed's heartbeat logs it (`configHash`), over the
    /// config as written (secrets not filled): what an operator checks a deployment against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_hash: Option<String>,
    /// The wallet the Airnode fulfils each sponsor's RRP requests from, for each sponsor asked
    /// about: the sponsor funds it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sponsor_wallets: Vec<SponsorWallet>,
    /// What about the templates' values surprises people (how the encoder reads them).
    pub diagnostics: Vec<Diagnostic>,
}

/// A sponsor and the Airnode's wallet for it (RRP).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SponsorWallet {
    /// The sponsor, checksummed.
    pub sponsor: String,
    /// The sponsor wallet, checksummed: fund it for the fulfilments' gas.
    pub wallet: String,
}

fn bad(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadArgument, message)
}

/// Every endpoint of the OIS objects of the file at `file` with its ID.
pub fn endpoint_ids(file: &std::path::Path) -> Result<Vec<EndpointId>, Diagnostic> {
    endpoint_ids_in(&Source::read(file)?)
}

/// Every endpoint of the OIS objects of `source` with its ID.
pub fn endpoint_ids_in(source: &Source) -> Result<Vec<EndpointId>, Diagnostic> {
    let mut rows = Vec::new();
    for ois in crate::ois::oises_in(source)? {
        let title = ois.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
        for (endpoint_name, endpoint_id) in crate::node::endpoint_ids(&ois) {
            rows.push(EndpointId { ois_title: title.clone(), endpoint_name, endpoint_id });
        }
    }
    Ok(rows)
}

fn templates_of(job: &IdsJob) -> Result<Vec<Feed>, Diagnostic> {
    let mut templates = Vec::new();
    for text in &job.templates {
        templates.push(Feed::parse(text, "template")?);
    }
    if let Some(path) = &job.templates_file {
        templates.extend(Feed::list_from_json(&Source::read_regular(path)?.parse()?, &path.display().to_string())?);
    }
    Ok(templates)
}

/// The Airnode address `airnode` says, for the config `document`.
pub(super) fn airnode_of(airnode: &Airnode, document: &Source) -> Result<Option<Address>, Diagnostic> {
    airnode_named(airnode, || mnemonic_name(document))
}

/// The name the config `document` keeps its mnemonic under.
fn mnemonic_name(document: &Source) -> Result<String, Diagnostic> {
    Ok(crate::node::mnemonic_secret(&document.parse()?))
}

/// The Airnode's address: given, or from its mnemonic, held (in secrets) under the name
/// `secret_name` gives (a config's `nodeSettings` names it; a config still to be made, the
/// scaffolds' name).
pub(super) fn airnode_named(
    airnode: &Airnode,
    secret_name: impl FnOnce() -> Result<String, Diagnostic>,
) -> Result<Option<Address>, Diagnostic> {
    if let Airnode::Address(text) = airnode {
        return text.parse().map(Some).map_err(|_| bad(format!("\"{text}\" is not an address")));
    }
    let Some(mnemonic) = mnemonic_of(airnode, secret_name)? else { return Ok(None) };
    crate::node::airnode_address(&mnemonic.text)
        .map(Some)
        .ok_or_else(|| bad(format!("{} is not a valid BIP-39 mnemonic", mnemonic.from)))
}

/// A mnemonic and where it was read (for messages; the mnemonic itself is never shown).
struct Mnemonic {
    text: String,
    from: String,
}

/// The Airnode's mnemonic, when `airnode` names where it is (in secrets, under the name
/// `secret_name` gives).
fn mnemonic_of(
    airnode: &Airnode,
    secret_name: impl FnOnce() -> Result<String, Diagnostic>,
) -> Result<Option<Mnemonic>, Diagnostic> {
    let from_secrets = |secrets: &crate::request::Secrets, file: Option<&std::path::Path>| {
        let name = secret_name()?;
        let name = name.as_str();
        let holder = file.map_or_else(|| "the secrets".to_owned(), |path| path.display().to_string());
        let mnemonic = secrets.file_value(name).ok_or_else(|| {
            bad(format!("{holder} has no {name} (the Airnode's mnemonic)")).with_fix(
                crate::diagnostic::Fix::FillSecret {
                    name: name.to_owned(),
                    file: file.map(|path| path.display().to_string()),
                },
            )
        })?;
        Ok(Some(Mnemonic { text: mnemonic.to_owned(), from: format!("{name} in {holder}") }))
    };
    match airnode {
        Airnode::SecretsFile(path) => {
            from_secrets(&crate::request::Secrets::parse(&Source::read_regular(path)?.text)?, Some(path))
        }
        Airnode::Secrets(secrets) => from_secrets(secrets, None),
        Airnode::None | Airnode::Address(_) => Ok(None),
        Airnode::MnemonicIn(variable) => {
            let text = std::env::var(variable)
                .map_err(|_| bad(format!("the environment variable {variable} (the mnemonic) is not set")))?;
            Ok(Some(Mnemonic { text, from: format!("the environment variable {variable}") }))
        }
    }
}

/// Each template asked for with its endpoint; without any asked for, an Airnode Feed config's
/// own templates (each with the endpoint its `endpointId` names).
fn requested(
    job: &IdsJob,
    document: &Source,
    endpoints: &[EndpointId],
) -> Result<Vec<(EndpointId, Vec<TemplateParameter>)>, Diagnostic> {
    if job.templates.is_empty() && job.templates_file.is_none() && !job.all_feeds {
        return config_templates(document, endpoints);
    }
    let mut requested = Vec::new();
    let mut all = templates_of(job)?;
    if job.all_feeds {
        let root = document.parse()?;
        let read = crate::ois::OisDocument::read(&root).map_err(|(_, error)| error)?;
        let oises: Vec<Value> = read.oises.iter().map(|(_, ois)| (*ois).clone()).collect();
        all.extend(super::feed::templates(&oises)?);
    }
    for template in all {
        let matching: Vec<&EndpointId> = endpoints.iter().filter(|e| e.endpoint_name == template.endpoint).collect();
        let [endpoint] = matching.as_slice() else {
            let names: Vec<&str> = endpoints.iter().map(|e| e.endpoint_name.as_str()).collect();
            return Err(bad(format!(
                "template for \"{}\": {} endpoint(s) of that name (the endpoints are: {})",
                template.endpoint,
                matching.len(),
                names.join(", ")
            )));
        };
        requested.push(((*endpoint).clone(), template.parameters));
    }
    Ok(requested)
}

/// The templates of the Airnode Feed config at `file`, in its order (none for any other file).
/// An endpoint ID the config's endpoints do not name is an error: `ois ids verify` says more.
fn config_templates(
    source: &Source,
    endpoints: &[EndpointId],
) -> Result<Vec<(EndpointId, Vec<TemplateParameter>)>, Diagnostic> {
    let config = source.parse()?;
    let Some(templates) = config.get("templates").and_then(Value::as_object) else { return Ok(Vec::new()) };
    let mut requested = Vec::new();
    for (id, template) in templates {
        let at = crate::pointer::join("/templates", [id.as_str()]);
        let endpoint_id = template.get("endpointId").and_then(Value::as_str).unwrap_or_default();
        let named = config.get("endpoints").and_then(|e| e.get(endpoint_id));
        let text = |key: &str| named.and_then(|n| n.get(key)).and_then(Value::as_str);
        let found = endpoints.iter().find(|e| {
            Some(e.ois_title.as_str()) == text("oisTitle") && Some(e.endpoint_name.as_str()) == text("endpointName")
        });
        let Some(endpoint) = found else {
            let mut error = Diagnostic::new(
                Code::BadArgument,
                format!("{at}/endpointId"),
                format!("template {id}: its endpoint {endpoint_id} is not an endpoint of the config's OIS"),
            )
            .with_fix(Fix::VerifyIds);
            source.locate_diagnostic(&mut error);
            return Err(error);
        };
        let parameters =
            ids::parameters_from_json(template.get("parameters").unwrap_or(&Value::Null)).map_err(|error| {
                let mut error = error.within(&at);
                source.locate_diagnostic(&mut error);
                error
            })?;
        requested.push((endpoint.clone(), parameters));
    }
    Ok(requested)
}

/// Derives what `job` asks for.
pub fn run(job: &IdsJob) -> Result<IdsReport, Diagnostic> {
    let document = super::Held::or_read(job.held.as_ref(), &job.file)?;
    let endpoints = endpoint_ids_in(&document)?;
    let airnode = airnode_of(&job.airnode, &document)?;
    if job.set && airnode.is_none() {
        return Err(bad("a beacon set needs the Airnode (its address or mnemonic) to derive the beacons".to_owned()));
    }
    let mut warnings = Vec::new();
    let mut templates = Vec::new();
    let mut beacons = Vec::new();
    for (endpoint, parameters) in requested(job, &document, &endpoints)? {
        let template =
            Feed { ois_title: Some(endpoint.ois_title.clone()), endpoint: endpoint.endpoint_name.clone(), parameters };
        let endpoint = &endpoint;
        let encoded = ids::encode_parameters(&template.parameters)?;
        warnings.extend(encoded.surprises.clone());
        let endpoint_id: B256 =
            endpoint.endpoint_id.parse().map_err(|_| bad("an endpoint ID that is not 32 bytes".to_owned()))?;
        let template_id = ids::feed_template_id(endpoint_id, &encoded.bytes);
        let oev_template_id = ids::oev_template_id(template_id);
        let mut row = TemplateIds {
            ois_title: endpoint.ois_title.clone(),
            endpoint_name: template.endpoint.clone(),
            endpoint_id: endpoint.endpoint_id.clone(),
            parameters: template.parameters.clone(),
            encoded_parameters: format!("0x{}", alloy_primitives::hex::encode(&encoded.bytes)),
            template_id: template_id.to_string(),
            oev_template_id: oev_template_id.to_string(),
            airnode: None,
            rrp_template_id: None,
            create_template: None,
            beacon_id: None,
            oev_beacon_id: None,
        };
        if let Some(airnode) = airnode {
            let beacon = ids::beacon_id(airnode, template_id);
            beacons.push(beacon);
            row.airnode = Some(airnode.to_checksum(None));
            row.rrp_template_id = Some(crate::node::rrp_template_id(airnode, endpoint_id, &encoded.bytes));
            row.create_template = Some(crate::node::create_template_calldata(airnode, endpoint_id, &encoded.bytes));
            row.beacon_id = Some(beacon.to_string());
            row.oev_beacon_id = Some(ids::beacon_id(airnode, oev_template_id).to_string());
        }
        templates.push(row);
    }
    if job.set && beacons.len() < 2 {
        return Err(bad(format!(
            "a beacon set needs at least two beacons ({} given): Api3ServerV1 (DataFeedServer) refuses to update one of fewer",
            beacons.len()
        )));
    }
    let beacon_set_id = job.set.then(|| ids::beacon_set_id(&beacons).to_string());
    let airnode = airnode.map(|a| a.to_checksum(None));
    let config_hash = document
        .parse()
        .ok()
        .filter(|root| crate::node::ConfigKind::of(root) == Some(crate::node::ConfigKind::AirnodeFeed))
        .map(|root| ids::config_hash(&root));
    let sponsor_wallets = sponsor_wallets(job, &document)?;
    Ok(IdsReport { endpoints, airnode, templates, beacon_set_id, config_hash, sponsor_wallets, diagnostics: warnings })
}

/// Each sponsor's wallet, from the Airnode's mnemonic (an address alone does not derive them).
fn sponsor_wallets(job: &IdsJob, document: &Source) -> Result<Vec<SponsorWallet>, Diagnostic> {
    if job.sponsors.is_empty() {
        return Ok(Vec::new());
    }
    let Some(mnemonic) = mnemonic_of(&job.airnode, || mnemonic_name(document))? else {
        let name = mnemonic_name(document).unwrap_or_default();
        return Err(bad("a sponsor wallet derives from the Airnode's mnemonic, not its address".to_owned())
            .with_fix(crate::diagnostic::Fix::GiveMnemonic(name)));
    };
    job.sponsors
        .iter()
        .map(|text| {
            let sponsor: Address = text.parse().map_err(|_| bad(format!("sponsor \"{text}\" is not an address")))?;
            let wallet = crate::node::sponsor_wallet(&mnemonic.text, sponsor)
                .ok_or_else(|| bad(format!("{} is not a valid BIP-39 mnemonic", mnemonic.from)))?;
            Ok(SponsorWallet { sponsor: sponsor.to_checksum(None), wallet: wallet.to_checksum(None) })
        })
        .collect()
}

/// What `ois ids verify` found.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct VerifyReport {
    /// The config's display name.
    pub file: String,
    /// IDs not derived from what they name (OIS067, OIS070, OIS075).
    pub mismatches: usize,
    /// Other errors found on the way (a template its endpoint cannot serve, a parameter the
    /// encoder refuses): the IDs may all be derived, the config still not servable.
    pub other_errors: usize,
    /// IDs that could not be checked: RRP template IDs, which derive from the Airnode address,
    /// of a config whose mnemonic is a `${SECRET}` no secrets file given holds.
    pub unchecked: usize,
    /// Its diagnostics, and the file read for showing them in its text.
    #[serde(flatten)]
    pub located: crate::source::Located,
}

/// Re-derives every ID of the config at `path`; `secrets`, a secrets file holding the mnemonic
/// the config names, lets its RRP template IDs be derived too (the mnemonic is read, never shown).
pub fn verify(path: &std::path::Path, secrets: Option<&std::path::Path>) -> Result<VerifyReport, Diagnostic> {
    let source = Source::read(path)?;
    let config = source.parse()?;
    let mut diagnostics = crate::validate::verify_ids(&config)?;
    if let Some(file) = secrets {
        let read = Source::read_regular(file)?;
        let secrets = crate::request::Secrets::parse(&read.text).map_err(|e| e.in_file(file.display().to_string()))?;
        crate::validate::rrp_template_ids_with_secrets(&config, &secrets, &mut diagnostics);
    }
    let unchecked = match diagnostics.iter().any(|d| d.code == Code::RrpTemplatesUnchecked) {
        true => config.get("templates").and_then(Value::as_array).map_or(0, Vec::len),
        false => 0,
    };
    for diagnostic in &mut diagnostics {
        source.locate_diagnostic(diagnostic);
    }
    let is_mismatch = |d: &&&Diagnostic| matches!(d.code, Code::IdMismatch | Code::BadTemplateId | Code::BadTrigger);
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    let mismatches = errors.iter().filter(is_mismatch).count();
    let other_errors = errors.len() - mismatches;
    Ok(VerifyReport {
        file: path.display().to_string(),
        mismatches,
        other_errors,
        unchecked,
        located: crate::source::Located::new(diagnostics, Some(source)),
    })
}

crate::diagnosed_by_field!(IdsReport => diagnostics);
crate::diagnosed_by_located!(VerifyReport);
