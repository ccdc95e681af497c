//! The draft's files: its text, saving, the file on disk, and the three-way update.

use super::*;

impl Session {
    /// The draft's text: what the page's text editor shows and its download holds.
    pub fn draft_text(&self) -> Answer {
        Ok(Reply::typed(&answers::DraftText { text: &self.draft()?.text }))
    }

    /// Writes a file below the folder: the draft (its record next to it, style kept), the config
    /// with its secrets template (all or nothing; a filled secrets file keeps its values), or the
    /// IDs.
    pub fn save(&mut self, request: SaveRequest) -> Answer {
        // The page names files by their place in the folder: its absolute path is noise there.
        let root = format!("{}{}", self.folder.root().display(), std::path::MAIN_SEPARATOR);
        self.save_in_folder(request).map_err(|mut refusal| {
            for placed in &mut refusal.diagnostics {
                let diagnostic = &mut placed.diagnostic;
                diagnostic.message = diagnostic.message.replace(&root, "");
                if let Some(file) = diagnostic.location.file.as_mut() {
                    *file = file.replace(&root, "");
                }
            }
            refusal
        })
    }

    fn save_in_folder(&mut self, request: SaveRequest) -> Answer {
        let target = self.folder.writable(&request.path)?;
        match request.what.as_str() {
            "ois" => {
                let draft = self.draft()?;
                let mut plan = Plan::new();
                if draft.file.as_deref() == Some(request.path.as_str()) {
                    // The draft's own file: replacing it is what saving means (a regular file only).
                    plan.companion(&target, &*draft.text, false);
                } else {
                    plan.file(&target, &*draft.text, request.force);
                }
                if let Some(record) = &self.record {
                    let (path, text) = record.file_next_to(&target)?;
                    // The record goes through the folder's check like every file the studio
                    // writes: below the folder, never through a link.
                    let path = self.folder.writable(&self.folder.relative(&path))?;
                    plan.companion(&path, text, false);
                }
                plan.write()?;
                let text = Arc::clone(&draft.text);
                if let Some(draft) = self.draft.as_mut() {
                    draft.file = Some(self.folder.relative(&target));
                    draft.name = target.file_name().map_or(draft.name.clone(), |n| n.to_string_lossy().into_owned());
                    draft.on_disk = Some(text);
                }
                let written = vec![self.folder.relative(&target)];
                Ok(Reply::typed(&answers::Saved { written, view: Some(self.view()), diagnostics: None }))
            }
            "config" => {
                let built = self.built.as_ref().ok_or_else(|| refuse("build a node config first"))?;
                let secrets_out = request.secrets_path.as_deref().map(|p| self.folder.writable(p)).transpose()?;
                let outputs = ScaffoldOutputs {
                    output: Some(target.clone()),
                    secrets_out: secrets_out.clone(),
                    force: request.force,
                    ..ScaffoldOutputs::default()
                };
                let report = crate::jobs::scaffold::write(built.scaffold.clone(), &outputs)?;
                let written: Vec<String> =
                    [Some(target), secrets_out].iter().flatten().map(|p| self.folder.relative(p)).collect();
                let diagnostics = Some(view::placed(report.diagnostics, None));
                Ok(Reply::typed(&answers::Saved { written, view: None, diagnostics }))
            }
            "ids" => {
                let built = self.built.as_ref().ok_or_else(|| refuse("build a node config first"))?;
                let mut plan = Plan::new();
                plan.file(&target, built.ids.as_str(), request.force);
                plan.write()?;
                let written = vec![self.folder.relative(&target)];
                Ok(Reply::typed(&answers::Saved { written, view: None, diagnostics: None }))
            }
            other => Err(refuse(format!("save \"{other}\": ois, config or ids"))),
        }
    }

    /// The draft's file as it is on disk now, and the difference from the draft.
    pub fn disk(&self) -> Answer {
        let draft = self.draft()?;
        let file = draft.file.as_deref().ok_or_else(|| refuse("the draft has no file yet: save it first"))?;
        let text = Source::read(&self.folder.existing(file)?)?.text;
        Ok(Reply::typed(&answers::OnDisk { file, diff: crate::emit::unified_diff(file, file, &draft.text, &text) }))
    }

    /// Takes the draft's file as it is on disk now (what another program, the CLI, wrote).
    pub fn reload(&mut self) -> Answer {
        let draft = self.draft()?;
        let file = draft.file.clone().ok_or_else(|| refuse("the draft has no file yet: save it first"))?;
        let text: Arc<str> = Source::read(&self.folder.existing(&file)?)?.text.into();
        self.replace_text(Arc::clone(&text));
        if let Some(draft) = self.draft.as_mut() {
            draft.on_disk = Some(text);
        }
        Ok(self.page(true).into())
    }

    /// The three-way update of the draft from a new version of the API's document (as
    /// `ois convert NEW --update OIS`): shown, not taken until [`Session::take_update`].
    pub fn update(&mut self, mut request: OpenRequest) -> Answer {
        let (new, _) = self
            .named(&mut request, "new.yaml")
            .ok_or_else(|| refuse("give the new document (path) or its text"))??;
        let draft = self.draft()?;
        let source = draft.held().source();
        let mut options = crate::update::UpdateOptions::default();
        options.given = request.options.unwrap_or_default();
        options.title = draft.title.clone();
        options.records = self.record.as_ref().map(Generated::record).transpose()?.into_iter().collect();
        let update = crate::update::update(&new, None, &source, &options)
            .map_err(|failure| Refusal { diagnostics: view::placed(failure.diagnostics, Some(&new)), detail: None })?;
        let conflicts = update.diagnostics.iter().filter(|d| d.code == Code::UpdateConflict).count();
        let answer = Reply::typed(&answers::UpdateShown {
            diff: crate::emit::unified_diff(&draft.name, &draft.name, &draft.text, &update.text),
            endpoints: &update.merged.endpoints,
            conflicts,
            diagnostics: view::placed(update.diagnostics.clone(), Some(&new)),
        });
        self.pending = Some(update);
        Ok(answer)
    }

    /// Takes the update shown last: the draft becomes it, and its record the new one.
    pub fn take_update(&mut self) -> Answer {
        let update = self.pending.take().ok_or_else(|| refuse("no update to take: show one first"))?;
        self.draft()?;
        self.replace_text(update.text.into());
        self.record = Some(Generated::Read(update.record));
        Ok(self.page(true).into())
    }
}
