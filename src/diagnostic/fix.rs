//! Settings of the caller's that change an outcome. The library names them in its own terms
//! ([`Fix::describe`]); a front end names them its own way (the CLI: its flags).

/// A setting that would fix or change what a diagnostic reports.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fix {
    /// Choose the OIS title yourself (`ConvertOptions::title`).
    ChooseTitle,
    /// Choose the OIS version yourself (`ConvertOptions::ois_version`).
    ChooseVersion,
    /// Give the API's base URL: the document has no server (`ConvertOptions::base_url`).
    GiveBaseUrl,
    /// Give the URL a relative server URL is relative to (`ConvertOptions::base_url`).
    GiveRelativeBase,
    /// The document has no servers to choose from: give a base URL instead.
    UseBaseUrlInstead,
    /// Choose another server (`ConvertOptions::server`).
    PickServer,
    /// Give the named server variable a value, or choose another server.
    GiveServerVariable(String),
    /// Convert this operation on its own, with its own server chosen.
    ConvertWithItsServer,
    /// Allow `$ref`s to files below a wider folder (`ConvertOptions::allow_root`).
    AllowRoot,
    /// Allow replacing an existing output file.
    Replace,
    /// Give the missing requester parameters.
    GiveParameters,
    /// Give the named secret in a secrets file, or allow it from the environment.
    GiveSecret(String),
    /// Say which OIS of a config.json to use, by title.
    ChooseOis,
    /// Say which signed API of an Airnode Feed config, by name.
    ChooseSignedApi,
    /// Give the Airnode: its mnemonic in a secrets file, or its address.
    GiveAirnode,
    /// Write the document's defaults of optional parameters (`ConvertOptions::defaults`).
    CopyDefaults,
    /// Make the named parameter (`NAME` or `LOCATION:NAME`) the API's credential: an apiKey
    /// scheme the node fills from its secrets (`ConvertOptions::api_key_parameters`).
    MakeCredential(String),
    /// Record the exchange first: the same call with `CallOptions::record` set reaches the API once.
    RecordFirst,
    /// Accept values that are equal by right (two names of one asset): `CallOptions::allow_equal_values`.
    AllowEqualValues,
    /// Choose the security schemes to keep (`ConvertOptions::security`).
    ChooseSecurity,
    /// Run the snippet with the system `node`, which has the Node.js built-ins (`processing::Engine::Node`).
    UseNodeEngine,
    /// Give the OpenAPI document the OIS was last generated from, for a three-way update.
    GiveBase,
    /// Fix what the warnings say, or stop treating warnings as failures (`jobs::Writes::strict`).
    LeaveStrict,
    /// Make the update the check found (`jobs::UpdateJob::check` unset).
    UpdateInstead,
    /// Write a requester parameter given as JSON as JSON (a string quoted), or give it as text.
    QuoteJsonString,
    /// Give the body property `name` a JSON value (its schema says it is not text).
    GiveJsonValue(String),
    /// Give each chain's JSON-RPC URL (an RPC feeds catalog's chain, the first named).
    GiveChainUrl(String),
    /// Escape a comma that belongs to a value of a template written on one line (`\\,`).
    EscapeComma,
    /// Give every field of the request metadata the relay schemes send.
    GiveMetadata,
    /// Set the named reserved parameter on the endpoint (`_type`, `_path`, …), not as a requester
    /// parameter.
    SetReserved(String),
    /// Fix the named parameter to a value on the endpoint (a fixed operation parameter).
    FixParameter(String),
    /// Say which endpoint to call, or call every endpoint.
    ChooseEndpoint,
    /// Give a sample response, or call the API, to list the leaves of an answer.
    GiveResponse,
    /// Convert the OIS files again for one node, the named one (an update keeps refinements).
    ConvertFor(String),
    /// Choose another port for the studio (0: any free one).
    ChoosePort,
    /// Derive a template's encoded parameters again.
    EncodeTemplate,
    /// Convert the OpenAPI document to an OIS first.
    ConvertFirst,
    /// Add feeds by name: each a name, the vendor's operation and parameters, and the value.
    AddFeed,
    /// Change the named feed (its request or its value) instead of adding it again.
    ChangeFeed(String),
    /// Give the named feed a value path or a parser.
    GiveFeedValue(String),
    /// Write the feeds by the feed tables' own edits, or rename the endpoint to keep hand-written
    /// processing.
    WriteFeedTables,
    /// Derive every ID of the config again, to see which are wrong.
    VerifyIds,
    /// Rename in the OIS alone, then derive the config's RRP templates again.
    DeriveTemplates,
    /// Give the secrets file that holds the named secret, the Airnode's mnemonic: it is read to
    /// derive the Airnode address, never shown.
    GiveMnemonic(String),
    /// Carry fixed values over to a renamed parameter: (endpoint, parameter, value) each, in the
    /// OIS file named.
    CarryFixed {
        /// The OIS file.
        file: String,
        /// What to fix: endpoint, parameter, value.
        fixes: Vec<(String, String, String)>,
    },
    /// Put the named secret of a bare OIS's scheme in a secrets file: the one given, if any.
    FillSecret {
        /// The secret's name.
        name: String,
        /// The secrets file given, if any.
        file: Option<String>,
    },
}

