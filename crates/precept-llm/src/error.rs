//! Every error of the LLM crate under one roof: the clients and their
//! replies, embeddings, formalizing and composing a model, verifying an
//! answer, repair and probing. Each keeps its own message.

use crate::answer::VerifyError;
use crate::answer::cache::CacheWriteError;
use crate::answer::reply::WrongShape;
use crate::compose::correction::CorrectionError;
use crate::compose::document_run::FormalizeError;
#[cfg(feature = "minilm")]
use crate::compose::embed_minilm::MiniLmError;
use crate::compose::unify::ComposeError;
use crate::formalize::unit::{NotAUnit, UnitTypeError};
use crate::llm::LlmError;
use crate::llm::embedding_reply::UnusableReply;
use crate::llm::embeddings::EmbedError;
use crate::llm::validate::SchemaMismatch;
use crate::probe::run::ProbeStop;
use crate::repair::RefusedEdit;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error(transparent)]
    SchemaMismatch(#[from] SchemaMismatch),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error(transparent)]
    UnusableReply(#[from] UnusableReply),
    #[cfg(feature = "minilm")]
    #[error(transparent)]
    MiniLm(#[from] MiniLmError),
    #[error(transparent)]
    Compose(#[from] ComposeError),
    #[error(transparent)]
    Formalize(#[from] FormalizeError),
    #[error(transparent)]
    Correction(#[from] CorrectionError),
    #[error(transparent)]
    NotAUnit(#[from] NotAUnit),
    #[error(transparent)]
    UnitType(#[from] UnitTypeError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    CacheWrite(#[from] CacheWriteError),
    #[error(transparent)]
    WrongShape(#[from] WrongShape),
    #[error(transparent)]
    RefusedEdit(#[from] RefusedEdit),
    #[error(transparent)]
    ProbeStop(#[from] ProbeStop),
}

pub type Result<T> = std::result::Result<T, Error>;
