//! `ois config` (and `ois scaffold config`): a config.json fragment and a secrets.env template
//! for OIS files.

use std::path::PathBuf;
use std::process::ExitCode;

use ois::jobs::scaffold::{ScaffoldJob, ScaffoldKind};

use super::args::Outputs;

use super::Shell;

#[derive(clap::Args)]
pub(crate) struct ConfigArgs {
    /// OIS files (an OIS object or an array of them each).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The node the fragment is for (airnode@0.15, airnode-feed@3: OIS 2.3.x; airnode-feed@4,
    /// airnode@next: 3.0.x; or a release exactly, airnode-feed@4.2.0). An OIS it does not read is
    /// refused.
    #[arg(long, value_parser = super::parse_target, value_name = "NODE")]
    target: Option<super::TargetArg>,
    #[command(flatten)]
    outputs: Outputs,
}

pub(crate) fn run_config(args: ConfigArgs, shell: &Shell) -> ExitCode {
    let kind = ScaffoldKind::Fragment { target: args.target.map(super::TargetArg::target) };
    let job = ScaffoldJob::new(args.files.clone(), kind, args.outputs.outputs());
    super::scaffold_report::show(ois::jobs::scaffold::run(&job), &job.kind, args.outputs.report, shell)
}
