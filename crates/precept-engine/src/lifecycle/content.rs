//! What a version freezes and how it is addressed: the model, the tests, the
//! settings and the document, each with its SHA-256, and the SHA-256 of the
//! whole (over the sorted `hash  name` lines, as `sha256sum` prints them).

use super::LifecycleError;
use crate::model::project::{MODEL_FILE, SETTINGS_FILE, TESTS_FILE};
use crate::model::settings::Settings;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::Path;

/// One frozen file and its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileHash {
    pub path: String,
    pub sha256: String,
}

/// The SHA-256 of bytes, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of the whole: of the file lines sorted by name.
pub fn whole_hash(files: &[FileHash]) -> String {
    let mut lines: Vec<String> = files
        .iter()
        .map(|f| format!("{}  {}\n", f.sha256, f.path))
        .collect();
    lines.sort();
    sha256_hex(lines.concat().as_bytes())
}

/// The names of the files of a project that a version freezes (those that
/// exist): settings, model, tests, and the document the settings name.
pub fn frozen_names(dir: &Path) -> Result<Vec<String>, LifecycleError> {
    let mut names = Vec::new();
    let settings_path = dir.join(SETTINGS_FILE);
    if settings_path.is_file() {
        names.push(SETTINGS_FILE.to_string());
        let settings: Settings = crate::model::project::read_json(&settings_path)?;
        if let Some(document) = settings.document {
            if document.contains('/') || document.contains('\\') || document.starts_with('.') {
                return Err(LifecycleError::file(
                    &settings_path,
                    format!(
                        "document: expected a file name inside the project, found '{document}'"
                    ),
                ));
            }
            names.push(document);
        }
    }
    if !dir.join(MODEL_FILE).is_file() {
        return Err(LifecycleError::file(
            dir,
            format!("not a policy project (no {MODEL_FILE})"),
        ));
    }
    names.push(MODEL_FILE.to_string());
    if dir.join(TESTS_FILE).is_file() {
        names.push(TESTS_FILE.to_string());
    }
    names.sort();
    Ok(names)
}

/// Hashes the named files of `dir`.
pub fn hash_files(dir: &Path, names: &[String]) -> Result<Vec<FileHash>, LifecycleError> {
    names
        .iter()
        .map(|name| {
            let path = dir.join(name);
            let bytes = fs::read(&path).map_err(|e| LifecycleError::file(&path, e.to_string()))?;
            Ok(FileHash {
                path: name.clone(),
                sha256: sha256_hex(&bytes),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc_is_the_fips_180_answer() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn the_whole_hash_does_not_depend_on_file_order() {
        let a = FileHash {
            path: "a".into(),
            sha256: "1".into(),
        };
        let b = FileHash {
            path: "b".into(),
            sha256: "2".into(),
        };
        assert_eq!(
            whole_hash(&[a.clone(), b.clone()]),
            whole_hash(&[b, a.clone()])
        );
        assert_ne!(
            whole_hash(std::slice::from_ref(&a)),
            whole_hash(&[
                a,
                FileHash {
                    path: "c".into(),
                    sha256: "3".into()
                }
            ])
        );
    }
}
