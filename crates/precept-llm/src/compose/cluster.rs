//! Clustering and unification of the variables that different policy units
//! (document spans) introduce (ARC §3.1.1: "Variables within a cluster are
//! unified, while variables that share the same name but are not clustered
//! are renamed").
//!
//! # Algorithm
//!
//! 1. A petgraph similarity graph is built whose nodes are the candidates and
//!    whose edges join two candidates when
//!    * their sorts are identical (a unification never silently changes a
//!      variable's type),
//!    * they come from different units (variables of one unit are distinct by
//!      construction), and
//!    * their cosine similarity is at least the threshold.
//! 2. Edges are processed strongest first (ties broken by the candidates'
//!    `(unit, name, description)`, never by input position) and two
//!    components are merged with a union-find only if
//!    * they share no unit (so two variables of one unit never end up in one
//!      cluster through a chain), and
//!    * their **average-linkage** similarity (mean cosine over all cross
//!      pairs) is still at least the threshold.
//!
//! Two candidates whose names or descriptions differ in a contrast
//! (before/after, site/road, different numbers, letters, dates, places or
//! modality; see [`contrast`](crate::compose::contrast::contrast)) are never joined, neither
//! by an edge nor through a chain, at any threshold.
//!
//! This is constrained average-linkage agglomeration restricted to the
//! graph's edges. Plain connected components were rejected because
//! single-linkage chains: `refundFee ~ refundAmount ~ refundTotal ~ ...` can
//! glue variables that are pairwise dissimilar, and a chain through two units
//! can merge two variables of one unit. The average is computed in O(dim)
//! per check from per-cluster sum vectors (embeddings are L2-normalised, so
//! `sum_A · sum_B / (|A||B|)` is the mean cross cosine).
//!
//! The result does not depend on the order of the candidates: edge order is
//! fixed by similarity and candidate content, canonical names by counts and
//! strings, and cluster order by canonical name and content.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;

use crate::compose::contrast::{Features, Named, name_key};

/// Default cosine threshold for [`cluster_variables`] with the
/// [`LexicalEmbedder`](crate::compose::embed::LexicalEmbedder) (default settings,
/// tf-idf fitted on all candidates of a document at once).
///
/// Chosen on the ~100 labelled pairs of `tests/engine/clustering.rs`, favouring
/// precision: wrongly unifying two different variables silently corrupts the
/// policy model ("maternityPay" = "paternityPay"), whereas a missed
/// unification only leaves two variables that later consistency checks and
/// human review can still spot. On that set 0.65 gives precision ≈ 0.91 and
/// recall ≈ 0.78; 0.60 gives ≈ 0.85 / 0.80, 0.70 ≈ 0.95 / 0.72. Lexical
/// similarity cannot see paraphrases with disjoint words ("isMarried" /
/// "hasSpouse"); the missed recall is mostly those. The set was also used to
/// pick the threshold (there is no held-out split), so treat the figures as
/// optimistic. A neural embedder needs its own threshold.
pub const DEFAULT_THRESHOLD: f32 = 0.65;

/// A variable proposed by the formalization of one policy unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableCandidate {
    /// Which policy unit (document span) it came from.
    pub unit: usize,
    /// Its name in that unit.
    pub name: String,
    /// Its sort: `Bool`, `Int`, `Real` or an enum type name.
    pub sort: String,
    /// Its natural-language description.
    pub description: String,
}

/// A set of candidates unified into one model variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// Indices into the candidate slice, ascending.
    pub members: Vec<usize>,
    /// The most frequent member name (ties: shortest, then alphabetical).
    /// Several clusters may share it; [`unify`] renames them apart.
    pub canonical_name: String,
    /// The common sort of all members.
    pub sort: String,
    /// The longest description among members bearing the canonical name
    /// (ties: alphabetical).
    pub description: String,
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn normalised(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter().map(|x| x / n).collect()
    } else {
        v.to_vec()
    }
}

