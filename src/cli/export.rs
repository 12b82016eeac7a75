//! `precept export DIR --format smtlib|json --out FILE`

use super::common::{Failure, Outcome, load_project};
use crate::core::export::{to_json, to_smtlib};
use crate::core::model::project::write_atomic;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Smtlib,
    Json,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The project directory
    pub dir: PathBuf,
    #[arg(long, value_enum)]
    pub format: Format,
    /// The file to write
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &ExportArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let text = match args.format {
        Format::Smtlib => to_smtlib(&project.model, &compiled),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&to_json(&project.model, &compiled))
                .map_err(|e| Failure::Input(e.to_string()))?;
            text.push('\n');
            text
        }
    };
    write_atomic(&args.out, text.as_bytes())?;
    println!("wrote {}", args.out.display());
    Ok(())
}
