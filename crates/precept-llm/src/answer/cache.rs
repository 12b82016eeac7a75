//! The translation cache: one JSON file per (prompt, translator, sample,
//! question, answer) in the project's `.cache/translations/`. It sits above
//! the LLM reply cache so that a translation survives vocabulary changes
//! that cannot affect it.
//!
//! A cached translation is **affected**, and asked for again, when
//! - a name it uses (a variable, or an enum value) was removed, or its
//!   declaration changed: its type, its description, or for enum values
//!   and enum-typed variables the enumeration's values or their
//!   descriptions; or
//! - it left something out (an untranslated statement, or a pair that still
//!   failed to check after the repair round) and anything in the vocabulary
//!   changed: a new or re-described name may express what was missing.
//!
//! Edits to rules never affect a translation, so after a rule edit only the
//! solver runs again. A description change of a name the translation does
//! not use does not affect it either (its prompt differs, but what it
//! expressed is still expressed with the same meaning).

use super::reply::{UntranslatedQuote, WrittenPair};
use super::vocabulary::{TranslationVocabulary, fingerprint};
use crate::model::project::write_atomic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A translation as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CachedTranslation {
    pub key: String,
    /// The prompt files it was made with.
    pub prompt: String,
    /// Protocol, server and model of the translator, and the sample number.
    pub translator: String,
    pub question: String,
    pub answer: String,
    /// The pairs that checked.
    pub pairs: Vec<WrittenPair>,
    pub untranslated: Vec<UntranslatedQuote>,
    /// Pairs that still failed after the repair round, with their errors.
    pub rejected: Vec<RejectedPair>,
    pub rounds: u32,
    /// The fingerprint of each name the pairs use.
    pub symbols: BTreeMap<String, String>,
    /// The fingerprint of the whole vocabulary it was made with.
    pub vocabulary: String,
}

/// A pair that did not check even after the repair round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RejectedPair {
    pub premise: String,
    pub claim: String,
    pub source: String,
    pub errors: Vec<String>,
}

impl CachedTranslation {
    /// Whether a change of the vocabulary affects this translation (see the
    /// module documentation).
    pub fn affected_by(&self, vocabulary: &TranslationVocabulary) -> bool {
        !self.changed_symbols(vocabulary).is_empty()
            || self.left_out_and_vocabulary_changed(vocabulary)
    }

    /// The names the pairs use whose declaration `vocabulary` changed or
    /// removed, in name order.
    pub fn changed_symbols(&self, vocabulary: &TranslationVocabulary) -> Vec<&str> {
        self.symbols
            .iter()
            .filter(|(name, print)| vocabulary.symbol_fingerprint(name) != Some(print.as_str()))
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// Whether it left something out and anything in `vocabulary` differs
    /// from the vocabulary it was made with.
    pub fn left_out_and_vocabulary_changed(&self, vocabulary: &TranslationVocabulary) -> bool {
        let left_something_out = !self.untranslated.is_empty() || !self.rejected.is_empty();
        left_something_out && self.vocabulary != vocabulary.fingerprint()
    }
}

/// The cache key of one translation.
pub fn translation_key(prompt: &str, translator: &str, question: &str, answer: &str) -> String {
    fingerprint(&["translation", prompt, translator, question, answer])
}

/// The folder of cached translations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationCache {
    dir: PathBuf,
}

impl TranslationCache {
    /// A cache in `dir` (created on the first store).
    pub fn new(dir: impl Into<PathBuf>) -> TranslationCache {
        TranslationCache { dir: dir.into() }
    }

