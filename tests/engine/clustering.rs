//! Variable clustering and unification (ARC §3.1.1): a labelled set of
//! same-meaning / different-meaning variable pairs
//! (`tests/data/variable_pairs.json`, also read by `benches/embedders.rs`)
//! evaluated with the offline lexical embedder, plus the structural
//! guarantees of `cluster_variables` and `unify`.

use std::collections::HashMap;
use std::time::Instant;

use precept::compose::cluster::{
    Cluster, DEFAULT_THRESHOLD, VariableCandidate, cluster_names, cluster_variables, unify,
};
use precept::compose::embed::{Embedder, LexicalEmbedder, cosine, variable_text};

use crate::variable_pairs;

use variable_pairs::{LabelledPair, Scored, labelled_pairs, quality};

/// Embeds every variable of the labelled set (`tests/data/variable_pairs.json`)
/// in one batch (so the tf-idf is fitted on the whole set, as it would be on
/// all candidates of a document) and scores each pair.
fn pair_similarities(pairs: &[LabelledPair]) -> Vec<Scored> {
    let mut texts = Vec::new();
    for pair in pairs {
        texts.push(variable_text(&pair.a.name, &pair.a.description));
        texts.push(variable_text(&pair.b.name, &pair.b.description));
    }
    let emb = LexicalEmbedder::new().embed(&texts).unwrap();
    pairs
        .iter()
        .enumerate()
        .map(|(k, pair)| Scored {
            similarity: cosine(&emb[2 * k], &emb[2 * k + 1]),
            same_sort: pair.a.sort == pair.b.sort,
            contrast: pair.contrast(),
            label: pair.same,
        })
        .collect()
}

#[test]
fn labelled_pairs_precision_recall() {
    let pairs = labelled_pairs();
    assert!(pairs.len() >= 90, "only {} labelled pairs", pairs.len());
    let sims = pair_similarities(&pairs);
    let positives = pairs.iter().filter(|p| p.same).count();
    println!(
        "labelled pairs: {} ({} same-meaning, {} different)",
        pairs.len(),
        positives,
        pairs.len() - positives
    );
    for t in [0.40f32, 0.50, 0.55, 0.60, DEFAULT_THRESHOLD, 0.70, 0.75] {
        let q = quality(&sims, t);
        let marker = if t == DEFAULT_THRESHOLD {
            " (default)"
        } else {
            ""
        };
        println!(
            "threshold {t:.2}{marker}: precision {:.3} recall {:.3} (tp {}, fp {}, fn {})",
            q.precision, q.recall, q.true_positives, q.false_positives, q.false_negatives
        );
    }
    // Errors at the default threshold, for inspection.
    for (pair, s) in pairs.iter().zip(&sims) {
        let pred = s.predicted(DEFAULT_THRESHOLD);
        if pred != pair.same {
            let kind = if pred { "FP" } else { "FN" };
            println!(
                "  {kind} {:.3} {}:{} ~ {}:{}",
                s.similarity, pair.a.name, pair.a.sort, pair.b.name, pair.b.sort
            );
        }
    }
    let q = quality(&sims, DEFAULT_THRESHOLD);
    let (p, r) = (q.precision, q.recall);
    assert!(p >= 0.8, "precision {p:.3} < 0.8 at the default threshold");
    assert!(r >= 0.5, "recall {r:.3} < 0.5 at the default threshold");
}

