//! Every error of the logic crate under one roof: reading SMT-LIB text,
//! declaring a vocabulary, loading a project, editing a model and its
//! definitions. Each keeps its own message.

use crate::model::{DefinitionError, EditError, ProjectError};
use crate::smt::SmtError;
use crate::smt::typecheck::DeclarationError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Smt(#[from] SmtError),
    #[error(transparent)]
    Declaration(#[from] DeclarationError),
    #[error(transparent)]
    Project(#[from] ProjectError),
    #[error(transparent)]
    Edit(#[from] EditError),
    #[error(transparent)]
    Definition(#[from] DefinitionError),
}

pub type Result<T> = std::result::Result<T, Error>;
