//! Embedder evaluation: precision and recall of "unify these two variables"
//! (equal sorts and cosine ≥ threshold, the clustering's edge predicate) on
//! the hand-labelled pairs of `tests/data/variable_pairs.json`, for the
//! lexical embedder and — built with `--features minilm`, model installed by
//! `scripts/setup-minilm.sh` — the local all-MiniLM-L6-v2.
//!
//! Run: cargo bench --bench embedders [--features minilm]

#[path = "../tests/support/variable_pairs.rs"]
mod variable_pairs;

use std::time::{Duration, Instant};

use precept::compose::cluster::DEFAULT_THRESHOLD;
use precept::compose::embed::{Embedder, LexicalEmbedder, cosine, variable_text};
use variable_pairs::{LabelledPair, Scored, labelled_pairs, quality};

/// Embeds every variable of the set in one batch and scores each pair.
fn score(
    embedder: &dyn Embedder,
    pairs: &[LabelledPair],
) -> Result<(Vec<Scored>, Duration), String> {
    let mut texts = Vec::with_capacity(2 * pairs.len());
    for pair in pairs {
        texts.push(variable_text(&pair.a.name, &pair.a.description));
        texts.push(variable_text(&pair.b.name, &pair.b.description));
    }
    let start = Instant::now();
    let vectors = embedder.embed(&texts).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let scored = pairs
        .iter()
        .enumerate()
        .map(|(k, pair)| Scored {
            similarity: cosine(&vectors[2 * k], &vectors[2 * k + 1]),
            same_sort: pair.a.sort == pair.b.sort,
            contrast: pair.contrast(),
            label: pair.same,
        })
        .collect();
    Ok((scored, elapsed))
}

/// Prints the threshold sweep, the recall per group of pairs and the errors
/// at `chosen`.
fn report(name: &str, pairs: &[LabelledPair], scored: &[Scored], chosen: f32, took: Duration) {
    println!(
        "\n{name}: {} texts embedded in {:.1} ms",
        2 * pairs.len(),
        took.as_secs_f64() * 1000.0
    );
    println!("  threshold  precision  recall   f1     tp  fp  fn");
    let mut thresholds: Vec<f32> = (6..=18).map(|k| k as f32 * 0.05).collect();
    if !thresholds.iter().any(|t| (t - chosen).abs() < 1e-6) {
        thresholds.push(chosen);
        thresholds.sort_by(f32::total_cmp);
    }
    for t in thresholds {
        let q = quality(scored, t);
        let marker = if (t - chosen).abs() < 1e-6 {
            "  <- chosen"
        } else {
            ""
        };
        println!(
            "  {t:9.2}  {:9.3}  {:6.3}  {:5.3}  {:3} {:3} {:3}{marker}",
            q.precision,
            q.recall,
            q.f1(),
            q.true_positives,
            q.false_positives,
            q.false_negatives
        );
    }
    let mut groups: Vec<&str> = Vec::new();
    for pair in pairs {
        if !groups.contains(&pair.group.as_str()) {
            groups.push(&pair.group);
        }
    }
    println!("  at {chosen:.2}, per group (pairs predicted 'same' / pairs):");
    for group in groups {
        let in_group: Vec<&Scored> = pairs
            .iter()
            .zip(scored)
            .filter(|(p, _)| p.group == group)
            .map(|(_, s)| s)
            .collect();
        let predicted = in_group.iter().filter(|s| s.predicted(chosen)).count();
        println!("    {predicted:3} / {:3}  {group}", in_group.len());
    }
    println!("  errors at {chosen:.2}:");
    for (pair, s) in pairs.iter().zip(scored) {
        if s.predicted(chosen) != pair.same {
            let kind = if pair.same { "FN" } else { "FP" };
            println!(
                "    {kind} {:.3} {} ~ {}",
                s.similarity, pair.a.name, pair.b.name
            );
        }
    }
}

fn main() {
    let pairs = labelled_pairs();
    let positives = pairs.iter().filter(|p| p.same).count();
    println!(
        "labelled pairs: {} ({positives} same meaning, {} different), from {}",
        pairs.len(),
        pairs.len() - positives,
        variable_pairs::pairs_path().display()
    );

    let lexical = LexicalEmbedder::new();
    match score(&lexical, &pairs) {
        Ok((scored, took)) => report(lexical.name(), &pairs, &scored, DEFAULT_THRESHOLD, took),
        Err(error) => println!("\nlexical: failed: {error}"),
    }

    minilm(&pairs);
}

#[cfg(not(feature = "minilm"))]
fn minilm(_pairs: &[LabelledPair]) {
    println!("\nall-MiniLM-L6-v2: not built (run with --features minilm)");
}

#[cfg(feature = "minilm")]
fn minilm(pairs: &[LabelledPair]) {
    use precept::compose::embed_minilm::{ENV_MINILM_DIR, MINILM_THRESHOLD, MiniLmEmbedder};
    use std::path::PathBuf;

    let dir = std::env::var_os(ENV_MINILM_DIR)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".deps/minilm"));
    let start = Instant::now();
    let model = match MiniLmEmbedder::load(&dir) {
        Ok(model) => model,
        Err(error) => {
            println!("\nall-MiniLM-L6-v2: skipped: {error}");
            return;
        }
    };
    println!(
        "\nall-MiniLM-L6-v2: loaded from {} in {:.0} ms",
        model.model_dir().display(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    match score(&model, pairs) {
        Ok((scored, took)) => report(model.name(), pairs, &scored, MINILM_THRESHOLD, took),
        Err(error) => println!("all-MiniLM-L6-v2: failed: {error}"),
    }
}
