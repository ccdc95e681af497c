//! Opening a document, converting it (again), and the conversion's report and each endpoint's
//! diagnostics on demand.

use super::*;

impl Session {
    /// Opens a document: an OpenAPI document is converted (its OIS becomes the draft), an OIS or
    /// a node config is the draft itself.
    pub fn open(&mut self, mut request: OpenRequest) -> Answer {
        let (source, absolute) =
            self.named(&mut request, "pasted.json").ok_or_else(|| refuse("give a file (path) or its text"))??;
        // Parsed once, as a conversion reads it: what is not an OpenAPI document keeps all it
        // has (only an OpenAPI document's operations and schemas are read in part).
        let root = source.parse_for(reading)?;
        let is_openapi = crate::ois::DocumentKind::of(&root) == Some(crate::ois::DocumentKind::OpenApi);
        self.response = None;
        self.built = None;
        self.pending = None;
        // Another document: the last one's changes are not this one's to undo.
        self.history.clear();
        self.undo_checked = None;
        if is_openapi {
            let options = request.options.unwrap_or_default().with_default_target();
            let ois = self.convert(source, root, absolute, options)?;
            if ois.is_none() {
                // Another document that could not be converted: no draft of the last one stays.
                drop_aside((self.draft.take(), self.record.take()));
            }
            return Ok(self.page_since(true, None, ois.map_or(DraftTree::Unparsed, DraftTree::Parsed)).into());
        }
        crate::ois::OisDocument::read(&root).map_err(|(_, mut error)| {
            source.locate_diagnostic(&mut error);
            error
        })?;
        self.record = absolute.as_deref().and_then(|path| {
            let (records, _) = record::read(&record::path_for(path));
            let title = root.get("title").and_then(Value::as_str).unwrap_or_default().to_owned();
            record::find(&records, &title).cloned().map(Generated::Read)
        });
        self.openapi = None;
        let text: Arc<str> = source.text.into();
        // A file is named as the user named it, relative to the folder.
        let file = absolute.is_some().then(|| source.name.clone());
        self.draft = Some(Draft {
            name: source.name.clone(),
            suggested: source.name,
            file,
            on_disk: absolute.is_some().then(|| Arc::clone(&text)),
            text,
            title: None,
        });
        Ok(self.page(true).into())
    }

    /// Converts the OpenAPI document opened again, with `options`: a new draft.
    pub fn reconvert(&mut self, options: GivenOptions) -> Answer {
        let opened = self.openapi.as_ref().ok_or_else(|| refuse("open an OpenAPI document first"))?;
        let source = opened.source()?;
        let path = opened.path.clone();
        let root = source.parse_for(reading)?;
        let before = self.draft.as_ref().map(|draft| Arc::clone(&draft.text));
        let ois = self.convert(source, root, path, options.with_default_target())?;
        // Converting again makes a new draft: the one replaced is one undo away.
        if let (Some(before), Some(draft), Some(_)) = (before, &self.draft, &ois) {
            self.history.replaced(&before, &draft.text, TextKey::of(&draft.text));
            self.undo_checked = None;
        }
        Ok(self.page_since(true, None, ois.map_or(DraftTree::Unparsed, DraftTree::Parsed)).into())
    }

