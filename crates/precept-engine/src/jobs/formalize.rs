//! Formalizing the project's document as the command line does: the
//! options `precept.json` records (`formalize`; the defaults when it records
//! none), the configured LLM, and the definition pass when every span
//! formalized (`engine::formalization`).

use super::JobContext;
use crate::compose::document_run::FormalizedDocument;
use crate::formalization::{FormalizationError, formalize};
use crate::formalize::span_runs::FormalizeEvent;
use crate::llm::{Cancel, LlmError};
use crate::model::Settings;
use crate::model::project::{SETTINGS_FILE, read_json};
use crate::model::settings::FormalizeOptions;
use std::sync::Arc;

/// Why the project's document was not formalized.
#[derive(Debug, thiserror::Error)]
pub enum FormalizeJobError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error(transparent)]
    Formalization(#[from] FormalizationError),
}

/// The project's formalize options; the defaults when it records none (or
/// its settings cannot be read).
pub fn project_options(context: &JobContext) -> FormalizeOptions {
    read_json::<Settings>(&context.project_dir.join(SETTINGS_FILE))
        .ok()
        .and_then(|settings| settings.formalize)
        .unwrap_or_default()
}

/// Formalizes `document` (named `document_name` in the project) with the
/// project's options; `on_event` hears each span's progress.
pub fn formalize_project(
    context: &JobContext,
    document: &str,
    document_name: &str,
    cancel: &Cancel,
    on_event: Arc<dyn Fn(FormalizeEvent) + Send + Sync>,
) -> Result<FormalizedDocument, FormalizeJobError> {
    let client = context.client(cancel)?;
    let options = project_options(context);
    Ok(formalize(
        Arc::new(client),
        document,
        document_name,
        &options,
        &context.cache_dir(),
        context.timeout,
        on_event,
    )?)
}
