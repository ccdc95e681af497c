//! Changing the draft: an endpoint edit, the text editor, and undo.

use super::*;

impl Session {
    /// An endpoint edit on the draft, as `ois endpoint` makes it (refused when it breaks a rule).
    pub fn edit(&mut self, request: EditRequest) -> Answer {
        self.edit_seen(request, None)
    }

    /// [`Session::edit`] for a page holding the draft view `seen`: the answer carries only the
    /// endpoints the edit changed.
    pub fn edit_seen(&mut self, request: EditRequest, seen: Option<u64>) -> Answer {
        let edit = match request {
            EditRequest::Add { name, operation, settings } => {
                EndpointEdit::Add { name, operation, settings: settings.settings() }
            }
            EditRequest::Set { name, rename, settings } => {
                EndpointEdit::Set { name, settings: settings.settings(), rename: rename.filter(|r| !r.is_empty()) }
            }
            EditRequest::Remove { names } => EndpointEdit::Remove { names },
            EditRequest::Keep { filters } => EndpointEdit::Keep { filters },
            EditRequest::AddFeed { feed } => EndpointEdit::Feeds(crate::jobs::feed::add(&self.feed_input(feed))?),
            EditRequest::SetFeed { feed, rename, dropped } => {
                let mut input = self.feed_input(feed);
                input.rename = rename.filter(|r| !r.is_empty());
                input.dropped = dropped;
                EndpointEdit::Feeds(crate::jobs::feed::set(&input)?)
            }
            EditRequest::RemoveFeeds { names } => EndpointEdit::Feeds(crate::edit::feeds::FeedChange::Remove { names }),
            EditRequest::BatchFeeds { names } => {
                EndpointEdit::Feeds(crate::edit::feeds::FeedChange::Batch { names, answer: None })
            }
        };
        let draft = self.draft()?;
        let source = draft.held().source();
        let key = TextKey::of(&draft.text);
        let known = self.found_for(key);
        // The view's reading of the edited document is made beside its check.
        let title = draft.title.as_deref();
        let edited = crate::jobs::endpoint::edit_source_beside(&source, title, &edit, known.as_deref(), |document| {
            DraftReading::of(document, title)
        })
        .map_err(|diagnostics| Refusal { diagnostics: view::placed(diagnostics, Some(&source)), detail: None });
        drop(known);
        let (Edited { text, notes, diagnostics, document }, reading) = edited?;
        drop_aside(document);
        let key = self.replace_text(text);
        *self.checked.get_mut() = Some(Checked { text: key, found: diagnostics });
        let mut page = self.page_since(false, seen, DraftTree::Read(reading));
        page.notes = Some(view::placed(notes, None));
        Ok(page.into())
    }

    /// Makes `text` the draft's text, keeping the way back for undo, with the check of the text
    /// replaced when the last check was of it; `text`'s key.
    pub(super) fn replace_text(&mut self, text: Arc<str>) -> TextKey {
        let key = TextKey::of(&text);
        let Some(draft) = self.draft.as_mut() else { return key };
        let before = std::mem::replace(&mut draft.text, text);
        if self.history.replaced(&before, &draft.text, key) {
            let before = TextKey::of(&before);
            let checked = self.checked.get_mut();
            self.undo_checked =
                if checked.as_ref().is_some_and(|checked| checked.text == before) { checked.take() } else { None };
        }
        key
    }

    /// Takes the draft back to its text before the last change (an edit, the text editor, a file
    /// taken from disk, an update taken).
    pub fn undo(&mut self) -> Answer {
        self.undo_seen(None)
    }

    /// [`Session::undo`] for a page holding the draft view `seen`: only what changed of it.
    pub fn undo_seen(&mut self, seen: Option<u64>) -> Answer {
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        let previous = self.history.back(&draft.text).ok_or_else(|| refuse("nothing to undo"))?;
        let key = TextKey::of(&previous);
        // Back to the text converted: the record's, not a copy of it.
        draft.text = match &self.record {
            Some(Generated::Converted { text, .. }) => text.shared_if(&previous).unwrap_or_else(|| previous.into()),
            _ => previous.into(),
        };
        *self.checked.get_mut() = self.undo_checked.take().filter(|checked| checked.text == key);
        Ok(self.page_since(false, seen, DraftTree::Unparsed).into())
    }

    /// Takes the last undo back: the draft as it was before it.
    pub fn redo(&mut self) -> Answer {
        self.redo_seen(None)
    }

    /// [`Session::redo`] for a page holding the draft view `seen`: only what changed of it.
    pub fn redo_seen(&mut self, seen: Option<u64>) -> Answer {
        let draft = self.draft.as_mut().ok_or_else(|| refuse("open an OIS first"))?;
        let next = self.history.forward(&draft.text).ok_or_else(|| refuse("nothing to redo"))?;
        draft.text = next.into();
        // The text is checked again: undo keeps the check of one text, the one it goes back to.
        *self.checked.get_mut() = None;
        Ok(self.page_since(false, seen, DraftTree::Unparsed).into())
    }

    /// A feed as the job takes it, checked against the OpenAPI document open in the studio.
    fn feed_input(&self, fields: FeedRequestFields) -> crate::jobs::feed::FeedInput {
        let mut input = crate::jobs::feed::FeedInput {
            name: fields.name,
            operation: fields.operation.filter(|o| !o.trim().is_empty()),
            parameters: fields.parameters.into_iter().filter(|(name, _)| !name.trim().is_empty()).collect(),
            value: fields.value.filter(|v| !v.is_empty()),
            parser: fields.parser.filter(|p| !p.trim().is_empty()),
            ..Default::default()
        };
        if let Some(opened) = &self.openapi {
            match (&opened.path, &opened.pasted) {
                (Some(path), _) => input.document = Some(path.clone()),
                (None, pasted) => {
                    let text = pasted.clone().unwrap_or_default();
                    input.held_document = Some(Held { name: opened.name.clone(), text: text.into() });
                }
            }
        }
        input
    }

    /// Replaces the draft's text (the page's text editor), when it still reads as OIS.
    pub fn set_text(&mut self, text: String) -> Answer {
        let name = self.draft()?.name.clone();
        let source = Source::from_text(&name, None, text);
        let root = source.parse()?;
        crate::ois::OisDocument::read(&root).map_err(|(_, mut error)| {
            source.locate_diagnostic(&mut error);
            error
        })?;
        self.draft()?;
        self.replace_text(source.text.into());
        Ok(self.page(true).into())
    }
}
