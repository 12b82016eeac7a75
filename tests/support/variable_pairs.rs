//! The hand-labelled variable pairs of `tests/data/variable_pairs.json` and
//! the precision / recall of "should these two be unified?" predictions on
//! them. Included with `#[path]` by `tests/engine/clustering.rs`,
//! `tests/engine/embedders.rs` and `benches/embedders.rs`.
#![allow(dead_code)]

use std::path::PathBuf;

use serde::Deserialize;

/// One variable of a pair.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Var {
    pub name: String,
    pub sort: String,
    pub description: String,
}

/// Two variables and whether they mean the same thing.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelledPair {
    /// `true`: the two variables mean the same thing and should be unified.
    pub same: bool,
    /// The kind of case ("same meaning, paraphrased with different words
    /// (hard)", ...).
    pub group: String,
    pub a: Var,
    pub b: Var,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairsFile {
    #[allow(dead_code)]
    description: String,
    pairs: Vec<LabelledPair>,
}

impl LabelledPair {
    /// Whether the two names or descriptions differ in a contrast that
    /// clustering never merges across (before/after, different numbers, …).
    pub fn contrast(&self) -> bool {
        fn side(v: &Var) -> precept::compose::contrast::Named<'_> {
            precept::compose::contrast::Named {
                name: &v.name,
                description: &v.description,
            }
        }
        precept::compose::contrast::contrast(side(&self.a), side(&self.b)).is_some()
    }
}

pub fn pairs_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/variable_pairs.json")
}

/// The labelled pairs, in file order.
pub fn labelled_pairs() -> Vec<LabelledPair> {
    let path = pairs_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file: PairsFile = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is malformed: {e}", path.display()));
    file.pairs
}

/// One scored pair: the cosine of the two embeddings, whether the sorts
/// are equal (a clustering edge needs both), and the label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    pub similarity: f32,
    pub same_sort: bool,
    /// The names or descriptions differ in a contrast (never merged).
    pub contrast: bool,
    pub label: bool,
}

impl Scored {
    /// The same predicate as a clustering edge: equal sorts, no contrast
    /// and cosine at least `threshold`.
    pub fn predicted(&self, threshold: f32) -> bool {
        self.same_sort && !self.contrast && self.similarity >= threshold
    }
}

/// Precision and recall of the predictions at one threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quality {
    pub precision: f64,
    pub recall: f64,
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
}

impl Quality {
    pub fn f1(&self) -> f64 {
        if self.precision + self.recall == 0.0 {
            0.0
        } else {
            2.0 * self.precision * self.recall / (self.precision + self.recall)
        }
    }
}

pub fn quality(scored: &[Scored], threshold: f32) -> Quality {
    let (mut tp, mut fp, mut fne) = (0usize, 0usize, 0usize);
    for s in scored {
        match (s.predicted(threshold), s.label) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fne += 1,
            (false, false) => {}
        }
    }
    let ratio = |num: usize, den: usize| {
        if den == 0 {
            1.0
        } else {
            num as f64 / den as f64
        }
    };
    Quality {
        precision: ratio(tp, tp + fp),
        recall: ratio(tp, tp + fne),
        true_positives: tp,
        false_positives: fp,
        false_negatives: fne,
    }
}
