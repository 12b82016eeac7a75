//! Every error of the workbench under one roof: the user's theme and
//! keymap files, remembering the theme chosen, and an edit of a
//! definition refused. Each keeps its own message.

use crate::effects::config::ThemeChoiceError;
use crate::input::keymap::KeymapError;
use crate::style::theme::ThemeError;
use precept_engine::model::definition::{DefinitionError, PartKind};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Theme(#[from] ThemeError),
    #[error(transparent)]
    Keymap(#[from] KeymapError),
    #[error(transparent)]
    ThemeChoice(#[from] ThemeChoiceError),
    #[error(transparent)]
    DefinitionEdit(#[from] DefinitionEditError),
}

/// Why an edit of a definition on the Rules screen was refused (nothing
/// changed). Here rather than in `update/definitions.rs`, whose module is
/// private to `update`.
#[derive(Debug, thiserror::Error)]
pub enum DefinitionEditError {
    #[error("definition {0} is gone")]
    DefinitionGone(String),
    /// The part edited (`number` counted from 1) is gone.
    #[error("{} {number} of {id} is gone", kind.noun())]
    PartGone {
        kind: PartKind,
        number: usize,
        id: String,
    },
    #[error("{id} not changed: {source}")]
    Refused { id: String, source: DefinitionError },
    /// A rule of the definition would not check (its compile issue).
    #[error("{id} not changed: {subject}: {message}")]
    RuleIssue {
        id: String,
        subject: String,
        message: String,
    },
}

pub type Result<T> = std::result::Result<T, Error>;
