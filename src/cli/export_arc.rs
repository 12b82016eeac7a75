//! `precept export DIR --format arc --out policy.json [--tests]`: the model
//! as an Amazon Bedrock Automated Reasoning policy definition. Limits that
//! are exceeded and fields the format cannot hold are warned about on
//! stderr; the export still succeeds.

use super::common::Outcome;
use precept_engine::formats::arc_policy::{ArcLimits, ArcSource, write_arc_policy};
use precept_engine::model::Project;
use precept_engine::model::project::write_atomic;
use std::path::Path;

/// Writes `project` to `out`; `with_tests` adds its natural-language tests.
pub fn run(project: &Project, out: &Path, with_tests: bool) -> Outcome {
    let export = write_arc_policy(
        ArcSource {
            model: &project.model,
            tests: &project.tests,
            has_document: project.document.is_some(),
            with_tests,
        },
        &ArcLimits::default(),
    );
    write_atomic(out, export.json.as_bytes())?;
    for warning in &export.warnings {
        eprintln!("warning: {warning}");
    }
    println!("wrote {}", out.display());
    Ok(())
}
