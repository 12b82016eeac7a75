//! The on-disk reply cache: one JSON file per request, named by the
//! SHA-256 of what determines the answer. Holds no secrets: neither keys
//! nor headers are part of a cache entry.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::config::Profile;
use super::request::{LlmError, LlmRequest};
use crate::model::project::write_atomic;

/// The cache key of `request` sent with `profile`: the hex SHA-256 of the
/// protocol, base URL, model, system text, prompt and schema.
pub fn cache_key(profile: &Profile, request: &LlmRequest) -> String {
    let schema = serde_json::to_string(&request.schema).unwrap_or_default();
    hash_parts(&[
        profile.protocol.as_str(),
        profile.base_url.trim_end_matches('/'),
        profile.model.as_str(),
        request.system.as_str(),
        request.prompt.as_str(),
        request.schema_name.as_str(),
        schema.as_str(),
    ])
}

/// The hex SHA-256 of `parts`, each length-prefixed so that ("ab", "c")
/// and ("a", "bc") differ.
pub fn hash_parts(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One cached reply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CacheEntry {
    pub key: String,
    pub protocol: String,
    pub base_url: String,
    pub model: String,
    pub schema_name: String,
    /// The validated structured answer.
    pub json: Value,
    /// The raw HTTP response body it came from.
    pub raw: String,
    /// Set when the reply was rejected (then `json` is null): replay gives
    /// the same rejection, so a recorded run's repair rounds replay too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<String>,
}

pub fn entry_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

/// The entry for `key`, `None` when there is none.
pub fn load(dir: &Path, key: &str) -> Result<Option<CacheEntry>, LlmError> {
    let path = entry_path(dir, key);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(LlmError::Cache {
                path: path.display().to_string(),
                message: e.to_string(),
            });
        }
    };
    let entry: CacheEntry = serde_json::from_str(&text).map_err(|e| LlmError::Cache {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(Some(entry))
}

/// Writes `entry` atomically (temporary file + rename).
pub fn store(dir: &Path, entry: &CacheEntry) -> Result<(), LlmError> {
    let path = entry_path(dir, &entry.key);
    let cache_error = |message: String| LlmError::Cache {
        path: path.display().to_string(),
        message,
    };
    std::fs::create_dir_all(dir).map_err(|e| cache_error(e.to_string()))?;
    let mut text = serde_json::to_string_pretty(entry).map_err(|e| cache_error(e.to_string()))?;
    text.push('\n');
    write_atomic(&path, text.as_bytes()).map_err(|e| cache_error(e.to_string()))
}
