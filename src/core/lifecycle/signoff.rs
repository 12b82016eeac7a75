//! Sign-off records: who approved which version, in `signoffs.json` beside
//! the draft (not part of any version).

use super::LifecycleError;
use crate::core::model::project::read_json;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const SIGNOFFS_FILE: &str = "signoffs.json";

/// One approval of one version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignOff {
    /// The whole hash of the project's version 1: which project this is.
    pub project: String,
    pub version: u32,
    /// The whole hash of the version approved.
    pub sha256: String,
    pub timestamp: String,
    pub reviewer: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub role: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Ed25519 public key (hex), when the record is signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
    /// Ed25519 signature (hex) of `SignOff::message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignOffFile {
    signoffs: Vec<SignOff>,
}

/// The project's sign-off records (none when the file does not exist).
pub fn read_signoffs(dir: &Path) -> Result<Vec<SignOff>, LifecycleError> {
    let path = dir.join(SIGNOFFS_FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let file: SignOffFile = read_json(&path)?;
    Ok(file.signoffs)
}
