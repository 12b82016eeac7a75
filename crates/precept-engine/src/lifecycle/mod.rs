//! The life of a vetted model after its first vetting: immutable,
//! content-addressed versions (`versions.rs`, hashes in `content.rs`),
//! naming a version as `DIR@N` (`reference.rs`), and the diff of two models
//! by their text (`text_diff.rs`) and by their behaviour decided by the
//! solver (`behaviour.rs`), put together with the tests that flip in
//! `diff.rs` (each side loaded in `side.rs`; natural-language tests decided
//! from their stored translations in `diff_answer_tests.rs`).

pub mod behaviour;
pub mod clock;
pub mod content;
pub mod diff;
pub mod diff_answer_tests;
pub mod keys;
pub mod reference;
pub mod report;
pub mod side;
pub mod signoff;
pub mod text_diff;
pub mod versions;

/// What can go wrong with versions, references and their files.
#[derive(Debug, thiserror::Error)]
pub enum LifecycleError {
    #[error("{path}: {message}")]
    File {
        path: std::path::PathBuf,
        message: String,
    },
    #[error(transparent)]
    Project(#[from] crate::model::ProjectError),
}

impl LifecycleError {
    pub(crate) fn file(path: &std::path::Path, message: impl Into<String>) -> LifecycleError {
        LifecycleError::File {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}
