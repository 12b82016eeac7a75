//! `precept export DIR --format smtlib|json|arc|bundle --out FILE`

use super::common::{Outcome, load_project};
use clap::{Args, ValueEnum};
use precept_engine::export::{ExportFormat, export_text};
use precept_engine::model::project::write_atomic;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Smtlib,
    Json,
    /// An Amazon Bedrock Automated Reasoning policy definition
    Arc,
    /// An audit bundle (a folder) any SMT solver can re-check
    Bundle,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The project directory
    pub dir: PathBuf,
    #[arg(long, value_enum)]
    pub format: Format,
    /// The file to write (a folder for --format bundle)
    #[arg(long)]
    pub out: PathBuf,
    /// With --format arc: write the natural-language tests as ARC test cases
    #[arg(long)]
    pub tests: bool,
}

pub fn run(args: &ExportArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let format = match args.format {
        Format::Smtlib => ExportFormat::SmtLib,
        Format::Json => ExportFormat::Json,
        Format::Arc => return super::export_arc::run(&project, &args.out, args.tests),
        Format::Bundle => return super::export_bundle::run(&project, &compiled, &args.out),
    };
    let text = export_text(&project.model, &compiled, format);
    write_atomic(&args.out, text.as_bytes())?;
    println!("wrote {}", args.out.display());
    Ok(())
}
