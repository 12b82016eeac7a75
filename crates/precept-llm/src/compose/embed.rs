//! Textual embeddings of policy variables, used to cluster and unify the
//! variables that different document spans introduce (ARC §3.1.1: "generates
//! textual embeddings of variables and clusters them using cosine
//! similarity").
//!
//! The default, [`LexicalEmbedder`], is fully offline and deterministic: a
//! hashed tf-idf bag of word stems and character 3-grams. It recognises
//! variables that share vocabulary (`applicantAge` / "age of the applicant")
//! but not true paraphrases with disjoint words (`isSenior` / "elderly
//! guest"); a neural embedder can be plugged in through [`Embedder`].

use std::collections::{BTreeMap, HashMap};

use crate::document::words::{content_words, split_identifier};
use crate::llm::embeddings::EmbedError;
pub use crate::llm::embeddings::Embedder;

/// Cosine similarity of two vectors; 0 when either is zero or the lengths
/// differ.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let mut dot = 0.0f64;
    let mut na = 0.0f64;
    let mut nb = 0.0f64;
    for (x, y) in a.iter().zip(b) {
        dot += f64::from(*x) * f64::from(*y);
        na += f64::from(*x) * f64::from(*x);
        nb += f64::from(*y) * f64::from(*y);
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    (dot / (na.sqrt() * nb.sqrt())) as f32
}

/// The text that represents a variable for embedding: its name expanded into
/// words, followed by its description.
pub fn variable_text(name: &str, description: &str) -> String {
    let words = split_identifier(name).join(" ");
    let description = description.trim();
    if description.is_empty() {
        words
    } else {
        format!("{words}: {description}")
    }
}

/// Deterministic 64-bit FNV-1a (stable across runs and platforms, unlike
/// `std`'s randomly seeded hasher).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    // Final avalanche (splitmix64) so low bits are well mixed.
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The offline default embedder: hashed, tf-idf-weighted bag of word stems
/// plus character 3-grams of those stems, L2-normalised.
///
/// * Words come from [`content_words`] (identifier splitting, stop words,
///   light stemming). Each word feature has weight [`Self::word_weight`].
/// * Character 3-grams of `^stem$` catch morphological variants the stemmer
///   misses ("eligible"/"eligibility", "travelled"/"travel"); each has weight
///   [`Self::ngram_weight`], split across the word's 3-grams so long words do
///   not dominate.
/// * The idf is fitted on the batch passed to [`Embedder::embed`]
///   (`idf = ln((1 + N) / (1 + df)) + 1`), so vocabulary shared by every
///   variable of a document ("dollars", "applicant") counts less.
/// * Features are hashed into `dim` buckets with a sign bit (the "hashing
///   trick"), so no vocabulary has to be stored.
#[derive(Debug, Clone)]
pub struct LexicalEmbedder {
    /// Output dimension.
    pub dim: usize,
    /// Weight of a whole-word (stem) feature.
    pub word_weight: f32,
    /// Total weight of the character 3-grams of one word.
    pub ngram_weight: f32,
    /// Multiplier for the features of the name part of a text (everything
    /// before the first `": "`, as produced by [`variable_text`]). Names are
    /// the most specific part of a variable: descriptions of different
    /// variables of one document often share a template ("... in dollars for
    /// the household").
    pub name_weight: f32,
}

impl Default for LexicalEmbedder {
    fn default() -> Self {
        LexicalEmbedder {
            dim: 2048,
            word_weight: 1.0,
            ngram_weight: 0.6,
            name_weight: 1.5,
        }
    }
}

impl LexicalEmbedder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feature → raw term weight for one text (before idf).
    fn features(&self, text: &str) -> BTreeMap<String, f32> {
        let (name, description) = match text.split_once(": ") {
            Some((n, d)) => (n, d),
            None => ("", text),
        };
        let mut f: BTreeMap<String, f32> = BTreeMap::new();
        self.add_features(&mut f, name, self.name_weight);
        self.add_features(&mut f, description, 1.0);
        f
    }

    fn add_features(&self, f: &mut BTreeMap<String, f32>, text: &str, scale: f32) {
        for w in content_words(text) {
            *f.entry(format!("w:{w}")).or_default() += self.word_weight * scale;
            let padded: Vec<char> = format!("^{w}$").chars().collect();
            if padded.len() >= 3 {
                let grams = padded.len() - 2;
                let per = self.ngram_weight * scale / grams as f32;
                for g in padded.windows(3) {
                    let g: String = g.iter().collect();
                    *f.entry(format!("g:{g}")).or_default() += per;
                }
            }
        }
    }
}

impl Embedder for LexicalEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if self.dim == 0 {
            return Err(EmbedError::Local(
                "LexicalEmbedder: dimension must be positive".into(),
            ));
        }
        let feats: Vec<BTreeMap<String, f32>> = texts.iter().map(|t| self.features(t)).collect();
        // Fit: document frequency of each feature over the batch.
        let mut df: HashMap<&str, u32> = HashMap::new();
        for f in &feats {
            for k in f.keys() {
                *df.entry(k.as_str()).or_default() += 1;
            }
        }
        let n = texts.len() as f32;
        let mut out = Vec::with_capacity(texts.len());
        for f in &feats {
            let mut v = vec![0.0f32; self.dim];
            for (k, tf) in f {
                let d = df[k.as_str()] as f32;
                let idf = ((1.0 + n) / (1.0 + d)).ln() + 1.0;
                // Sublinear tf above 1: repeated words count, with
                // diminishing returns.
                let w = if *tf > 1.0 { 1.0 + tf.ln() } else { *tf } * idf;
                let h = fnv1a(k.as_bytes());
                let idx = (h % self.dim as u64) as usize;
                let sign = if (h >> 63) & 1 == 1 { -1.0 } else { 1.0 };
                v[idx] += sign * w;
            }
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            if norm > 0.0 {
                for x in &mut v {
                    *x /= norm;
                }
            }
            out.push(v);
        }
        Ok(out)
    }

    fn name(&self) -> &str {
        "lexical-tfidf-hash"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_reads_as_its_words_and_description() {
        assert_eq!(variable_text("numChildren", "Kids"), "num children: Kids");
    }

    #[test]
    fn embeds_normalised_and_similar() {
        let e = LexicalEmbedder::new();
        let texts = vec![
            variable_text("applicantAge", "Age of the applicant in years"),
            variable_text("ageOfApplicant", "The applicant's age"),
            variable_text("householdIncome", "Annual household income"),
        ];
        let v = e.embed(&texts).unwrap();
        assert_eq!(v.len(), 3);
        for x in &v {
            let n: f32 = x.iter().map(|a| a * a).sum();
            assert!((n - 1.0).abs() < 1e-4);
        }
        assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]));
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
    }
}
