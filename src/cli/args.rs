//! Arguments several commands share.

use std::path::PathBuf;

use ois::jobs::scaffold::ScaffoldOutputs;

/// Which OIS of a file that holds several (a list, a config.json): every command that reads one
/// asks the same way.
#[derive(clap::Args, Clone, Default)]
pub(crate) struct OisChoice {
    /// With a file of several OIS objects (a list, a config.json): the title of the one to use.
    #[arg(long = "ois", value_name = "TITLE")]
    pub(crate) title: Option<String>,
}

impl OisChoice {
    /// The title given, if any.
    pub(crate) fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }
}

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
    /// The secrets.env name of a scheme's credential, instead of the one derived from the OIS
    /// title (or its host, for a long title); repeatable.
    #[arg(long = "secret-name", value_name = "SCHEME=NAME", value_parser = super::parse_pair)]
    secret_names: Vec<(String, String)>,
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
        outputs.secret_names = self.secret_names.clone();
        outputs
    }
}
