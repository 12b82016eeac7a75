//! `precept export DIR --format arc --out policy.json [--tests]`: the model
//! as an Amazon Bedrock Automated Reasoning policy definition. Limits that
//! are exceeded and fields the format cannot hold are warned about on
//! stderr; the export still succeeds.

use super::common::Outcome;
use super::export::ExportArgs;
use crate::core::formats::arc_policy::{ArcLimits, ArcSource, write_arc_policy};
use crate::core::model::Project;
use crate::core::model::project::write_atomic;

pub fn run(args: &ExportArgs, project: &Project) -> Outcome {
    let export = write_arc_policy(
        ArcSource {
            model: &project.model,
            tests: &project.tests,
            has_document: project.document.is_some(),
            with_tests: args.tests,
        },
        &ArcLimits::default(),
    );
    write_atomic(&args.out, export.json.as_bytes())?;
    for warning in &export.warnings {
        eprintln!("warning: {warning}");
    }
    println!("wrote {}", args.out.display());
    Ok(())
}
