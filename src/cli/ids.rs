//! `ois ids`: endpoint, template, beacon, OEV and beacon-set IDs; `ois ids verify`: every ID of a
//! node configuration re-derived.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use alloy_primitives::{Address, B256};
use serde_json::{Value, json};

use ois::node::ids;
use ois::scaffold::node::Feed;
use ois::{Code, Diagnostic, Severity, Source};

use super::config::read_oises;
use super::{FAILURE, ReportArg, fail_with, in_flags, write_stdout};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct IdsArgs {
    #[command(subcommand)]
    command: Option<IdsCommand>,
    /// An OIS, an array of them, a config.json or an Airnode Feed config.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// A template: the endpoint and its parameters (repeatable), e.g.
    /// `feed:name=string32:BTC/USD` or `price:coinId=string:bitcoin,decimals=uint256:8`.
    #[arg(long = "template", value_name = "ENDPOINT:NAME=TYPE:VALUE,...")]
    templates: Vec<String>,
    /// Templates from a JSON file: `[{"endpoint": "feed", "parameters": [{"type", "name", "value"}]}]`.
    #[arg(long = "templates", value_name = "FILE")]
    templates_file: Option<PathBuf>,
    /// The Airnode address, for beacon and RRP template IDs.
    #[arg(long, value_name = "ADDRESS", conflicts_with = "mnemonic_env")]
    airnode: Option<String>,
    /// The environment variable holding the Airnode's mnemonic (never printed), for its address.
    #[arg(long, value_name = "VAR")]
    mnemonic_env: Option<String>,
    /// Also the beacon set ID of the templates' beacons, in the order given.
    #[arg(long)]
    set: bool,
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
}

#[derive(clap::Subcommand)]
enum IdsCommand {
    /// Re-derive every ID of an Airnode Feed config (endpoints, templates, trigger references) or
    /// an Airnode config.json (trigger endpoint IDs, template IDs); exit 1 on any mismatch.
    Verify {
        /// The configuration.
        config: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: ReportArg,
    },
}

fn bad(message: String) -> Diagnostic {
    Diagnostic::elsewhere(Code::BadArgument, message)
}

/// The `--template`s, then the templates of `--templates FILE`.
fn read_templates(args: &IdsArgs) -> Result<Vec<Feed>, Diagnostic> {
    let mut templates = Vec::new();
    for text in &args.templates {
        templates.push(Feed::parse(text).map_err(|e| bad(format!("--template {}", e.message)))?);
    }
    if let Some(path) = &args.templates_file {
        templates.extend(Feed::list_from_json(&Source::read(path)?.parse()?, &path.display().to_string())?);
    }
    Ok(templates)
}

fn airnode_of(args: &IdsArgs) -> Result<Option<Address>, Diagnostic> {
    if let Some(text) = &args.airnode {
        return text.parse().map(Some).map_err(|_| bad(format!("--airnode {text}: not an address")));
    }
    let Some(variable) = &args.mnemonic_env else { return Ok(None) };
    let mnemonic =
        std::env::var(variable).map_err(|_| bad(format!("--mnemonic-env {variable}: the variable is not set")))?;
    ois::node::airnode_address(&mnemonic)
        .map(Some)
        .ok_or_else(|| bad(format!("--mnemonic-env {variable}: the variable does not hold a valid BIP-39 mnemonic")))
}

pub(crate) fn run_ids(args: IdsArgs) -> ExitCode {
    if let Some(IdsCommand::Verify { config, format }) = &args.command {
        return run_verify(config, *format);
    }
    match ids_output(&args) {
        Ok((output, warnings)) => {
            for warning in &warnings {
                let _ = fail_with(warning);
            }
            match write_stdout(&output) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => fail_with(&error),
            }
        }
        Err(error) => fail_with(&error),
    }
}

