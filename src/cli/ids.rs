//! `ois ids`: endpoint, template, beacon, OEV and beacon-set IDs; `ois ids verify`: every ID of a
//! node configuration re-derived.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::jobs::ids::{Airnode, IdsJob, IdsReport, VerifyReport};

use super::{FAILURE, ReportArg, Shell};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct IdsArgs {
    #[command(subcommand)]
    command: Option<IdsCommand>,
    /// An OIS, an array of them, a config.json or an Airnode Feed config.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// A template: the endpoint and its parameters (repeatable), e.g.
    /// `feed:name=string32:BTC/USD` or `price:coinId=string:bitcoin,decimals=uint256:8` (`\,` is
    /// a comma in a value). Without any, an Airnode Feed config's own templates.
    #[arg(long = "template", value_name = "ENDPOINT:NAME=TYPE:VALUE,...")]
    templates: Vec<String>,
    /// Templates from a JSON file: `[{"endpoint": "feed", "parameters": [{"type", "name", "value"}]}]`.
    #[arg(long = "templates", value_name = "FILE")]
    templates_file: Option<PathBuf>,
    /// A template for every feed the OIS serves by name (`ois feed list`): its `name` as string32.
    #[arg(long)]
    all_feeds: bool,
    /// The Airnode address, for beacon and RRP template IDs.
    #[arg(long, value_name = "ADDRESS", conflicts_with = "mnemonic_env")]
    airnode: Option<String>,
    /// The environment variable holding the Airnode's mnemonic (never printed), for its address.
    #[arg(long, value_name = "VAR", conflicts_with = "secrets")]
    mnemonic_env: Option<String>,
    /// The secrets file holding the Airnode's mnemonic (never printed), under the name the config
    /// gives it (the one `ois scaffold` writes).
    #[arg(long, value_name = "FILE", conflicts_with = "airnode")]
    secrets: Option<PathBuf>,
    /// Also the beacon set ID of the templates' beacons, in the order given.
    #[arg(long)]
    set: bool,
    /// A sponsor's address (repeatable): the wallet the Airnode fulfils its RRP requests from,
    /// which it funds (needs the mnemonic: --secrets or --mnemonic-env).
    #[arg(long = "sponsor", value_name = "ADDRESS")]
    sponsors: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: ReportArg,
}

#[derive(clap::Subcommand)]
enum IdsCommand {
    /// Re-derive every ID of an Airnode Feed config (endpoints, templates, trigger references) or
    /// an Airnode config.json (trigger endpoint IDs, template IDs); exit 1 on any mismatch.
    #[command(after_help = "EXAMPLES:
  ois ids verify config.json
  ois ids verify config.json --format json
  ois ids verify config.json --secrets secrets.env   (an Airnode config.json: its RRP template IDs too)")]
    Verify {
        /// The configuration.
        config: PathBuf,
        /// A secrets file holding the mnemonic the config names: an Airnode config.json's RRP
        /// template IDs derive from the Airnode address (the mnemonic is read, never shown).
        #[arg(long, value_name = "FILE")]
        secrets: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: ReportArg,
    },
}

impl IdsArgs {
    fn job(&self) -> IdsJob {
        let mut job = IdsJob::default();
        job.file = self.file.clone().unwrap_or_default();
        job.templates = self.templates.clone();
        job.templates_file = self.templates_file.clone();
        job.all_feeds = self.all_feeds;
        job.airnode = match (&self.airnode, &self.mnemonic_env, &self.secrets) {
            (Some(address), _, _) => Airnode::Address(address.clone()),
            (None, Some(variable), _) => Airnode::MnemonicIn(variable.clone()),
            (None, None, Some(file)) => Airnode::SecretsFile(file.clone()),
            (None, None, None) => Airnode::None,
        };
        job.set = self.set;
        job.sponsors = self.sponsors.clone();
        job
    }
}

