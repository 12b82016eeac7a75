//! `precept import FILE --out DIR`: an SMT-LIB script, or a file of another
//! format recognised by its content (a Bedrock policy goes to `import_arc`,
//! a `.dmn` file to `import_dmn`).

use super::common::{Failure, Outcome};
use clap::Args;
use precept_engine::model::import::import_smtlib;
use precept_engine::model::project::read_text;
use precept_engine::model::{Project, Settings, TestSuite};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file to import: SMT-LIB, DMN, or an Amazon Bedrock Automated Reasoning policy (JSON)
    pub file: PathBuf,
    /// The project directory to create
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &ImportArgs) -> Outcome {
    if super::import_dmn::is_dmn(&args.file) {
        return super::import_dmn::run(&args.file, &args.out);
    }
    let source = read_text(&args.file)?;
    if precept_engine::formats::arc_policy::looks_like_arc_policy(&source) {
        return super::import_arc::run(&args.file, &args.out, &source);
    }
    let mut model = import_smtlib(&source)
        .map_err(|e| Failure::Input(format!("{}:{e}", args.file.display())))?;
    model.title = args
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rules = model.rules.len();
    let variables = model.variables.len();
    Project::create(&args.out, model, TestSuite::default(), Settings::default())?;
    println!(
        "imported {} rules and {} variables into {}",
        rules,
        variables,
        args.out.display()
    );
    Ok(())
}