fn ids_output(args: &IdsArgs) -> Result<(String, Vec<Diagnostic>), Diagnostic> {
    let file = args.file.clone().unwrap_or_default();
    let oises = read_oises(&file)?;
    let airnode = airnode_of(args)?;
    let templates = read_templates(args)?;
    let mut endpoints = Vec::new();
    for ois_value in &oises {
        let title = ois_value.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
        for (endpoint, id) in ois::node::endpoint_ids(ois_value) {
            endpoints.push((title.clone(), endpoint, id));
        }
    }
    let mut warnings = Vec::new();
    let mut rows = Vec::new();
    let mut beacons = Vec::new();
    for template in &templates {
        let matching: Vec<&(String, String, String)> =
            endpoints.iter().filter(|(_, e, _)| *e == template.endpoint).collect();
        let [(title, _, endpoint_id)] = matching.as_slice() else {
            let names: Vec<&str> = endpoints.iter().map(|(_, e, _)| e.as_str()).collect();
            return Err(bad(format!(
                "template for \"{}\": {} endpoint(s) of that name (the endpoints are: {})",
                template.endpoint,
                matching.len(),
                names.join(", ")
            )));
        };
        let encoded = ids::encode_parameters(&template.parameters)?;
        warnings.extend(encoded.surprises.clone());
        let endpoint: B256 = endpoint_id.parse().map_err(|_| bad("an endpoint ID that is not 32 bytes".to_owned()))?;
        let template_id = ids::feed_template_id(endpoint, &encoded.bytes);
        let oev_template_id = ids::oev_template_id(template_id);
        let mut row = json!({
            "oisTitle": title,
            "endpointName": template.endpoint,
            "endpointId": endpoint_id,
            "parameters": template.parameters.iter().map(|p| json!({"type": p.kind, "name": p.name, "value": p.value})).collect::<Vec<_>>(),
            "encodedParameters": format!("0x{}", alloy_primitives::hex::encode(&encoded.bytes)),
            "templateId": template_id.to_string(),
            "oevTemplateId": oev_template_id.to_string(),
        });
        if let (Some(airnode), Some(object)) = (airnode, row.as_object_mut()) {
            let beacon = ids::beacon_id(airnode, template_id);
            beacons.push(beacon);
            object.insert("airnode".into(), json!(airnode.to_checksum(None)));
            object.insert("rrpTemplateId".into(), json!(ois::node::rrp_template_id(airnode, endpoint, &encoded.bytes)));
            object.insert("beaconId".into(), json!(beacon.to_string()));
            object.insert("oevBeaconId".into(), json!(ids::beacon_id(airnode, oev_template_id).to_string()));
        }
        rows.push(row);
    }
    if args.set && airnode.is_none() {
        return Err(bad("--set needs the Airnode (--airnode or --mnemonic-env) to derive the beacons".to_owned()));
    }
    let set = args.set.then(|| ids::beacon_set_id(&beacons).to_string());
    let output = match args.format {
        ReportArg::Json => {
            let endpoint_list: Vec<Value> = endpoints
                .iter()
                .map(|(t, e, id)| json!({"oisTitle": t, "endpointName": e, "endpointId": id}))
                .collect();
            let mut out = json!({"endpoints": endpoint_list, "templates": rows});
            if let (Some(set), Some(object)) = (&set, out.as_object_mut()) {
                object.insert("beaconSetId".into(), json!(set));
            }
            ois::js::stringify_pretty(&out) + "\n"
        }
        ReportArg::Text => {
            let mut out = String::from("endpoints:\n");
            for (title, endpoint, id) in &endpoints {
                out.push_str(&format!("  {id}  {title} / {endpoint}\n"));
            }
            for row in &rows {
                let parameters: Vec<String> = row["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| {
                        format!(
                            "{}={}:{}",
                            p["name"].as_str().unwrap_or_default(),
                            p["type"].as_str().unwrap_or_default(),
                            ois::js::string(&p["value"])
                        )
                    })
                    .collect();
                out.push_str(&format!(
                    "\ntemplate {} {}\n",
                    row["endpointName"].as_str().unwrap_or_default(),
                    parameters.join(",")
                ));
                for key in
                    ["encodedParameters", "templateId", "oevTemplateId", "rrpTemplateId", "beaconId", "oevBeaconId"]
                {
                    if let Some(value) = row.get(key).and_then(Value::as_str) {
                        out.push_str(&format!("  {key:<18} {value}\n"));
                    }
                }
            }
            if let Some(set) = &set {
                out.push_str(&format!("\nbeacon set ({} beacons, in order): {set}\n", beacons.len()));
            }
            out
        }
    };
    Ok((output, warnings))
}

fn run_verify(path: &std::path::Path, format: ReportArg) -> ExitCode {
    let source = match Source::read(path) {
        Ok(source) => source,
        Err(error) => return fail_with(&error),
    };
    let config = match source.parse() {
        Ok(config) => config,
        Err(error) => return fail_with(&error),
    };
    let mut found = match ois::verify_ids(&config) {
        Ok(found) => found,
        Err(error) => return fail_with(&error),
    };
    in_flags(&mut found);
    for diagnostic in &mut found {
        source.locate_diagnostic(diagnostic);
    }
    let errors = found.iter().filter(|d| d.severity == Severity::Error).count();
    match format {
        ReportArg::Json => {
            let list: Vec<Value> = found
                .iter()
                .map(|d| json!({"code": d.code.as_str(), "severity": d.severity, "pointer": d.location.pointer, "line": d.location.line, "column": d.location.column, "message": d.message}))
                .collect();
            let _ =
                write_stdout(&(ois::js::stringify_pretty(&json!({"mismatches": errors, "diagnostics": list})) + "\n"));
        }
        ReportArg::Text => {
            let style = super::style_for(std::io::stdout().is_terminal());
            let mut text: String = found.iter().map(|d| ois::report::render(d, style, Some(&source)) + "\n").collect();
            text.push_str(&if errors == 0 {
                format!("{}: every ID is derived from what it names\n", path.display())
            } else {
                format!("{}: {errors} ID(s) not derived from what they name\n", path.display())
            });
            let _ = write_stdout(&text);
        }
    }
    if errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}