/// The pairs the first real-document runs merged although they differ in
/// meaning (before/after, on site/on road, form letters, modality, places,
/// qualifiers): never in one cluster, at any threshold.
#[test]
fn contrasting_pairs_never_cluster_at_any_threshold() {
    let pairs: Vec<LabelledPair> = labelled_pairs()
        .into_iter()
        .filter(|p| p.group.contains("must never merge"))
        .collect();
    assert!(pairs.len() >= 12, "only {} contrast pairs", pairs.len());
    for pair in &pairs {
        assert!(
            pair.contrast(),
            "{} / {} not seen as a contrast",
            pair.a.name,
            pair.b.name
        );
        let cands = vec![
            cand(0, &pair.a.name, &pair.a.sort, &pair.a.description),
            cand(1, &pair.b.name, &pair.b.sort, &pair.b.description),
        ];
        let emb = embed_candidates(&cands);
        for t in [-1.0f32, 0.0, 0.3, 0.5, DEFAULT_THRESHOLD, 0.9] {
            let clusters = cluster_variables(&cands, &emb, t);
            assert_eq!(
                clusters.len(),
                2,
                "{} and {} merged at threshold {t}",
                pair.a.name,
                pair.b.name
            );
        }
    }
    // Nor through a chain: a neutral third variable similar to both does
    // not glue the opposites together.
    let cands = vec![
        cand(
            0,
            "passedCarTestBefore1Feb2001",
            "Bool",
            "passed the car test before 1 February 2001",
        ),
        cand(1, "passedCarTest", "Bool", "passed the car test"),
        cand(
            2,
            "passedCarTestOnOrAfter1Feb2001",
            "Bool",
            "passed the car test on or after 1 February 2001",
        ),
    ];
    let emb = embed_candidates(&cands);
    let clusters = cluster_variables(&cands, &emb, -1.0);
    assert_ne!(cluster_of(&clusters, 0), cluster_of(&clusters, 2));
}

fn cand(unit: usize, name: &str, sort: &str, description: &str) -> VariableCandidate {
    VariableCandidate {
        unit,
        name: name.to_string(),
        sort: sort.to_string(),
        description: description.to_string(),
    }
}

fn embed_candidates(cands: &[VariableCandidate]) -> Vec<Vec<f32>> {
    let texts: Vec<String> = cands
        .iter()
        .map(|c| variable_text(&c.name, &c.description))
        .collect();
    LexicalEmbedder::new().embed(&texts).unwrap()
}

fn cluster_of(clusters: &[Cluster], i: usize) -> usize {
    clusters
        .iter()
        .position(|c| c.members.contains(&i))
        .expect("every candidate is in a cluster")
}

#[test]
fn different_sorts_never_cluster() {
    // Identical text, different sorts, different units.
    let cands = vec![
        cand(0, "applicantAge", "Int", "Age of the applicant in years"),
        cand(1, "applicantAge", "Real", "Age of the applicant in years"),
        cand(2, "applicantAge", "Int", "Age of the applicant in years"),
    ];
    let emb = embed_candidates(&cands);
    // Even at threshold -1 (everything similar enough) sorts stay apart.
    for t in [-1.0, DEFAULT_THRESHOLD] {
        let clusters = cluster_variables(&cands, &emb, t);
        assert_eq!(clusters.len(), 2);
        assert_eq!(cluster_of(&clusters, 0), cluster_of(&clusters, 2));
        assert_ne!(cluster_of(&clusters, 0), cluster_of(&clusters, 1));
        for c in &clusters {
            assert!(c.members.iter().all(|&m| cands[m].sort == c.sort));
        }
        let map = unify(&cands, &clusters);
        assert_eq!(map[&(0, "applicantAge".to_string())], "applicantAge");
        assert_eq!(map[&(1, "applicantAge".to_string())], "applicantAge_2");
    }
}

#[test]
fn same_unit_never_clusters_even_through_a_chain() {
    // Units 0 has two near-identical variables; unit 1 has one similar to
    // both. Single linkage would chain all three together.
    let cands = vec![
        cand(
            0,
            "refundAmount",
            "Real",
            "Refund in dollars paid to the passenger",
        ),
        cand(
            0,
            "refundTotal",
            "Real",
            "Refund in dollars paid to the passenger in total",
        ),
        cand(
            1,
            "passengerRefund",
            "Real",
            "Refund in dollars paid to the passenger",
        ),
    ];
    let emb = embed_candidates(&cands);
    let clusters = cluster_variables(&cands, &emb, -1.0);
    assert_ne!(cluster_of(&clusters, 0), cluster_of(&clusters, 1));
    for c in &clusters {
        let mut units: Vec<usize> = c.members.iter().map(|&m| cands[m].unit).collect();
        let n = units.len();
        units.dedup();
        assert_eq!(units.len(), n, "a cluster holds two variables of one unit");
    }
    // The unit-1 variable joins the closer of the two (identical text).
    assert_eq!(cluster_of(&clusters, 2), cluster_of(&clusters, 0));
}

