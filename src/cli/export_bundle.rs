//! `precept export DIR --format bundle --out BUNDLE/`: the audit bundle.

use super::common::{Outcome, start_solver};
use precept_engine::formats::bundle::export_bundle;
use precept_engine::model::{CompiledModel, Project};
use std::path::Path;

/// Writes the audit bundle of `project` to the folder `out`.
pub fn run(project: &Project, compiled: &CompiledModel, out: &Path) -> Outcome {
    let worker = start_solver(project, compiled, None)?;
    let summary = export_bundle(project, compiled, &worker, out)?;
    for note in &summary.not_rechecked {
        eprintln!("note: no queries for {note}");
    }
    println!(
        "wrote the audit bundle {}: {} files, {} queries behind {} tests",
        out.display(),
        summary.files,
        summary.queries,
        summary.tests
    );
    println!(
        "manifest.json SHA-256: {} (publish it with the bundle; recheck.sh prints it too)",
        summary.manifest_sha256
    );
    Ok(())
}
