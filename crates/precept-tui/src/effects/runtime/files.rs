//! The effects that write the project's files: the model, the tests, the
//! drafts, the formalization record, the not-policy marks, exports and
//! files an explanation asks for, each atomically; and the workbench's own
//! theme choice.

use super::Runtime;
use crate::state::job_error::JobError;
use crate::state::msg::{Effect, Msg};
use precept_engine::model::project::{MODEL_FILE, TESTS_FILE, write_json};

impl Runtime {
    /// Carries out a file effect; its error, if any, as a message.
    pub(super) fn execute_file(&mut self, effect: Effect) -> Vec<Msg> {
        let io = |result: Result<(), JobError>| match result {
            Ok(()) => Vec::new(),
            Err(error) => vec![Msg::IoFailed {
                error: error.to_string(),
            }],
        };
        match effect {
            Effect::SaveModel(model) => self.saved(
                write_json(&self.project_dir.join(MODEL_FILE), &*model)
                    .map_err(|e| JobError::doing("not saved", e)),
            ),
            Effect::SaveTests(tests) => self.saved(
                write_json(&self.project_dir.join(TESTS_FILE), &*tests)
                    .map_err(|e| JobError::doing("not saved", e)),
            ),
            Effect::SaveDrafts(drafts) => io(drafts
                .save(&self.project_dir)
                .map_err(|e| JobError::doing("draft not saved", e))),
            Effect::SaveThemeChoice(name) => match &self.config_dir {
                Some(dir) => io(
                    crate::effects::config::write_theme_choice(dir, &name).map_err(JobError::of)
                ),
                None => Vec::new(),
            },
            Effect::RemoveRecord => {
                let path = self
                    .project_dir
                    .join(precept_engine::compose::record::RECORD_FILE);
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => vec![Msg::IoFailed {
                        error: format!("{}: not removed: {e}", path.display()),
                    }],
                    _ => Vec::new(),
                }
            }
            Effect::SaveNotPolicy(spans) => io(precept_engine::model::project::save_not_policy(
                &self.project_dir,
                &spans,
            )
            .map_err(|e| JobError::doing("not-policy marks not saved", e))),
            Effect::SaveRecord(record) => io(record
                .save(&self.project_dir)
                .map_err(|e| JobError::doing("formalization record not saved", e))),
            Effect::Export {
                format,
                model,
                compiled,
            } => {
                let path = self.project_dir.join(format.file_name());
                let text = precept_engine::export::export_text(&model, &compiled, format);
                match precept_engine::model::project::write_atomic(&path, text.as_bytes()) {
                    Ok(()) => vec![Msg::Exported {
                        format,
                        path: path.display().to_string(),
                    }],
                    Err(e) => vec![Msg::IoFailed {
                        error: format!("{} export not written: {e}", format.name()),
                    }],
                }
            }
            Effect::WriteProjectFile { path, contents } => {
                let full = self.project_dir.join(&path);
                let written = full
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|()| std::fs::write(&full, contents));
                vec![match written {
                    Ok(()) => Msg::FileWritten { path },
                    Err(e) => Msg::IoFailed {
                        error: format!("{}: not written: {e}", full.display()),
                    },
                }]
            }
            _ => Vec::new(),
        }
    }
}
