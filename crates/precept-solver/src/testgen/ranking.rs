//! Ranking decided tests: a base score by finding and kind, then a greedy
//! pick with coverage, variety and diversity bonuses, ties broken by a
//! seeded hash.

use std::collections::{HashMap, HashSet};

use crate::solve::FindingKind;

use super::budget::{Decided, key};
use super::candidates::CandidateKind;
use super::seed::{fnv, mix};

pub(super) fn base_score(d: &Decided, facts: &HashSet<String>) -> f64 {
    let kind = d.candidate.kind;
    // About rules that hold unconditionally: restating a fact teaches little.
    let about_facts =
        !d.candidate.rules.is_empty() && d.candidate.rules.iter().all(|r| facts.contains(r));
    let restated = match kind {
        _ if !about_facts => 0.0,
        CandidateKind::AntecedentTrue | CandidateKind::Impossible | CandidateKind::Negation => 1.0,
        CandidateKind::Boundary => 0.5,
        _ => 0.0,
    };
    let finding = match d.finding.kind {
        FindingKind::Impossible => 3.0,
        FindingKind::Invalid => 2.5,
        FindingKind::Valid => 2.0,
        _ => 1.2,
    };
    // A rule that can never apply, or two rules in conflict (stepping
    // outside a fact's range is IMPOSSIBLE as expected, no surprise).
    let surprise = d.finding.kind == FindingKind::Impossible
        && kind != CandidateKind::Impossible
        && !about_facts;
    let surprise = if surprise { 1.0 } else { 0.0 };
    let evidence = 0.15 * d.finding.rules().len().min(4) as f64;
    let warnings = d.finding.warnings.len() as f64;
    finding + kind.bonus() + surprise + evidence - warnings - restated
}

/// Greedy coverage order (see the module docs); at most `max` picks.
pub(super) fn rank(
    decided: Vec<Decided>,
    facts: &HashSet<String>,
    max: usize,
    seed: u64,
) -> Vec<(Decided, f64)> {
    let base: Vec<f64> = decided.iter().map(|d| base_score(d, facts)).collect();
    let ties: Vec<u64> = decided
        .iter()
        .map(|d| mix(seed, fnv(&key(&d.premise, &d.claim))))
        .collect();
    let mut remaining: Vec<usize> = (0..decided.len()).collect();
    let mut covered: HashSet<&str> = HashSet::new();
    let mut aimed: HashMap<(CandidateKind, &str), usize> = HashMap::new();
    let mut kinds: HashSet<CandidateKind> = HashSet::new();
    let mut finding_kinds: HashSet<FindingKind> = HashSet::new();
    let mut order = Vec::new();
    while order.len() < max && !remaining.is_empty() {
        let score = |i: usize| -> f64 {
            let d = &decided[i];
            let new = d
                .finding
                .rules()
                .iter()
                .filter(|r| !covered.contains(r.as_str()))
                .count();
            let coverage = if new == 0 {
                0.0
            } else {
                2.0 + 0.1 * (new - 1).min(3) as f64
            };
            let primary = d.candidate.rules.first().map_or("", String::as_str);
            let repeats = aimed
                .get(&(d.candidate.kind, primary))
                .copied()
                .unwrap_or(0);
            let first_of_kind = if kinds.contains(&d.candidate.kind) {
                0.0
            } else {
                1.0
            };
            let first_of_finding = if finding_kinds.contains(&d.finding.kind) {
                0.0
            } else {
                0.5
            };
            base[i] + coverage + first_of_kind + first_of_finding - 0.25 * repeats as f64
        };
        let mut best = 0;
        let mut best_score = score(remaining[0]);
        for (at, &i) in remaining.iter().enumerate().skip(1) {
            let s = score(i);
            let j = remaining[best];
            let better = s > best_score || (s == best_score && (ties[i], i) < (ties[j], j));
            if better {
                best = at;
                best_score = s;
            }
        }
        let chosen = remaining.remove(best);
        let d = &decided[chosen];
        covered.extend(d.finding.rules().iter().map(String::as_str));
        kinds.insert(d.candidate.kind);
        finding_kinds.insert(d.finding.kind);
        let primary = d.candidate.rules.first().map_or("", String::as_str);
        *aimed.entry((d.candidate.kind, primary)).or_insert(0) += 1;
        order.push((chosen, best_score));
    }
    let mut slots: Vec<Option<Decided>> = decided.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|(i, score)| slots[i].take().map(|d| (d, score)))
        .collect()
}