/// Sparse form of a vector: `(index, value)` of its nonzeros, ascending.
fn sparse(v: &[f32]) -> Vec<(u32, f32)> {
    v.iter()
        .enumerate()
        .filter(|(_, x)| **x != 0.0)
        .map(|(i, x)| (i as u32, *x))
        .collect()
}

fn sparse_dot(a: &[(u32, f32)], b: &[(u32, f32)]) -> f32 {
    let (mut i, mut j, mut s) = (0, 0, 0.0f32);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                s += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    s
}

/// Content key of a candidate, used for every tie-break so that results do
/// not depend on input order.
fn key(c: &VariableCandidate) -> (usize, &str, &str, &str) {
    (
        c.unit,
        c.name.as_str(),
        c.sort.as_str(),
        c.description.as_str(),
    )
}

/// Clusters the candidates; `embeddings[i]` belongs to `candidates[i]`.
///
/// Every candidate ends up in exactly one cluster (singletons included).
/// Clusters are ordered by canonical name, then by decreasing size, then by
/// their smallest member's `(unit, name)`.
///
/// # Panics
/// If `embeddings.len() != candidates.len()`.
pub fn cluster_variables(
    candidates: &[VariableCandidate],
    embeddings: &[Vec<f32>],
    threshold: f32,
) -> Vec<Cluster> {
    assert_eq!(
        candidates.len(),
        embeddings.len(),
        "one embedding per candidate"
    );
    let n = candidates.len();
    let unit_vecs: Vec<Vec<f32>> = embeddings.iter().map(|e| normalised(e)).collect();
    let sparse_vecs: Vec<Vec<(u32, f32)>> = unit_vecs.iter().map(|v| sparse(v)).collect();
    let features: Vec<Features> = candidates
        .iter()
        .map(|c| {
            Features::of(Named {
                name: &c.name,
                description: &c.description,
            })
        })
        .collect();

    // 1. Similarity graph: same sort, different unit, cosine >= threshold.
    let mut graph: UnGraph<usize, f32> = UnGraph::with_capacity(n, 0);
    let nodes: Vec<NodeIndex> = (0..n).map(|i| graph.add_node(i)).collect();
    let mut by_sort: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, c) in candidates.iter().enumerate() {
        by_sort.entry(c.sort.as_str()).or_default().push(i);
    }
    for idx in by_sort.values() {
        for (a, &i) in idx.iter().enumerate() {
            for &j in &idx[a + 1..] {
                if candidates[i].unit == candidates[j].unit {
                    continue;
                }
                let s = sparse_dot(&sparse_vecs[i], &sparse_vecs[j]);
                if s >= threshold && features[i].contrast(&features[j]).is_none() {
                    graph.add_edge(nodes[i], nodes[j], s);
                }
            }
        }
    }

    // 2. Constrained average-linkage merging along the edges, strongest first.
    let mut edges: Vec<(usize, usize, f32)> = graph
        .edge_indices()
        .map(|e| {
            let (a, b) = graph.edge_endpoints(e).expect("edge exists");
            let (i, j) = (graph[a], graph[b]);
            let (i, j) = if key(&candidates[i]) <= key(&candidates[j]) {
                (i, j)
            } else {
                (j, i)
            };
            (i, j, graph[e])
        })
        .collect();
    edges.sort_by(|x, y| {
        y.2.total_cmp(&x.2)
            .then_with(|| key(&candidates[x.0]).cmp(&key(&candidates[y.0])))
            .then_with(|| key(&candidates[x.1]).cmp(&key(&candidates[y.1])))
    });

    let mut uf: UnionFind<usize> = UnionFind::new(n);
    // Per root: member units, sum vector, size.
    let mut units: Vec<BTreeSet<usize>> = candidates
        .iter()
        .map(|c| BTreeSet::from([c.unit]))
        .collect();
    let mut sums: Vec<Vec<f32>> = unit_vecs.clone();
    let mut sizes: Vec<usize> = vec![1; n];
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    for (i, j, _) in edges {
        let (ri, rj) = (uf.find(i), uf.find(j));
        if ri == rj || !units[ri].is_disjoint(&units[rj]) {
            continue;
        }
        if any_contrast(&features, &members[ri], &members[rj]) {
            continue;
        }
        let avg = dot(&sums[ri], &sums[rj]) / (sizes[ri] * sizes[rj]) as f32;
        if avg < threshold {
            continue;
        }
        uf.union(ri, rj);
        let root = uf.find(ri);
        let other = if root == ri { rj } else { ri };
        let moved_units = std::mem::take(&mut units[other]);
        units[root].extend(moved_units);
        let moved_sum = std::mem::take(&mut sums[other]);
        for (s, m) in sums[root].iter_mut().zip(&moved_sum) {
            *s += m;
        }
        sizes[root] += sizes[other];
        let moved_members = std::mem::take(&mut members[other]);
        members[root].extend(moved_members);
    }

    // 3. Components → clusters.
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        groups.entry(uf.find(i)).or_default().push(i);
    }
    let mut clusters: Vec<Cluster> = groups
        .into_values()
        .map(|members| make_cluster(candidates, members))
        .collect();
    clusters.sort_by(|a, b| {
        a.canonical_name
            .cmp(&b.canonical_name)
            .then_with(|| b.members.len().cmp(&a.members.len()))
            .then_with(|| min_key(candidates, a).cmp(&min_key(candidates, b)))
    });
    clusters
}

