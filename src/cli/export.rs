//! `precept export DIR --format smtlib|json --out FILE`

use super::common::{Outcome, load_project};
use crate::core::export::{ExportFormat, export_text};
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
    let format = match args.format {
        Format::Smtlib => ExportFormat::SmtLib,
        Format::Json => ExportFormat::Json,
    };
    let text = export_text(&project.model, &compiled, format);
    write_atomic(&args.out, text.as_bytes())?;
    println!("wrote {}", args.out.display());
    Ok(())
}
