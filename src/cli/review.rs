//! Being written.

use super::{Failure, Outcome};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The project directory
    pub dir: PathBuf,
}

pub fn run(_args: &ReviewArgs) -> Outcome {
    Err(Failure::Input("not built yet".into()))
}
