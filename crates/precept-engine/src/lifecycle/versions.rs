//! Numbered, immutable versions of a project in `versions/N/`: a copy of
//! the frozen files and `VERSION.json` with the hash of each and of the
//! whole. A version is written into a hidden temporary folder and renamed
//! into place, so a half-written version never has a number.

use super::LifecycleError;
use super::content::{FileHash, frozen_names, hash_files, whole_hash};
use crate::model::project::{read_json, write_json};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

pub const VERSIONS_DIR: &str = "versions";
pub const VERSION_FILE: &str = "VERSION.json";

/// The manifest of one version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersionManifest {
    pub version: u32,
    /// When it was frozen (RFC 3339, UTC).
    pub created: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    pub files: Vec<FileHash>,
    /// The SHA-256 of the whole (see `content::whole_hash`).
    pub sha256: String,
}

/// The folder of version `n` of the project in `dir`.
pub fn version_dir(dir: &Path, n: u32) -> PathBuf {
    dir.join(VERSIONS_DIR).join(n.to_string())
}

/// The numbers of the project's versions, ascending.
pub fn version_numbers(dir: &Path) -> Result<Vec<u32>, LifecycleError> {
    let root = dir.join(VERSIONS_DIR);
    if !root.is_dir() {
        return Ok(Vec::new());
    }
    let entries = fs::read_dir(&root).map_err(|e| LifecycleError::file(&root, e.to_string()))?;
    let mut numbers: Vec<u32> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
        .collect();
    numbers.sort_unstable();
    Ok(numbers)
}

/// Freezes the draft in `dir` as the next version, with `note`.
pub fn freeze(dir: &Path, note: &str, created: &str) -> Result<VersionManifest, LifecycleError> {
    let names = frozen_names(dir)?;
    // The draft must load: a version of a project that does not open would
    // be of no use to a reviewer.
    crate::model::Project::load(dir)?;
    let files = hash_files(dir, &names)?;
    let version = version_numbers(dir)?.last().map_or(1, |n| n + 1);
    let manifest = VersionManifest {
        version,
        created: created.to_string(),
        note: note.to_string(),
        sha256: whole_hash(&files),
        files,
    };
    let root = dir.join(VERSIONS_DIR);
    let staging = root.join(format!(".{version}.partial"));
    let io = |path: &Path, e: std::io::Error| LifecycleError::file(path, e.to_string());
    if staging.exists() {
        fs::remove_dir_all(&staging).map_err(|e| io(&staging, e))?;
    }
    fs::create_dir_all(&staging).map_err(|e| io(&staging, e))?;
    let result = (|| {
        for name in &names {
            fs::copy(dir.join(name), staging.join(name)).map_err(|e| io(&dir.join(name), e))?;
        }
        write_json(&staging.join(VERSION_FILE), &manifest)?;
        let target = version_dir(dir, version);
        fs::rename(&staging, &target).map_err(|e| io(&target, e))
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    result.map(|()| manifest)
}

/// Reads version `n`'s manifest and checks every file against it: a
/// missing version, a missing manifest or a file whose content changed is
/// an error naming the file.
pub fn load_checked(dir: &Path, n: u32) -> Result<VersionManifest, LifecycleError> {
    let manifest = read_manifest(dir, n)?;
    let changed = changed_files(&version_dir(dir, n), &manifest)?;
    if let Some(first) = changed.first() {
        return Err(LifecycleError::file(
            &version_dir(dir, n).join(first),
            format!(
                "version {n} was tampered with: the content does not match {VERSION_FILE} (changed: {})",
                changed.join(", ")
            ),
        ));
    }
    Ok(manifest)
}

/// Reads version `n`'s manifest without checking the files.
pub fn read_manifest(dir: &Path, n: u32) -> Result<VersionManifest, LifecycleError> {
    let folder = version_dir(dir, n);
    if !folder.is_dir() {
        let known = version_numbers(dir)?;
        let listing = if known.is_empty() {
            "the project has no versions yet (make one with `precept version DIR`)".to_string()
        } else {
            format!(
                "the versions are {}",
                known
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(LifecycleError::file(
            &folder,
            format!("no version {n}: {listing}"),
        ));
    }
    let manifest: VersionManifest = read_json(&folder.join(VERSION_FILE))?;
    if manifest.version != n {
        return Err(LifecycleError::file(
            &folder.join(VERSION_FILE),
            format!("version: expected {n}, found {}", manifest.version),
        ));
    }
    Ok(manifest)
}

/// The files of `folder` whose content differs from `manifest` (or that
/// are missing), by name, plus the manifest's whole hash if it no longer
/// matches its own file list.
pub fn changed_files(
    folder: &Path,
    manifest: &VersionManifest,
) -> Result<Vec<String>, LifecycleError> {
    let mut changed = Vec::new();
    for file in &manifest.files {
        if file.path.contains('/') || file.path.contains('\\') || file.path.starts_with('.') {
            return Err(LifecycleError::file(
                &folder.join(VERSION_FILE),
                format!("files: expected a file name, found '{}'", file.path),
            ));
        }
        let path = folder.join(&file.path);
        match fs::read(&path) {
            Ok(bytes) if super::content::sha256_hex(&bytes) == file.sha256 => {}
            _ => changed.push(file.path.clone()),
        }
    }
    if changed.is_empty() && whole_hash(&manifest.files) != manifest.sha256 {
        changed.push(VERSION_FILE.to_string());
    }
    Ok(changed)
}

/// Where the draft stands: the newest version (the one it started from)
/// and the draft's files that differ from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftState {
    pub base: Option<u32>,
    pub changed: Vec<String>,
}

pub fn draft_state(dir: &Path) -> Result<DraftState, LifecycleError> {
    let Some(&base) = version_numbers(dir)?.last() else {
        return Ok(DraftState {
            base: None,
            changed: Vec::new(),
        });
    };
    let manifest = read_manifest(dir, base)?;
    let mut changed = changed_files(dir, &manifest)?;
    changed.retain(|name| name != VERSION_FILE);
    let frozen: Vec<&str> = manifest.files.iter().map(|f| f.path.as_str()).collect();
    for name in frozen_names(dir)? {
        if !frozen.contains(&name.as_str()) {
            changed.push(name);
        }
    }
    Ok(DraftState {
        base: Some(base),
        changed,
    })
}