    /// The usual place: `translations/` inside a project's cache folder.
    pub fn in_project_cache(cache_dir: &Path) -> TranslationCache {
        TranslationCache::new(cache_dir.join("translations"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The stored translation for `key`. A missing, unreadable or malformed
    /// entry is a miss: the cache only ever saves work.
    pub fn load(&self, key: &str) -> Option<CachedTranslation> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str(&text)
            .ok()
            .filter(|entry: &CachedTranslation| entry.key == key)
    }

    /// Stores a translation atomically.
    pub fn store(&self, entry: &CachedTranslation) -> Result<(), CacheWriteError> {
        let path = self.path(&entry.key);
        let failed = |message: String| CacheWriteError::Prepare {
            path: path.display().to_string(),
            message,
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| failed(e.to_string()))?;
        let mut text = serde_json::to_string_pretty(entry).map_err(|e| failed(e.to_string()))?;
        text.push('\n');
        Ok(write_atomic(&path, text.as_bytes())?)
    }
}

/// A translation that could not be written to the cache.
#[derive(Debug, thiserror::Error)]
pub enum CacheWriteError {
    #[error("{path}: {message}")]
    Prepare { path: String, message: String },
    #[error(transparent)]
    Write(#[from] crate::model::ProjectError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{PolicyModel, compile};

    fn park() -> PolicyModel {
        serde_json::from_str(include_str!(
            "../../../../samples/park-admission/model.json"
        ))
        .expect("park")
    }

    fn entry(vocabulary: &TranslationVocabulary, untranslated: bool) -> CachedTranslation {
        let (_, premise) = vocabulary.check("(= ageClass SENIOR)").expect("premise");
        let (_, claim) = vocabulary.check("(not isEntryAllowed)").expect("claim");
        CachedTranslation {
            key: "k".into(),
            prompt: "p".into(),
            translator: "t".into(),
            question: "q".into(),
            answer: "a".into(),
            pairs: vec![WrittenPair {
                premise: premise.to_string(),
                claim: claim.to_string(),
                source: "No".into(),
            }],
            untranslated: if untranslated {
                vec![UntranslatedQuote {
                    text: "parking".into(),
                    reason: "no parking variable".into(),
                }]
            } else {
                Vec::new()
            },
            rejected: Vec::new(),
            rounds: 1,
            symbols: vocabulary.fingerprints_of([&premise, &claim]),
            vocabulary: vocabulary.fingerprint().to_string(),
        }
    }

    fn with(model: &PolicyModel, edit: impl FnOnce(&mut PolicyModel)) -> TranslationVocabulary {
        let mut edited = model.clone();
        edit(&mut edited);
        TranslationVocabulary::new(&edited, &compile(&edited))
    }

    #[test]
    fn only_changes_to_used_names_affect_a_complete_translation() {
        let model = park();
        let vocabulary = TranslationVocabulary::new(&model, &compile(&model));
        let cached = entry(&vocabulary, false);
        assert_eq!(
            cached.symbols.keys().collect::<Vec<_>>(),
            ["SENIOR", "ageClass", "isEntryAllowed"]
        );
        assert!(!cached.affected_by(&vocabulary));
        let rule_edit = with(&model, |m| {
            m.rules[0].expression = "(= baseFee 60.0)".into()
        });
        assert!(!cached.affected_by(&rule_edit));
        let unused = with(&model, |m| m.variables[2].description = "The fee".into());
        assert!(!cached.affected_by(&unused));
        let used = with(&model, |m| m.variables[14].description = "May enter".into());
        assert!(cached.affected_by(&used));
        let value = with(&model, |m| {
            m.types[0].values[0].description = "Under 12".into()
        });
        assert!(cached.affected_by(&value), "ageClass's enumeration changed");
        let removed = with(&model, |m| {
            m.variables.remove(14);
            m.rules.retain(|r| !r.expression.contains("isEntryAllowed"));
        });
        assert!(cached.affected_by(&removed));
    }

    #[test]
    fn any_vocabulary_change_affects_a_translation_that_left_text_out() {
        let model = park();
        let vocabulary = TranslationVocabulary::new(&model, &compile(&model));
        let cached = entry(&vocabulary, true);
        assert!(!cached.affected_by(&vocabulary));
        let rule_edit = with(&model, |m| {
            m.rules[0].expression = "(= baseFee 60.0)".into()
        });
        assert!(!cached.affected_by(&rule_edit));
        let unused = with(&model, |m| m.variables[2].description = "The fee".into());
        assert!(cached.affected_by(&unused));
    }

    #[test]
    fn entries_round_trip_and_bad_files_are_misses() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = TranslationCache::in_project_cache(dir.path());
        let model = park();
        let vocabulary = TranslationVocabulary::new(&model, &compile(&model));
        let stored = entry(&vocabulary, false);
        cache.store(&stored).expect("store");
        assert_eq!(cache.load("k"), Some(stored));
        assert_eq!(cache.load("other"), None);
        std::fs::write(cache.dir().join("k.json"), "{not json").expect("write");
        assert_eq!(cache.load("k"), None);
    }
}
