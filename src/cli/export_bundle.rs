//! `precept export DIR --format bundle --out BUNDLE/`: the audit bundle.

use super::common::{Outcome, start_solver};
use super::export::ExportArgs;
use crate::core::formats::bundle::export_bundle;
use crate::core::model::{CompiledModel, Project};

pub fn run(args: &ExportArgs, project: &Project, compiled: &CompiledModel) -> Outcome {
    let worker = start_solver(project, compiled, None)?;
    let summary = export_bundle(project, compiled, &worker, &args.out)?;
    for note in &summary.not_rechecked {
        eprintln!("note: no queries for {note}");
    }
    println!(
        "wrote the audit bundle {}: {} files, {} queries behind {} tests",
        args.out.display(),
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
