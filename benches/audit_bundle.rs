//! Audit bundle benchmark (issue 17): export the bundle of the 1,500-rule
//! synthetic model with 1,000 tests (`support/synthetic.rs`), then re-check
//! it with the bundle's own `recheck.sh` and z3 (the pinned `.deps/z3/bin/z3`),
//! as a reviewer would. Reports the export time (the solver runs every test
//! and the files are written) and the z3 re-check time.
//!
//! Run with `cargo bench --bench audit_bundle`. Plain `fn main`, no harness.

#[path = "support/synthetic.rs"]
mod synthetic;

use precept::formats::bundle::export_bundle;
use precept::model::{Project, Settings};
use precept::solve::SolverWorker;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let (model, tests) = synthetic::synthetic();
    let dir = scratch.path().join("synthetic");
    Project::create(&dir, model, tests, Settings::default()).expect("the project");
    let project = Project::load(&dir).expect("loads");
    let compiled = project.compile_strict().expect("compiles");
    println!(
        "synthetic model: {} rules, {} variables, {} tests",
        compiled.rules.len(),
        compiled.variables.len(),
        project.tests.tests.len()
    );

    let worker = SolverWorker::spawn(Duration::from_secs(10));
    worker.load(compiled.clone()).expect("the model loads");
    let bundle = scratch.path().join("bundle");
    let started = Instant::now();
    let summary = export_bundle(&project, &compiled, &worker, &bundle).expect("the bundle");
    let export = started.elapsed();
    let bytes: u64 = walk(&bundle)
        .iter()
        .map(|p| p.metadata().map_or(0, |m| m.len()))
        .sum();
    println!(
        "export: {:.2} s ({} files, {} queries, {:.1} MB, {} tests without queries)",
        export.as_secs_f64(),
        summary.files,
        summary.queries,
        bytes as f64 / 1e6,
        summary.not_rechecked.len()
    );

    let z3_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".deps/z3/bin");
    let path = format!("{}:/usr/bin:/bin", z3_dir.display());
    let started = Instant::now();
    let out = Command::new("sh")
        .arg(bundle.join("recheck.sh"))
        .env("PATH", path)
        .env("RECHECK_SOLVERS", "z3")
        .output()
        .expect("recheck.sh runs");
    let recheck = started.elapsed();
    let report = String::from_utf8_lossy(&out.stdout);
    let last = report.lines().last().unwrap_or("");
    println!(
        "z3 re-check: {:.1} s for {} queries ({:.1} ms a query): {last}",
        recheck.as_secs_f64(),
        summary.queries,
        recheck.as_secs_f64() * 1e3 / summary.queries.max(1) as f64
    );
    if !out.status.success() {
        eprintln!("{report}");
        std::process::exit(1);
    }
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
