//! `precept version DIR [--note "…"]`: freeze the draft as the next version,
//! and `precept versions DIR`: list the versions.

use super::common::{Outcome, print_json};
use clap::Args;
use precept_engine::lifecycle::clock::now_utc;
use precept_engine::lifecycle::signoff::{SignOff, read_signoffs};
use precept_engine::lifecycle::versions::{draft_state, freeze, read_manifest, version_numbers};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct VersionArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Why this version was made
    #[arg(long, default_value = "")]
    pub note: String,
    /// Print the new version's manifest as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &VersionArgs) -> Outcome {
    let manifest = freeze(&args.dir, &args.note, &now_utc())?;
    if args.json {
        return print_json(&manifest);
    }
    println!(
        "version {} of {}: {} files, sha256 {}",
        manifest.version,
        args.dir.display(),
        manifest.files.len(),
        manifest.sha256
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct VersionsArgs {
    /// The project directory
    pub dir: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct Listed {
    version: u32,
    created: String,
    note: String,
    sha256: String,
    signoffs: Vec<SignOff>,
}

#[derive(Debug, Serialize)]
struct Listing {
    versions: Vec<Listed>,
    draft_base: Option<u32>,
    draft_changed: Vec<String>,
}

pub fn run_list(args: &VersionsArgs) -> Outcome {
    let signoffs = read_signoffs(&args.dir)?;
    let mut versions = Vec::new();
    for n in version_numbers(&args.dir)? {
        let manifest = read_manifest(&args.dir, n)?;
        versions.push(Listed {
            version: n,
            created: manifest.created,
            note: manifest.note,
            sha256: manifest.sha256,
            signoffs: signoffs
                .iter()
                .filter(|s| s.version == n)
                .cloned()
                .collect(),
        });
    }
    let draft = draft_state(&args.dir)?;
    let listing = Listing {
        versions,
        draft_base: draft.base,
        draft_changed: draft.changed,
    };
    if args.json {
        return print_json(&listing);
    }
    if listing.versions.is_empty() {
        println!(
            "{}: no versions yet (make one with `precept version DIR`)",
            args.dir.display()
        );
        return Ok(());
    }
    for v in &listing.versions {
        let note = if v.note.is_empty() {
            String::new()
        } else {
            format!("  {}", v.note)
        };
        println!(
            "{:>3}  {}  sha256 {}{note}",
            v.version, v.created, &v.sha256
        );
        for s in &v.signoffs {
            let role = if s.role.is_empty() {
                String::new()
            } else {
                format!(" ({})", s.role)
            };
            let signed = if s.signature.is_some() {
                "signed"
            } else {
                "recorded"
            };
            println!("       {signed} by {}{role} at {}", s.reviewer, s.timestamp);
        }
    }
    match (listing.draft_base, listing.draft_changed.is_empty()) {
        (Some(base), true) => println!("draft: unchanged since version {base}"),
        (Some(base), false) => println!(
            "draft: changed since version {base} ({})",
            listing.draft_changed.join(", ")
        ),
        (None, _) => {}
    }
    Ok(())
}
