//! Arguments several commands share.

use std::path::PathBuf;

use ois::jobs::scaffold::ScaffoldOutputs;

/// Where a configuration and its secrets template go.
#[derive(clap::Args)]
pub(crate) struct Outputs {
    /// Write the configuration here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the secrets.env template here.
    #[arg(long, value_name = "FILE")]
    secrets_out: Option<PathBuf>,
    /// Replace existing output files.
    #[arg(long)]
    force: bool,
    /// How to report on standard error: text, or json (what was written, the IDs, the node
    /// release, every diagnostic; for scripts).
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) report: super::ReportArg,
}

impl Outputs {
    /// As the library takes them.
    pub(crate) fn outputs(&self) -> ScaffoldOutputs {
        let mut outputs = ScaffoldOutputs::default();
        outputs.output = self.output.clone();
        outputs.secrets_out = self.secrets_out.clone();
        outputs.force = self.force;
        outputs
    }
}
