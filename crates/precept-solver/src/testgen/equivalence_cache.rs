//! Mutants proved equivalent, kept by content hash in the project's
//! git-ignored `.cache/equivalent-mutants.txt` (one SHA-256 a line), so a
//! rerun of the mutation analysis asks the solver nothing about them.
//!
//! The hash covers everything the proof depends on: the mutated rule's id
//! and formula, the mutant's formula, every rule of the rule's group (the
//! rules that share variables with it) and the declarations of the
//! variables they use. An edit to any of them changes the hash, so the
//! entry no longer applies.

use crate::model::project::{ProjectError, write_atomic};
use crate::model::{CompiledModel, graph::RuleGraph};
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where a project keeps the hashes, below its directory.
pub const EQUIVALENT_MUTANTS_FILE: &str = ".cache/equivalent-mutants.txt";

/// The equivalent mutants known to a project.
#[derive(Default)]
pub struct EquivalenceCache {
    /// The file, or None for a cache in memory only.
    file: Option<PathBuf>,
    known: Mutex<HashSet<String>>,
    /// How many mutants were found here (and so never asked about).
    hits: AtomicUsize,
}

impl EquivalenceCache {
    /// The cache in memory only.
    pub fn in_memory() -> EquivalenceCache {
        EquivalenceCache::default()
    }

    /// The project's cache (empty when the file is missing or unreadable:
    /// it is only a cache, and the mutants are then proved again).
    pub fn of_project(dir: &Path) -> EquivalenceCache {
        let file = dir.join(EQUIVALENT_MUTANTS_FILE);
        let known = std::fs::read_to_string(&file)
            .map(|text| {
                text.lines()
                    .map(str::trim)
                    .filter(|l| l.len() == 64 && l.bytes().all(|b| b.is_ascii_hexdigit()))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        EquivalenceCache {
            file: Some(file),
            known: Mutex::new(known),
            hits: AtomicUsize::new(0),
        }
    }

    pub fn contains(&self, key: &str) -> bool {
        let found = self
            .known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(key);
        if found {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    pub fn remember(&self, key: String) {
        self.known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key);
    }

    /// How many lookups found a mutant here.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn len(&self) -> usize {
        self.known.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the hashes to the project's file (sorted; nothing for a cache
    /// in memory).
    pub fn save(&self) -> Result<(), ProjectError> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let known: BTreeSet<String> = self
            .known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .cloned()
            .collect();
        let mut text = String::new();
        for key in known {
            text.push_str(&key);
            text.push('\n');
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| ProjectError::Io {
                path: dir.to_path_buf(),
                message: e.to_string(),
            })?;
        }
        write_atomic(file, text.as_bytes())
    }
}

/// What the mutants of rule `rule` (its id) depend on besides their own
/// formula: the rule, its group's rules (in model order) and the
/// declarations of their variables.
pub fn rule_context(model: &CompiledModel, graph: &RuleGraph, rule: &str) -> String {
    let variables = graph.variables_of(rule);
    let group = graph.cone_variables(variables.iter().map(String::as_str));
    let mut members: HashSet<String> = group.iter().flat_map(|v| graph.rules_using(v)).collect();
    members.insert(rule.to_string());
    let mut text = format!("rule {rule}\n");
    for r in model.rules.iter().filter(|r| members.contains(&r.id)) {
        let _ = writeln!(text, "{} {}", r.id, r.formula);
    }
    for (name, sort) in &model.variables {
        if group.contains(name) {
            let _ = writeln!(text, "{name} {sort:?}");
        }
    }
    let _ = writeln!(text, "{:?}", model.enums);
    text
}

/// The content hash of a mutant (its formula as text) of the rule whose
/// `rule_context` is `context`.
pub fn mutant_key(context: &str, mutant: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(context.as_bytes());
    hasher.update(b"mutant ");
    hasher.update(mutant.as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