impl Fix {
    /// The fix in the library's words (option and field names).
    pub fn describe(&self) -> String {
        match self {
            Fix::ChooseTitle => "set ConvertOptions::title to choose it yourself".to_owned(),
            Fix::AllowEqualValues => {
                "if the values are equal by right (two names of one asset), accept them with CallOptions::allow_equal_values"
                    .to_owned()
            }
            Fix::RecordFirst => {
                "record it first: the same call with CallOptions::record set reaches the API once and keeps its answer"
                    .to_owned()
            }
            Fix::MakeCredential(name) => format!(
                "make it the API's credential, sent from the node's secrets: add \"{name}\" to ConvertOptions::api_key_parameters (an update keeps the OIS's refinements)"
            ),
            Fix::ChooseVersion => "set ConvertOptions::ois_version to choose it yourself".to_owned(),
            Fix::GiveBaseUrl => "give the API's base URL in ConvertOptions::base_url".to_owned(),
            Fix::GiveRelativeBase => "give the URL it is relative to in ConvertOptions::base_url".to_owned(),
            Fix::UseBaseUrlInstead => "give ConvertOptions::base_url instead".to_owned(),
            Fix::PickServer => "pick another in ConvertOptions::server, by index or URL (any http(s) URL)".to_owned(),
            Fix::GiveServerVariable(name) => {
                format!("give \"{name}\" a value in ConvertOptions::server_vars, or pick another server")
            }
            Fix::ConvertWithItsServer => {
                "convert this operation separately, with ConvertOptions::server or base_url set to its server"
                    .to_owned()
            }
            Fix::AllowRoot => "set ConvertOptions::allow_root to allow references below another folder".to_owned(),
            Fix::Replace => "allow replacing it".to_owned(),
            Fix::GiveParameters => "give them as requester parameters".to_owned(),
            Fix::GiveSecret(name) => {
                format!("give {name} in a secrets file (a line {name}=...), or allow it from the environment")
            }
            Fix::ChooseOis => "say which by its title".to_owned(),
            Fix::ChooseSignedApi => "say which signed API by its name".to_owned(),
            Fix::GiveAirnode => "give the Airnode's mnemonic (in a secrets file) or its address".to_owned(),
            Fix::CopyDefaults => {
                "set ConvertOptions::defaults to write it (the node then sends it whenever none is given)".to_owned()
            }
            Fix::ChooseSecurity => "choose the scheme to keep in ConvertOptions::security".to_owned(),
            Fix::UseNodeEngine => {
                "run it with the system node (processing::Engine::Node), which has the Node.js built-ins but no sandbox"
                    .to_owned()
            }
            Fix::GiveBase => {
                "give the OpenAPI document the OIS was generated from as the base, to take the API's changes too"
                    .to_owned()
            }
            Fix::LeaveStrict => "fix what the warnings say, or unset Writes::strict".to_owned(),
            Fix::QuoteJsonString => "quote a JSON string (\"text\"), or give the value as text".to_owned(),
            Fix::GiveJsonValue(name) => format!("give \"{name}\" a JSON value of its type"),
            Fix::GiveChainUrl(chain) => format!("give each chain's JSON-RPC URL ({chain}: https://…/${{KEY}})"),
            Fix::EscapeComma => "write a comma inside a value as \\, (a backslash as \\\\)".to_owned(),
            Fix::UpdateInstead => "make the update (unset UpdateJob::check) to bring it in sync".to_owned(),
            Fix::GiveMetadata => "give the field in RequestOptions::metadata".to_owned(),
            Fix::SetReserved(name) => format!("set it on the endpoint as a reserved parameter ({name}=VALUE)"),
            Fix::FixParameter(name) => format!("fix it on the endpoint instead ({name}=VALUE)"),
            Fix::ChooseEndpoint => {
                "say which endpoint to call, or call every endpoint with its parameters' examples".to_owned()
            }
            Fix::GiveResponse => "give a sample response (RequestJob::response), or call the API".to_owned(),
            Fix::ConvertFor(target) => {
                format!("convert them again for {target} (an update keeps their refinements), or scaffold them apart")
            }
            Fix::ChoosePort => "choose another port, or 0 for any free one".to_owned(),
            Fix::EncodeTemplate => "encode the parameters again (the IDs job derives them for a template)".to_owned(),
            Fix::ConvertFirst => "convert the OpenAPI document to an OIS first".to_owned(),
            Fix::AddFeed => "add a feed by name (jobs::feed::add): its name, the vendor's operation, the value".to_owned(),
            Fix::ChangeFeed(name) => format!("change \"{name}\" instead (jobs::feed::set)"),
            Fix::GiveFeedValue(name) => format!("give \"{name}\" a value path or a parser"),
            Fix::WriteFeedTables => {
                "write the feeds with the feed edits (jobs::feed), or rename the endpoint to keep hand-written processing"
                    .to_owned()
            }
            Fix::VerifyIds => "derive every ID of the config again (jobs::ids::verify) to see which are wrong".to_owned(),
            Fix::GiveMnemonic(name) => {
                format!("give the secrets file with {name} (read for the Airnode address, never shown) to check them")
            }
            Fix::DeriveTemplates => "rename in the OIS alone, then derive the templates again (the IDs job)".to_owned(),
            Fix::CarryFixed { fixes, .. } => {
                let each: Vec<String> = fixes
                    .iter()
                    .map(|(endpoint, name, value)| format!("fix {name}={value} on endpoint {endpoint}"))
                    .collect();
                format!("carry the fixed value over: {}", each.join("; "))
            }
            Fix::FillSecret { name, file: Some(file) } => format!("add a line {name}=... to {file}"),
            Fix::FillSecret { name, file: None } => {
                format!("give a secrets file (CallInputs::secrets) with a line {name}=...")
            }
        }
    }
}
