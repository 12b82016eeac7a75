//! Every error of the solver crate under one roof: asking Z3, checking a
//! test against the model, working out the flips of an edit and rejecting
//! a generated test. Each keeps its own message.

use crate::solve::{EncodeError, SolveError};
use crate::test_runner::TestCheckError;
use crate::test_runner::flips::PreviewError;
use crate::testgen::generate::RejectError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Encode(#[from] EncodeError),
    #[error(transparent)]
    TestCheck(#[from] TestCheckError),
    #[error(transparent)]
    Preview(#[from] PreviewError),
    #[error(transparent)]
    Reject(#[from] RejectError),
}

pub type Result<T> = std::result::Result<T, Error>;