    /// Converts `source` (parsed as a conversion reads it: `root`) with `options`, as `ois convert`
    /// does: the draft, the record, the operations; the draft's OIS, for the view to read (made
    /// from the conversion's own tree: parsing its text again would take twice as long). A
    /// conversion that fails (`None`) keeps the document opened with its errors and options, so
    /// that what the errors ask for (a base URL, a server) is set in the page and converted again;
    /// the draft is left as it was.
    fn convert(
        &mut self,
        source: Source,
        mut root: Value,
        path: Option<PathBuf>,
        options: GivenOptions,
    ) -> Result<Option<Value>, Refusal> {
        let convert_options = options.convert_options()?;
        let converted =
            crate::convert::convert_rendered(&source, &mut root, &convert_options, OutputFormat::Json, Positions::All);
        let mut rendered = match converted {
            Ok(rendered) => rendered,
            Err(failure) => {
                drop(root);
                let diagnostics = HeldReport::new(view::located(failure.diagnostics, Some(&source)));
                let converted = TextKey::of(&source.text);
                let pasted = path.is_none().then_some(source.text);
                self.conversions += 1;
                let name = source.name;
                let opened = Opened { name, path, pasted, converted, diagnostics, options, operations: Vec::new() };
                drop_aside(self.openapi.replace(opened));
                return Ok(None);
            }
        };
        let made =
            rendered.model().endpoints.iter().map(|e| (e.operation.method.as_str(), &*e.operation.path, &*e.name));
        let operations = view::operations(&root, made, &rendered.diagnostics);
        // The document's tree, and its text once the report is located in it, are freed before
        // the draft's tree is made, not beside it: all three at once were an open's peak
        // (a Graph-sized document's tree alone is 60 MB and takes 20 ms to free).
        drop(root);
        let diagnostics = HeldReport::new(view::located(std::mem::take(&mut rendered.diagnostics), Some(&source)));
        let converted = TextKey::of(&source.text);
        let name = source.name;
        let pasted = path.is_none().then_some(source.text);
        let title = rendered.title().to_owned();
        // Named as `ois convert` names it, so the page and the command line agree.
        let named = crate::jobs::batch::ois_file_name(std::path::Path::new(&name), OutputFormat::Json);
        let named = named.to_string_lossy().into_owned();
        let suggested = match path.as_ref().and_then(|p| p.parent()).map(|p| self.folder.relative(p)) {
            Some(folder) if !folder.is_empty() => format!("{folder}/{named}"),
            _ => named.clone(),
        };
        let ois = rendered.ois()?;
        // The conversion checked every OIS rule: the draft's check is that and the rest.
        let found = crate::validate::validate_checked_ois(&ois, std::mem::take(&mut rendered.checked));
        let text = std::mem::take(&mut rendered.text).into_string();
        let text: Arc<str> = text.map_err(|error| refuse(format!("the OIS is not UTF-8: {error}")))?.into();
        // What the last document left is freed aside, as is the conversion's model.
        drop_aside((self.openapi.take(), self.draft.take(), self.record.take(), rendered));
        // The record is the draft's text as generated: the same text, not a copy.
        let kept = KeptText::new(Arc::clone(&text));
        self.record = Some(Generated::Converted { title, options: options.clone(), text: kept });
        self.conversions += 1;
        *self.checked.get_mut() = Some(Checked { text: TextKey::of(&text), found });
        self.draft = Some(Draft { name: named, file: None, suggested, text, on_disk: None, title: None });
        self.openapi = Some(Opened { name, path, pasted, converted, diagnostics, options, operations });
        Ok(Some(ois))
    }

    /// The document `request` names (its path or text taken): a file below the folder, named by
    /// its place there, with its absolute path; or text the page read, named by the file name
    /// `request` gives, else `unnamed`. `None`: it names none.
    pub(super) fn named(
        &self,
        request: &mut OpenRequest,
        unnamed: &str,
    ) -> Option<Result<(Source, Option<PathBuf>), Refusal>> {
        if let Some(path) = request.path.as_deref() {
            let read = || -> Result<(Source, Option<PathBuf>), Refusal> {
                let absolute = self.folder.existing(path)?;
                let mut source = Source::read(&absolute)?;
                source.name = self.folder.relative(&absolute);
                Ok((source, Some(absolute)))
            };
            return Some(read());
        }
        let text = request.text.take()?;
        let name = request.name.as_deref().and_then(|name| Path::new(name).file_name());
        let name = name.map_or_else(|| unnamed.to_owned(), |name| name.to_string_lossy().into_owned());
        Some(Ok((Source::from_text(&name, None, text), None)))
    }

    /// What the conversion of the OpenAPI document opened said, each diagnostic located: what
    /// the page draws when a group of its report or an operation's messages are opened.
    pub fn report(&self) -> Answer {
        let opened = self.openapi.as_ref().ok_or_else(|| refuse("open an OpenAPI document first"))?;
        let mut diagnostics = opened.diagnostics.placed();
        // Each with its line, from the text converted (read again: not when it changed since).
        if let Some(source) = opened.source().ok().filter(|source| TextKey::of(&source.text) == opened.converted) {
            view::excerpts(&mut diagnostics, &source.text);
        }
        let report = page::ReportView { revision: self.conversions, diagnostics };
        Ok(Reply::Report(Box::new(report)))
    }

    /// The diagnostics of the endpoint at `index` of the last view sent: what the page draws in
    /// its card when it opens.
    pub fn problems(&self, request: &ProblemsRequest) -> Answer {
        let sent = self.sent.borrow();
        let (revision, mut found) =
            sent.problems(request.endpoint).ok_or_else(|| refuse("no such endpoint: draw the page again"))?;
        view::place(found.iter_mut(), &self.draft()?.held().source());
        Ok(Reply::typed(&answers::Problems { revision, diagnostics: found }))
    }
}
