//! `precept show DIR [--smtlib | --english]`

use super::common::{Outcome, load_project};
use clap::Args;
use precept_engine::export::to_smtlib;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Only the model as an SMT-LIB script
    #[arg(long, conflicts_with = "english")]
    pub smtlib: bool,
    /// Only the rules in structured English
    #[arg(long)]
    pub english: bool,
}

pub fn run(args: &ShowArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let model = &project.model;
    if args.smtlib {
        print!("{}", to_smtlib(model, &compiled));
        return Ok(());
    }
    if args.english {
        for rule in &compiled.rules {
            println!("{}: {}", rule.id, compiled.glossary.sentence(&rule.written));
        }
        return Ok(());
    }
    if !model.title.is_empty() {
        println!("{}\n", model.title);
    }
    if !model.types.is_empty() {
        println!("Types");
        for type_def in &model.types {
            println!("  {}  {}", type_def.name, type_def.description);
            for value in &type_def.values {
                println!("    {}  {}", value.value, value.description);
            }
        }
        println!();
    }
    println!("Variables");
    let width = model
        .variables
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    let sort_width = model
        .variables
        .iter()
        .map(|v| v.sort.len())
        .max()
        .unwrap_or(0);
    for variable in &model.variables {
        println!(
            "  {:width$}  {:sort_width$}  {}",
            variable.name, variable.sort, variable.description
        );
    }
    println!("\nRules");
    for rule in &compiled.rules {
        println!("  {}: {}", rule.id, rule.written);
        println!("      {}", compiled.glossary.sentence(&rule.written));
    }
    Ok(())
}
