//! Quality figures kept between runs, in the project's git-ignored
//! `.cache/figures/`. A figure is filed under the SHA-256 of everything it
//! depends on: this format, Precept's version, the model, the project
//! settings and the solver deadline, plus the logic tests for the test
//! results, coverage and mutation score, and which mutants for the score.
//! Change any of them and the key changes, so a stored figure is only ever
//! shown for exactly the inputs that produced it. The CLI's `lint`, `test`
//! and `coverage` file what they compute; `precept report` reuses it.
//!
//! It is a cache: an unreadable or damaged entry is treated as missing and
//! computed again, and a failure to write one never fails the command.

use super::quality::Stamped;
use crate::lifecycle::clock::now_utc;
use crate::lifecycle::content::sha256_hex;
use crate::model::project::write_atomic;
use crate::model::{Project, ProjectError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// Bumped whenever what a figure means or how it is stored changes.
const FORMAT: &str = "precept-figures-1";

/// How many entries of each kind are kept (the newest).
const KEPT_PER_KIND: usize = 4;

/// Which figure an entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureKind {
    Lint,
    Tests,
    Coverage,
    /// The mutation score over every mutant (None) or a spread sample of
    /// at most this many.
    Mutation(Option<usize>),
}

impl FigureKind {
    /// The figure's name in progress lines.
    pub fn name(self) -> &'static str {
        match self {
            FigureKind::Lint => "lint",
            FigureKind::Tests => "tests",
            FigureKind::Coverage => "rule coverage",
            FigureKind::Mutation(_) => "mutation score",
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            FigureKind::Lint => "lint",
            FigureKind::Tests => "tests",
            FigureKind::Coverage => "coverage",
            FigureKind::Mutation(_) => "mutation",
        }
    }
}

/// Why a figure was not filed.
#[derive(Debug, thiserror::Error)]
pub enum FigureStoreError {
    #[error("{}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Write(#[from] ProjectError),
}

/// The project's store of figures.
#[derive(Debug, Clone)]
pub struct FiguresCache {
    dir: PathBuf,
}

impl FiguresCache {
    pub fn of_project(project: &Project) -> FiguresCache {
        FiguresCache {
            dir: project.cache_dir().join("figures"),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of `kind` for `project` with this solver deadline.
    pub fn key(project: &Project, timeout_ms: u64, kind: FigureKind) -> String {
        let model = serde_json::to_vec(&project.model).unwrap_or_default();
        let settings = serde_json::to_vec(&project.settings).unwrap_or_default();
        let tests = match kind {
            FigureKind::Lint => Vec::new(),
            _ => serde_json::to_vec(&project.tests.tests).unwrap_or_default(),
        };
        let sample = match kind {
            FigureKind::Mutation(sample) => format!("{sample:?}"),
            _ => String::new(),
        };
        FiguresCache::key_of(
            kind.prefix(),
            &[
                &model,
                &settings,
                &timeout_ms.to_le_bytes(),
                &tests,
                sample.as_bytes(),
            ],
        )
    }

    /// The key of a figure of kind `prefix` (letters only) depending on
    /// `parts`, with this format and Precept's version.
    pub fn key_of(prefix: &str, parts: &[&[u8]]) -> String {
        let mut input = Vec::new();
        for part in [
            FORMAT.as_bytes(),
            env!("CARGO_PKG_VERSION").as_bytes(),
            prefix.as_bytes(),
        ]
        .into_iter()
        .chain(parts.iter().copied())
        {
            input.extend_from_slice(&(part.len() as u64).to_le_bytes());
            input.extend_from_slice(part);
        }
        format!("{prefix}-{}", &sha256_hex(&input)[..32])
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The figure filed under `key`, marked as reused; None when there is
    /// none or it cannot be read.
    pub fn load<T: DeserializeOwned>(&self, key: &str) -> Option<Stamped<T>> {
        let text = std::fs::read(self.path(key)).ok()?;
        let mut stamped: Stamped<T> = serde_json::from_slice(&text).ok()?;
        stamped.reused = true;
        Some(stamped)
    }

    /// Files `value`, just computed by a command, as `kind` for `project`
    /// with this deadline. A cache: a failure to write is not an error.
    pub fn file<T: Serialize>(project: &Project, timeout_ms: u64, kind: FigureKind, value: T) {
        let key = FiguresCache::key(project, timeout_ms, kind);
        let _ = FiguresCache::of_project(project).store(&key, &Stamped::fresh(now_utc(), value));
    }

    /// Files a figure under `key` and drops the oldest entries of its kind
    /// beyond the newest few.
    pub fn store<T: Serialize>(
        &self,
        key: &str,
        figure: &Stamped<T>,
    ) -> Result<(), FigureStoreError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| FigureStoreError::Folder {
            dir: self.dir.clone(),
            source,
        })?;
        let bytes = serde_json::to_vec(figure)?;
        let path = self.path(key);
        write_atomic(&path, &bytes)?;
        self.prune(key.split('-').next().unwrap_or(key));
        Ok(())
    }

    fn prune(&self, prefix: &str) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.starts_with(&format!("{prefix}-")) && n.ends_with(".json"))
            })
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.0));
        for (_, stale) in files.into_iter().skip(KEPT_PER_KIND) {
            let _ = std::fs::remove_file(stale);
        }
    }
}