/// Whether any member of one group differs in meaning from any member of
/// the other: such groups never merge, whatever their average similarity.
fn any_contrast(features: &[Features], a: &[usize], b: &[usize]) -> bool {
    a.iter().any(|&i| {
        b.iter()
            .any(|&j| features[i].contrast(&features[j]).is_some())
    })
}

fn min_key<'a>(
    candidates: &'a [VariableCandidate],
    c: &Cluster,
) -> (usize, &'a str, &'a str, &'a str) {
    c.members
        .iter()
        .map(|&i| key(&candidates[i]))
        .min()
        .expect("clusters are non-empty")
}

fn make_cluster(candidates: &[VariableCandidate], members: Vec<usize>) -> Cluster {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in &members {
        *counts.entry(candidates[i].name.as_str()).or_default() += 1;
    }
    let canonical = counts
        .iter()
        .min_by(|(na, ca), (nb, cb)| {
            cb.cmp(ca)
                .then_with(|| na.len().cmp(&nb.len()))
                .then_with(|| na.cmp(nb))
        })
        .map(|(n, _)| n.to_string())
        .expect("clusters are non-empty");
    let description = members
        .iter()
        .map(|&i| &candidates[i])
        .filter(|c| c.name == canonical)
        .map(|c| c.description.as_str())
        .min_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)))
        .unwrap_or_default()
        .to_string();
    let sort = candidates[members[0]].sort.clone();
    Cluster {
        members,
        canonical_name: canonical,
        sort,
        description,
    }
}

/// Splits every cluster whose member names are not near-certain synonyms
/// (the same words; see [`near_certain`](crate::compose::contrast::near_certain))
/// into one cluster per group of same-word names, largest group first.
/// Returns the clusters and, for each split, the pairs `(kept, other)` of
/// resulting cluster indices that the similarity alone would have merged:
/// those merges are for the expert to decide, never silent.
pub fn split_uncertain(
    candidates: &[VariableCandidate],
    clusters: Vec<Cluster>,
) -> (Vec<Cluster>, Vec<(usize, usize)>) {
    let mut out = Vec::with_capacity(clusters.len());
    let mut proposals = Vec::new();
    for cluster in clusters {
        let mut groups: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
        for &m in &cluster.members {
            let key = name_key(&candidates[m].name);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(m),
                None => groups.push((key, vec![m])),
            }
        }
        if groups.len() == 1 {
            out.push(cluster);
            continue;
        }
        groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.1[0].cmp(&b.1[0])));
        let first = out.len();
        for (_, members) in groups {
            out.push(make_cluster(candidates, members));
        }
        for other in first + 1..out.len() {
            proposals.push((first, other));
        }
    }
    (out, proposals)
}

