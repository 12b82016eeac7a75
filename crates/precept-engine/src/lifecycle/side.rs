//! One side of a diff: a model named by a [`ModelRef`], loaded and
//! compiled, with the cache its stored translations are in (a version
//! `DIR@N` shares the project's `.cache/`: it is not one of the frozen files).

use super::LifecycleError;
use super::reference::ModelRef;
use crate::model::project::CACHE_DIR;
use crate::model::{CompiledModel, Project};
use std::path::PathBuf;

pub struct Side {
    /// `DIR` or `DIR@N`, as the user wrote it.
    pub label: String,
    pub project: Project,
    pub compiled: CompiledModel,
    /// The project's `.cache/` (for a version too).
    pub cache_dir: PathBuf,
}

impl Side {
    pub fn load(reference: &ModelRef) -> Result<Side, LifecycleError> {
        let folder = reference.resolve()?;
        let project = Project::load(&folder)?;
        let compiled = project.compile_strict()?;
        Ok(Side {
            label: reference.label(),
            project,
            compiled,
            cache_dir: reference.project.join(CACHE_DIR),
        })
    }
}
