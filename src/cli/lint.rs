//! Being written.

use super::{Failure, Outcome};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct LintArgs {
    /// The project directory
    pub dir: PathBuf,
}

pub fn run(_args: &LintArgs) -> Outcome {
    Err(Failure::Input("not built yet".into()))
}