/// One name is one variable: clusters that share their canonical name and
/// sort (sections or spans that proposed one name and drifted in how they
/// described it) become one, unless the contrast guard marks two of their
/// members apart or one unit has a member in each (a unit's two variables
/// never become one). `proposals` (pairs of cluster indices, from
/// [`split_uncertain`]) are carried over to the joined indices.
pub fn join_same_names(
    candidates: &[VariableCandidate],
    clusters: Vec<Cluster>,
    proposals: Vec<(usize, usize)>,
) -> (Vec<Cluster>, Vec<(usize, usize)>) {
    let mut joined: Vec<Cluster> = Vec::with_capacity(clusters.len());
    let mut index_of: Vec<usize> = Vec::with_capacity(clusters.len());
    let apart = |a: &Cluster, b: &Cluster| {
        a.members.iter().any(|&i| {
            b.members.iter().any(|&j| {
                candidates[i].unit == candidates[j].unit
                    || super::contrast::contrast(
                        Named {
                            name: &candidates[i].name,
                            description: &candidates[i].description,
                        },
                        Named {
                            name: &candidates[j].name,
                            description: &candidates[j].description,
                        },
                    )
                    .is_some()
            })
        })
    };
    for cluster in clusters {
        let home = joined.iter().position(|c| {
            c.canonical_name == cluster.canonical_name
                && c.sort == cluster.sort
                && !apart(c, &cluster)
        });
        match home {
            Some(at) => {
                let mut members = joined[at].members.clone();
                members.extend(cluster.members);
                members.sort_unstable();
                joined[at] = make_cluster(candidates, members);
                index_of.push(at);
            }
            None => {
                index_of.push(joined.len());
                joined.push(cluster);
            }
        }
    }
    let mut carried: Vec<(usize, usize)> = Vec::new();
    for (a, b) in proposals {
        let pair = (index_of[a], index_of[b]);
        if pair.0 != pair.1 && !carried.contains(&pair) {
            carried.push(pair);
        }
    }
    (joined, carried)
}

/// Final, pairwise distinct names of the clusters, in cluster order: the
/// first cluster (in the order [`cluster_variables`] returns, i.e. the
/// largest) bearing a canonical name keeps it, later ones get `_2`, `_3`, …
/// (skipping any suffix that is already some cluster's name).
pub fn cluster_names(clusters: &[Cluster]) -> Vec<String> {
    let mut used: BTreeSet<String> = clusters.iter().map(|c| c.canonical_name.clone()).collect();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::with_capacity(clusters.len());
    for c in clusters {
        let base = &c.canonical_name;
        if taken.insert(base.clone()) {
            out.push(base.clone());
            continue;
        }
        let mut k = 2usize;
        let name = loop {
            let cand = format!("{base}_{k}");
            if !used.contains(&cand) && !taken.contains(&cand) {
                break cand;
            }
            k += 1;
        };
        used.insert(name.clone());
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

/// Maps every candidate's `(unit, old name)` to its unified name: its
/// cluster's canonical name, renamed apart (see [`cluster_names`]) when
/// several clusters share it.
///
/// Candidates are expected to be unique per `(unit, name)`; should a unit
/// propose the same name twice, the first cluster (in cluster order) wins.
pub fn unify(
    candidates: &[VariableCandidate],
    clusters: &[Cluster],
) -> HashMap<(usize, String), String> {
    let names = cluster_names(clusters);
    let mut map = HashMap::new();
    for (cluster, name) in clusters.iter().zip(names) {
        for &i in &cluster.members {
            let c = &candidates[i];
            map.entry((c.unit, c.name.clone()))
                .or_insert_with(|| name.clone());
        }
    }
    map
}
