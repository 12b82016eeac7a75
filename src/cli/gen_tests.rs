//! Being written.

use super::{Failure, Outcome};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct GenTestsArgs {
    /// The project directory
    pub dir: PathBuf,
}

pub fn run(_args: &GenTestsArgs) -> Outcome {
    Err(Failure::Input("not built yet".into()))
}
