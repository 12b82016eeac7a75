//! Being written.

use super::{Failure, Outcome};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// The project directory
    pub dir: PathBuf,
}

pub fn run(_args: &CoverageArgs) -> Outcome {
    Err(Failure::Input("not built yet".into()))
}
