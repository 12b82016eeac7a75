//! Why the solver could not answer.

use super::encode::EncodeError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A formula Z3 cannot be given (a compiled model never has one).
    #[error(transparent)]
    Encoding(#[from] EncodeError),
    /// The solver could not decide: out of time, stopped, or it gave up
    /// (the reason in plain words).
    #[error("{0}")]
    Undecided(String),
    #[error("the solver gave no model")]
    NoModel,
    #[error("the solver thread stopped")]
    WorkerStopped,
    #[error("the solver failed internally while loading the model")]
    LoadFailed,
}
