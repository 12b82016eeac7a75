//! Sign-off records: who approved which version, in `signoffs.json` beside
//! the draft (not part of any version).

use super::LifecycleError;
use crate::model::project::read_json;
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

/// The project's identity: the whole hash of its version 1.
pub fn project_id(dir: &Path) -> Result<String, LifecycleError> {
    Ok(super::versions::read_manifest(dir, 1)?.sha256)
}

impl SignOff {
    /// The bytes a signature covers: every field but the key and signature.
    pub fn message(&self) -> Vec<u8> {
        format!(
            "precept sign-off\nproject {}\nversion {}\nsha256 {}\ntimestamp {}\nreviewer {}\nrole {}\nnote {}\n",
            self.project, self.version, self.sha256, self.timestamp, self.reviewer, self.role, self.note
        )
        .into_bytes()
    }
}

/// Who signs, in what capacity, and with which key (None: an unsigned
/// record of the approval).
pub struct Approval<'a> {
    pub reviewer: &'a str,
    pub role: &'a str,
    pub note: &'a str,
    pub key: Option<&'a ed25519_dalek::SigningKey>,
    pub timestamp: &'a str,
}

/// Records `approval` of version `n` (checked against its manifest first:
/// a tampered version cannot be signed) in `signoffs.json`.
pub fn sign(dir: &Path, n: u32, approval: &Approval) -> Result<SignOff, LifecycleError> {
    if approval.reviewer.trim().is_empty() {
        return Err(LifecycleError::file(
            dir,
            "--reviewer: expected a name, found nothing",
        ));
    }
    let manifest = super::versions::load_checked(dir, n)?;
    let mut records = read_signoffs(dir)?;
    let project = project_id(dir)?;
    if let Some(foreign) = records.iter().find(|r| r.project != project) {
        return Err(foreign_record(dir, foreign));
    }
    let mut record = SignOff {
        project,
        version: n,
        sha256: manifest.sha256,
        timestamp: approval.timestamp.to_string(),
        reviewer: approval.reviewer.to_string(),
        role: approval.role.to_string(),
        note: approval.note.to_string(),
        public_key: None,
        signature: None,
    };
    if let Some(key) = approval.key {
        record.public_key = Some(super::keys::public_hex(key));
        record.signature = Some(super::keys::sign_hex(key, &record.message()));
    }
    records.push(record.clone());
    crate::model::project::write_json(
        &dir.join(SIGNOFFS_FILE),
        &SignOffFile { signoffs: records },
    )?;
    Ok(record)
}

fn foreign_record(dir: &Path, record: &SignOff) -> LifecycleError {
    LifecycleError::file(
        &dir.join(SIGNOFFS_FILE),
        format!(
            "the sign-off of version {} by {} is a record for another project (project {}, this one is identified by its version 1)",
            record.version, record.reviewer, record.project
        ),
    )
}

/// What checking one record found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CheckStatus {
    /// The signature holds over the version as it is now.
    Valid,
    /// No signature, but the version is as it was approved.
    Unsigned,
    /// The approved content changed: these files differ (or the version is gone).
    Broken { changed: Vec<String> },
    /// The signature does not match the record (the record was edited).
    BadSignature,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    pub record: SignOff,
    #[serde(flatten)]
    pub status: CheckStatus,
}

/// Checks every record against the files as they are now. A record of
/// another project is an error.
pub fn verify(dir: &Path) -> Result<Vec<Checked>, LifecycleError> {
    let records = read_signoffs(dir)?;
    if records.is_empty() {
        return Ok(Vec::new());
    }
    let project = project_id(dir).ok();
    let mut checked = Vec::new();
    for record in records {
        if project.as_deref() != Some(record.project.as_str()) {
            return Err(foreign_record(dir, &record));
        }
        let folder = super::versions::version_dir(dir, record.version);
        let status = match super::versions::read_manifest(dir, record.version) {
            Err(_) => CheckStatus::Broken {
                changed: vec![format!("versions/{} (missing)", record.version)],
            },
            Ok(manifest) => {
                let mut changed = super::versions::changed_files(&folder, &manifest)?;
                if changed.is_empty() && manifest.sha256 != record.sha256 {
                    changed.push(super::versions::VERSION_FILE.to_string());
                }
                let signed_ok = match (&record.public_key, &record.signature) {
                    (Some(key), Some(signature)) => {
                        Some(super::keys::verify_hex(key, &record.message(), signature))
                    }
                    (None, None) => None,
                    _ => Some(false),
                };
                if !changed.is_empty() {
                    CheckStatus::Broken {
                        changed: changed
                            .into_iter()
                            .map(|f| format!("versions/{}/{f}", record.version))
                            .collect(),
                    }
                } else {
                    match signed_ok {
                        Some(true) => CheckStatus::Valid,
                        Some(false) => CheckStatus::BadSignature,
                        None => CheckStatus::Unsigned,
                    }
                }
            }
        };
        checked.push(Checked { record, status });
    }
    Ok(checked)
}

/// The rules approved in the newest signed version whose text the draft
/// has changed since: they need review again. Each with that version.
pub fn rules_needing_review(
    dir: &Path,
    checked: &[Checked],
) -> Result<Vec<(String, u32)>, LifecycleError> {
    let Some(newest) = checked
        .iter()
        .filter(|c| matches!(c.status, CheckStatus::Valid | CheckStatus::Unsigned))
        .map(|c| c.record.version)
        .max()
    else {
        return Ok(Vec::new());
    };
    let signed: crate::model::PolicyModel = read_json(
        &super::versions::version_dir(dir, newest).join(crate::model::project::MODEL_FILE),
    )?;
    let draft: crate::model::PolicyModel = read_json(&dir.join(crate::model::project::MODEL_FILE))?;
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok(signed
        .rules
        .iter()
        .filter(|r| r.review == crate::model::ReviewStatus::Approved)
        .filter(|r| {
            draft
                .rules
                .iter()
                .find(|d| d.id == r.id)
                .is_some_and(|d| words(&d.expression) != words(&r.expression))
        })
        .map(|r| (r.id.clone(), newest))
        .collect())
}
