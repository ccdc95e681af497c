//! What the draft was generated as, before any refinement: the record `ois convert` keeps next
//! to an OIS, which the three-way update reads. A fresh conversion's is held as the OIS's text
//! (a big OIS as a `Value` takes ten times its text's memory), read into a [`Record`] only when
//! an update asks for it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::convert::GivenOptions;
use crate::diagnostic::{Code, Diagnostic};
use crate::emit::Text;
use crate::update::record::{self, Record};

/// The draft's record.
#[derive(Debug)]
pub enum Generated {
    /// Read from the record file next to the OIS opened, or made by an update.
    Read(Record),
    /// The studio's own conversion: its OIS as pretty JSON text, as `ois convert` writes it.
    Converted {
        /// The OIS's title.
        title: String,
        /// The options it was converted with.
        options: GivenOptions,
        /// The OIS's text (the draft's, until it is refined).
        text: Arc<str>,
    },
}

impl Generated {
    /// The record, as the update reads it.
    pub fn record(&self) -> Result<Record, Diagnostic> {
        match self {
            Generated::Read(record) => Ok(record.clone()),
            Generated::Converted { title, options, text } => {
                let generated = serde_json::from_str(text).map_err(|error| {
                    Diagnostic::elsewhere(Code::OutputWrite, format!("the generated OIS does not read back: {error}"))
                })?;
                Ok(Record::new(title, options.clone(), generated))
            }
        }
    }

    /// The path and text of the record file next to the OIS file `target` once this record is in it.
    pub fn file_next_to(&self, target: &Path) -> Result<(PathBuf, String), Diagnostic> {
        match self {
            Generated::Read(record) => record::file_next_to(target, &record.title, &record.options, &record.generated),
            Generated::Converted { title, options, text } => {
                record::file_next_to_written(target, title, options, &Text::from(text.to_string()))
            }
        }
    }
}
