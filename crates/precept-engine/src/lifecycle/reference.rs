//! Naming a model: a project folder (its draft) or `DIR@N`, version N of
//! the project in DIR (checked against its manifest before use).

use super::LifecycleError;
use super::versions::{load_checked, version_dir};
use std::path::{Path, PathBuf};

/// A model named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRef {
    /// The project folder.
    pub project: PathBuf,
    /// The version, or None for the draft.
    pub version: Option<u32>,
}

impl ModelRef {
    /// Parses `DIR` or `DIR@N`. A folder that exists as named is taken as
    /// it is, even if its name holds an `@`.
    pub fn parse(text: &str) -> Result<ModelRef, LifecycleError> {
        if Path::new(text).is_dir() {
            return Ok(ModelRef {
                project: PathBuf::from(text),
                version: None,
            });
        }
        match text.rsplit_once('@') {
            Some((dir, number)) => {
                let version = number.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                    LifecycleError::file(
                        Path::new(text),
                        format!("expected DIR@N with N a version number (1, 2, ...), found '@{number}'"),
                    )
                })?;
                Ok(ModelRef {
                    project: PathBuf::from(dir),
                    version: Some(version),
                })
            }
            None => Ok(ModelRef {
                project: PathBuf::from(text),
                version: None,
            }),
        }
    }

    /// The folder holding the named files, after checking a version's
    /// hashes (a tampered version is an error).
    pub fn resolve(&self) -> Result<PathBuf, LifecycleError> {
        match self.version {
            None => Ok(self.project.clone()),
            Some(n) => {
                load_checked(&self.project, n)?;
                Ok(version_dir(&self.project, n))
            }
        }
    }

    /// `DIR` or `DIR@N`, as the user wrote it.
    pub fn label(&self) -> String {
        match self.version {
            None => self.project.display().to_string(),
            Some(n) => format!("{}@{n}", self.project.display()),
        }
    }
}