#[test]
fn unify_and_rename_apart() {
    let cands = vec![
        // Unit 0 and 1 agree on householdIncome; unit 2 uses the name
        // "income" for the same concept.
        cand(
            0,
            "householdIncome",
            "Real",
            "Annual household income in dollars",
        ),
        cand(
            1,
            "householdIncome",
            "Real",
            "Annual income of the household in dollars",
        ),
        cand(
            2,
            "income",
            "Real",
            "Annual household income in dollars, all members",
        ),
        // "fee" means two unrelated things in units 0 and 1.
        cand(
            0,
            "fee",
            "Real",
            "Administration fee charged for cancelling the ticket",
        ),
        cand(1, "fee", "Real", "Park admission for a child visitor"),
        // An existing "fee_2" must not be clobbered by the renaming.
        cand(3, "fee_2", "Bool", "Whether the weekend surcharge applies"),
    ];
    let emb = embed_candidates(&cands);
    let clusters = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    let inc = cluster_of(&clusters, 0);
    assert_eq!(inc, cluster_of(&clusters, 1));
    assert_eq!(inc, cluster_of(&clusters, 2));
    assert_eq!(clusters[inc].canonical_name, "householdIncome");
    assert_eq!(
        clusters[inc].description,
        "Annual income of the household in dollars"
    );
    assert_ne!(cluster_of(&clusters, 3), cluster_of(&clusters, 4));

    let map = unify(&cands, &clusters);
    assert_eq!(map.len(), cands.len());
    assert_eq!(map[&(2, "income".to_string())], "householdIncome");
    assert_eq!(map[&(1, "householdIncome".to_string())], "householdIncome");
    let f0 = &map[&(0, "fee".to_string())];
    let f1 = &map[&(1, "fee".to_string())];
    assert_ne!(f0, f1);
    let mut fees = [f0.as_str(), f1.as_str()];
    fees.sort();
    assert_eq!(fees, ["fee", "fee_3"]);
    assert_eq!(map[&(3, "fee_2".to_string())], "fee_2");

    // No two clusters share a final name.
    let names = cluster_names(&clusters);
    let mut dedup = names.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), names.len());
}

/// Candidates spread over units from the labelled set.
fn sample_candidates() -> Vec<VariableCandidate> {
    let mut cands = Vec::new();
    for (k, pair) in labelled_pairs().iter().enumerate() {
        let (a, b) = (&pair.a, &pair.b);
        cands.push(cand(2 * k % 7, &a.name, &a.sort, &a.description));
        cands.push(cand((2 * k + 1) % 7, &b.name, &b.sort, &b.description));
    }
    cands
}

/// (final name, sort, description, sorted (unit, member)) of one cluster.
type Rendered = (String, String, String, Vec<(usize, String)>);

