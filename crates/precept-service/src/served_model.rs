//! One loaded model with its scheduler of warm solver workers: what a
//! request runs against from start to finish, even if a reload swaps in
//! another.

use crate::error::Error;
use precept_engine::model::project::MODEL_FILE;
use precept_engine::model::{CompiledModel, Project};
use precept_engine::scheduler::Scheduler;
use precept_engine::solve::Defaults;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

pub struct ServedModel {
    pub project: Project,
    pub compiled: CompiledModel,
    /// The model's exceptions, for reading claims by default (built once
    /// per load, not per request).
    pub defaults: Defaults,
    /// The SHA-256 of the model file, in hex.
    pub hash: String,
    /// Its warm workers, leased one to a request (`scheduler/lending.rs`).
    pub scheduler: Arc<Scheduler>,
    /// The project's files when they were read (see [`fingerprint`]).
    pub fingerprint: Fingerprint,
}

impl ServedModel {
    /// Reads and compiles the project and loads the model into `workers`
    /// fresh solver workers. Only reads the project.
    pub fn load(
        dir: &Path,
        workers: usize,
        timeout: Option<Duration>,
    ) -> crate::error::Result<ServedModel> {
        let fingerprint = fingerprint(dir);
        let bytes = std::fs::read(dir.join(MODEL_FILE)).map_err(|source| Error::Read {
            path: dir.join(MODEL_FILE),
            source,
        })?;
        let project = Project::load(dir)?;
        let compiled = project.compile_strict()?;
        let timeout = timeout.unwrap_or(Duration::from_millis(project.settings.solver_timeout_ms));
        let scheduler = Scheduler::new(workers, timeout);
        scheduler.load(&compiled).map_err(|source| Error::Solver {
            dir: dir.to_path_buf(),
            source,
        })?;
        Ok(ServedModel {
            project,
            defaults: Defaults::of(&compiled),
            compiled,
            hash: hex(&Sha256::digest(&bytes)),
            scheduler: Arc::new(scheduler),
            fingerprint,
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The name, size and modification time of each file directly in the
/// project folder: a change to any of them means the project changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fingerprint(Vec<(String, u64, Option<SystemTime>)>);

pub fn fingerprint(dir: &Path) -> Fingerprint {
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            let name = entry.file_name().to_string_lossy().into_owned();
            if meta.is_file() && !name.starts_with('.') {
                files.push((name, meta.len(), meta.modified().ok()));
            }
        }
    }
    files.sort();
    Fingerprint(files)
}
