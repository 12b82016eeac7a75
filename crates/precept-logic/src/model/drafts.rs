//! Drafts: rule text the expert typed that does not check yet. Drafts are
//! never applied to the model and never lost: they live in `drafts.json`
//! beside the model until they are applied or discarded.

use super::project::{ProjectError, read_json, write_json};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const DRAFTS_FILE: &str = "drafts.json";

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drafts {
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
}

impl Drafts {
    pub fn load(dir: &Path) -> Result<Drafts, ProjectError> {
        let path = dir.join(DRAFTS_FILE);
        if path.exists() {
            read_json(&path)
        } else {
            Ok(Drafts::default())
        }
    }

    /// Writes the drafts, or removes the file when there are none.
    pub fn save(&self, dir: &Path) -> Result<(), ProjectError> {
        let path = dir.join(DRAFTS_FILE);
        if self.rules.is_empty() {
            if path.exists() {
                std::fs::remove_file(&path).map_err(|e| ProjectError::Io {
                    path,
                    message: e.to_string(),
                })?;
            }
            return Ok(());
        }
        write_json(&path, self)
    }
}