/// Canonical, order-independent rendering of a clustering.
fn render(cands: &[VariableCandidate], clusters: &[Cluster]) -> Vec<Rendered> {
    let names = cluster_names(clusters);
    let mut out: Vec<_> = clusters
        .iter()
        .zip(names)
        .map(|(c, n)| {
            let mut m: Vec<(usize, String)> = c
                .members
                .iter()
                .map(|&i| {
                    (
                        cands[i].unit,
                        format!("{}:{}", cands[i].name, cands[i].description),
                    )
                })
                .collect();
            m.sort();
            (n, c.sort.clone(), c.description.clone(), m)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn deterministic_and_input_order_independent() {
    let cands = sample_candidates();
    let emb = embed_candidates(&cands);
    let a = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    let b = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    assert_eq!(a, b);
    assert_eq!(unify(&cands, &a), unify(&cands, &b));

    // Reverse and shuffle (deterministically) the input: same clusters, same
    // canonical names, same final names.
    let mut perm: Vec<usize> = (0..cands.len()).collect();
    perm.reverse();
    perm.rotate_left(37);
    let shuffled: Vec<VariableCandidate> = perm.iter().map(|&i| cands[i].clone()).collect();
    let emb2 = embed_candidates(&shuffled);
    let c = cluster_variables(&shuffled, &emb2, DEFAULT_THRESHOLD);
    assert_eq!(render(&cands, &a), render(&shuffled, &c));
    let u1: HashMap<_, _> = unify(&cands, &a);
    let u2: HashMap<_, _> = unify(&shuffled, &c);
    assert_eq!(u1, u2);
}

#[test]
fn canonical_name_choice() {
    // Three units call it "age", one "applicantAge", one "ageYears":
    // most frequent wins; on a tie, the shortest, then alphabetical. The
    // threshold -1 makes everything similar: this tests naming only.
    let e = "Age of the applicant in years";
    let cands = vec![
        cand(0, "applicantAge", "Int", e),
        cand(1, "age", "Int", e),
        cand(
            2,
            "age",
            "Int",
            "Age of the applicant in whole years, as declared",
        ),
        cand(3, "ageYears", "Int", e),
        cand(4, "age", "Int", e),
    ];
    let emb = embed_candidates(&cands);
    let cl = cluster_variables(&cands, &emb, -1.0);
    assert_eq!(cl.len(), 1);
    assert_eq!(cl[0].canonical_name, "age");
    assert_eq!(
        cl[0].description,
        "Age of the applicant in whole years, as declared"
    );

    let tie = vec![
        cand(0, "ageYears", "Int", e),
        cand(1, "ageOfApplicant", "Int", e),
        cand(2, "applicantAge", "Int", e),
    ];
    let emb = embed_candidates(&tie);
    let cl = cluster_variables(&tie, &emb, -1.0);
    assert_eq!(cl.len(), 1);
    // All names occur once: the shortest ("ageYears", 8 chars) wins.
    assert_eq!(cl[0].canonical_name, "ageYears");
    let tie2 = vec![cand(0, "bb", "Int", e), cand(1, "ab", "Int", e)];
    let emb = embed_candidates(&tie2);
    let cl = cluster_variables(&tie2, &emb, -1.0);
    assert_eq!(cl[0].canonical_name, "ab");
}

#[test]
fn timing_2000_variables() {
    // 2,000 synthetic variables over 200 units, built from the labelled
    // vocabulary with unit-specific qualifiers (measured, not asserted).
    let base: Vec<variable_pairs::Var> = labelled_pairs()
        .into_iter()
        .flat_map(|pair| [pair.a, pair.b])
        .collect();
    let qualifiers = [
        "", "current", "previous", "claimed", "annual", "weekly", "net", "gross",
    ];
    let mut cands = Vec::with_capacity(2000);
    for i in 0..2000 {
        let var = &base[i % base.len()];
        let q = qualifiers[(i / base.len()) % qualifiers.len()];
        cands.push(cand(
            i % 200,
            &var.name,
            &var.sort,
            &format!("{} {q}", var.description),
        ));
    }
    let texts: Vec<String> = cands
        .iter()
        .map(|c| variable_text(&c.name, &c.description))
        .collect();
    let t0 = Instant::now();
    let emb = LexicalEmbedder::new().embed(&texts).unwrap();
    let t_embed = t0.elapsed();
    let t1 = Instant::now();
    let clusters = cluster_variables(&cands, &emb, DEFAULT_THRESHOLD);
    let t_cluster = t1.elapsed();
    let t2 = Instant::now();
    let map = unify(&cands, &clusters);
    let t_unify = t2.elapsed();
    println!(
        "2000 variables: embed {:?}, cluster {:?} ({} clusters), unify {:?} ({} names)",
        t_embed,
        t_cluster,
        clusters.len(),
        t_unify,
        map.len()
    );
}
