//! The audit bundle: a folder a third party re-checks with any SMT solver,
//! without Precept (`model.smt2`, one query per solver question behind each
//! finding, `manifest.json` with hashes and findings, `recheck.sh`,
//! `README.md`).

pub mod assemble;
pub mod claims;
pub mod folder;
pub mod manifest;
pub mod query;
pub mod readme;
pub mod recheck_script;

pub use assemble::{BundleSummary, export_bundle};
pub use folder::BundleError;