pub(crate) fn run_ids(args: IdsArgs, shell: &Shell) -> ExitCode {
    if let Some(IdsCommand::Verify { config, secrets, format }) = &args.command {
        return match ois::jobs::ids::verify(config, secrets.as_deref()) {
            Ok(report) => show_verify(report, *format, shell),
            Err(error) => shell.fail(&error),
        };
    }
    let mut report = match ois::jobs::ids::run(&args.job()) {
        Ok(report) => report,
        Err(error) => return shell.fail(&error),
    };
    shell.settle(&mut report.diagnostics, None);
    shell.diagnostics(&report.diagnostics, None);
    let output = match args.format {
        // Template values as JSON.stringify writes them (1e+21), as the node does.
        ReportArg::Json => shell.report_js_json(&mut report),
        // Titles, endpoint names and template values come from documents: shown, not obeyed.
        ReportArg::Text => ois::emit::printable(&text(&report)).into_owned(),
    };
    shell.out_then_succeed(&output)
}

fn text(report: &IdsReport) -> String {
    let mut out = report.airnode.as_ref().map(|a| format!("Airnode {a}\n\n")).unwrap_or_default();
    out.push_str("endpoints:\n");
    for endpoint in &report.endpoints {
        out.push_str(&format!("  {}  {} / {}\n", endpoint.endpoint_id, endpoint.ois_title, endpoint.endpoint_name));
    }
    for template in &report.templates {
        let parameters: Vec<String> = template
            .parameters
            .iter()
            .map(|p| format!("{}={}:{}", p.name, p.kind, ois::js::string(&p.value)))
            .collect();
        out.push_str(&format!("\ntemplate {} {}\n", template.endpoint_name, parameters.join(",")));
        let rows = [
            ("encodedParameters", Some(&template.encoded_parameters)),
            ("templateId", Some(&template.template_id)),
            ("oevTemplateId", Some(&template.oev_template_id)),
            ("rrpTemplateId", template.rrp_template_id.as_ref()),
            ("beaconId", template.beacon_id.as_ref()),
            ("oevBeaconId", template.oev_beacon_id.as_ref()),
        ];
        for (key, value) in rows {
            if let Some(value) = value {
                out.push_str(&format!("  {key:<18} {value}\n"));
            }
        }
    }
    if let Some(set) = &report.beacon_set_id {
        out.push_str(&format!("\nbeacon set ({} beacons, in order): {set}\n", report.templates.len()));
    }
    if let Some(hash) = &report.config_hash {
        out.push_str(&format!("\nconfig hash (as the Feed's heartbeat logs it): {hash}\n"));
    }
    if report.templates.iter().any(|t| t.create_template.is_some()) && report.config_hash.is_none() {
        out.push_str(
            "\nan RRP template exists on chain once made: AirnodeRrpV0.createTemplate(airnode, endpointId, encodedParameters)\nwith the values above (--format json has each call's data, createTemplate)\n",
        );
    }
    for sponsor in &report.sponsor_wallets {
        out.push_str(&format!(
            "\nsponsor {}: sponsor wallet {} (it pays the fulfilments: fund it)\n",
            sponsor.sponsor, sponsor.wallet
        ));
    }
    out
}

fn show_verify(mut report: VerifyReport, format: ReportArg, shell: &Shell) -> ExitCode {
    let output = match format {
        ReportArg::Json => shell.report_json(&mut report),
        ReportArg::Text => {
            let mut text = shell.rendered_for_stdout(&report.located.diagnostics, report.located.source.as_ref());
            text.push_str(&if report.mismatches == 0 && report.unchecked > 0 {
                format!(
                    "{}: {} ID(s) not checked (above); every other ID is derived from what it names\n",
                    report.file, report.unchecked
                )
            } else if report.mismatches == 0 {
                format!("{}: every ID is derived from what it names\n", report.file)
            } else {
                format!("{}: {} ID(s) not derived from what they name\n", report.file, report.mismatches)
            });
            if report.other_errors > 0 {
                text.push_str(&format!(
                    "{}: {} other error(s): the config is not servable as it is\n",
                    report.file, report.other_errors
                ));
            }
            text
        }
    };
    let _ = shell.out(&output);
    if report.mismatches == 0 && report.other_errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(FAILURE) }
}
