//! What the draft was generated as, before any refinement: the record `ois convert` keeps next
//! to an OIS, which the three-way update reads. A fresh conversion's is held as the OIS's text
//! (a big OIS as a `Value` takes ten times its text's memory), read into a [`Record`] only when
//! an update asks for it; the text is the draft's own until the draft changes, then deflated
//! ([`KeptText`]).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

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
        text: KeptText,
    },
}

impl Generated {
    /// The record, as the update reads it.
    pub fn record(&self) -> Result<Record, Diagnostic> {
        match self {
            Generated::Read(record) => Ok(record.clone()),
            Generated::Converted { title, options, text } => {
                let generated = serde_json::from_str(&text.text()?).map_err(|error| {
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
                record::file_next_to_written(target, title, options, &Text::from(text.text()?.to_string()))
            }
        }
    }
}

/// A conversion's OIS text as its record keeps it: the draft's own text (shared) while the draft
/// is that text; once the draft has changed, deflated on a thread of its own. A record is read
/// only to save or update, and a Graph-sized OIS's 50 MB text deflates to a few: held whole, it
/// was a quarter of what the studio held between steps.
#[derive(Clone, Debug)]
pub struct KeptText(Arc<Mutex<Kept>>);

#[derive(Debug)]
enum Kept {
    Shared(Arc<str>),
    /// Being deflated: the text is still held, and read from here meanwhile.
    Deflating(Arc<str>),
    Deflated {
        bytes: Box<[u8]>,
        len: usize,
    },
}

impl KeptText {
    /// `text`, shared.
    pub fn new(text: Arc<str>) -> KeptText {
        KeptText(Arc::new(Mutex::new(Kept::Shared(text))))
    }

    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The text, inflated again when it was deflated.
    pub fn text(&self) -> Result<Arc<str>, Diagnostic> {
        match &*self.kept() {
            Kept::Shared(text) | Kept::Deflating(text) => Ok(Arc::clone(text)),
            Kept::Deflated { bytes, len } => inflated(bytes, *len).map(Arc::from),
        }
    }

    /// The text when it is `text`, as one shared text: the draft back to what was converted
    /// holds the record's text, not a copy (a deflated one is shared again).
    pub fn shared_if(&self, text: &str) -> Option<Arc<str>> {
        let mut kept = self.kept();
        match &*kept {
            Kept::Shared(kept) | Kept::Deflating(kept) => (**kept == *text).then(|| Arc::clone(kept)),
            Kept::Deflated { bytes, len } => {
                let same = *len == text.len() && inflated(bytes, *len).is_ok_and(|inflated| inflated == text);
                same.then(|| {
                    let shared: Arc<str> = Arc::from(text);
                    *kept = Kept::Shared(Arc::clone(&shared));
                    shared
                })
            }
        }
    }

    /// Deflates the text, on a thread of its own, unless `draft` is it.
    pub fn settle(&self, draft: &Arc<str>) {
        let mut kept = self.kept();
        let text = match &*kept {
            Kept::Shared(text) if !Arc::ptr_eq(text, draft) => Arc::clone(text),
            _ => return,
        };
        *kept = Kept::Deflating(Arc::clone(&text));
        drop(kept);
        let this = self.clone();
        let deflate = move || {
            // Memory is not given back while the text is deflated; what it frees is, once idle.
            let _step = super::memory::Step::start();
            let deflated = deflated(&text);
            let mut kept = this.kept();
            let Kept::Deflating(held) = &*kept else { return };
            if !Arc::ptr_eq(held, &text) {
                return;
            }
            // Held by more than the two here (this and the record), the text is the draft's
            // again (undo went back to it meanwhile): it stays shared.
            *kept = match deflated {
                Some(bytes) if Arc::strong_count(&text) <= 2 => Kept::Deflated { bytes, len: text.len() },
                _ => Kept::Shared(Arc::clone(&text)),
            };
        };
        if std::thread::Builder::new().name("record deflater".to_owned()).spawn(deflate).is_err() {
            // No thread: the text stays whole, as it was.
            let mut kept = self.kept();
            if let Kept::Deflating(text) = &*kept {
                *kept = Kept::Shared(Arc::clone(text));
            }
        }
    }

    /// Whether the text is held deflated.
    #[cfg(test)]
    pub fn is_deflated(&self) -> bool {
        matches!(&*self.kept(), Kept::Deflated { .. })
    }
}

fn deflated(text: &str) -> Option<Box<[u8]>> {
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text.as_bytes()).ok()?;
    encoder.finish().ok().map(Vec::into_boxed_slice)
}

fn inflated(bytes: &[u8], len: usize) -> Result<String, Diagnostic> {
    let mut text = String::with_capacity(len);
    flate2::read::DeflateDecoder::new(bytes).read_to_string(&mut text).map_err(|error| {
        Diagnostic::elsewhere(
            Code::OutputWrite,
            format!("the generated OIS kept for the record does not read back: {error}"),
        )
    })?;
    Ok(text)
}
