//! The candidate tests derived from the cases, in order: impossible
//! probes, boundaries, the rule applying and not, MC/DC, enum values,
//! under-specified premises (chains and composites are in `chains`).

use serde::Serialize;

use super::cases::*;
use super::seed::mix;
use crate::model::CompiledModel;
use crate::smt::build::*;
use crate::smt::{Expr, Op, Sort};

pub(super) const MAX_CLAIMS_PER_VALUE: usize = 4;
/// What a candidate test probes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidateKind {
    /// A rule's guard holds: its conclusion should follow.
    AntecedentTrue,
    /// A rule's guard fails: its conclusion should not be forced.
    AntecedentFalse,
    /// One condition of a compound guard flips while it alone decides.
    Mcdc,
    /// A compared term just below, at and just above its threshold.
    Boundary,
    /// One value of an enum variable.
    EnumValue,
    /// A premise that contradicts a rule.
    Impossible,
    /// A conclusion asked with too little premise to decide it.
    Underspecified,
    /// A chain of rules: one rule's conclusion feeds the next one's guard.
    Transitive,
    /// The claim of a proved-VALID test, negated.
    Negation,
    /// Two rules applied together, both conclusions claimed.
    Composite,
}

impl CandidateKind {
    pub const ALL: [CandidateKind; 10] = [
        CandidateKind::AntecedentTrue,
        CandidateKind::AntecedentFalse,
        CandidateKind::Mcdc,
        CandidateKind::Boundary,
        CandidateKind::EnumValue,
        CandidateKind::Impossible,
        CandidateKind::Underspecified,
        CandidateKind::Transitive,
        CandidateKind::Negation,
        CandidateKind::Composite,
    ];

    /// The kind as a short title, e.g. "Boundary".
    pub fn label(self) -> &'static str {
        match self {
            CandidateKind::AntecedentTrue => "Rule applies",
            CandidateKind::AntecedentFalse => "Rule does not apply",
            CandidateKind::Mcdc => "Condition decides",
            CandidateKind::Boundary => "Boundary",
            CandidateKind::EnumValue => "Value",
            CandidateKind::Impossible => "Impossible",
            CandidateKind::Underspecified => "Under-specified",
            CandidateKind::Transitive => "Chain",
            CandidateKind::Negation => "Negation",
            CandidateKind::Composite => "Combined",
        }
    }

    /// The kind as a snake_case name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            CandidateKind::AntecedentTrue => "antecedent_true",
            CandidateKind::AntecedentFalse => "antecedent_false",
            CandidateKind::Mcdc => "mcdc",
            CandidateKind::Boundary => "boundary",
            CandidateKind::EnumValue => "enum_value",
            CandidateKind::Impossible => "impossible",
            CandidateKind::Underspecified => "underspecified",
            CandidateKind::Transitive => "transitive",
            CandidateKind::Negation => "negation",
            CandidateKind::Composite => "composite",
        }
    }

    pub(super) fn bonus(self) -> f64 {
        match self {
            CandidateKind::Boundary => 1.0,
            CandidateKind::Transitive => 0.8,
            CandidateKind::Composite => 0.6,
            CandidateKind::Mcdc => 0.5,
            CandidateKind::AntecedentTrue => 0.4,
            // Ranked below the VALID test it negates.
            CandidateKind::Negation => -0.6,
            CandidateKind::EnumValue | CandidateKind::Underspecified => 0.3,
            CandidateKind::AntecedentFalse => 0.1,
            // IMPOSSIBLE by construction: confirms a rule, surprises nobody.
            CandidateKind::Impossible => -0.5,
        }
    }
}

impl std::fmt::Display for CandidateKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A premise and claim worth asking, before the solver has decided them.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// As written (printed canonically; not elaborated).
    pub premise: Expr,
    pub claim: Expr,
    pub kind: CandidateKind,
    /// What the candidate was built to probe, before the solver decides it.
    /// Never shown as a test's explanation: that is written from the proved
    /// finding ([`super::explain::explanation`]).
    pub rationale: String,
    /// The rules the candidate targets.
    pub rules: Vec<String>,
}

pub(super) struct Builder<'a> {
    pub(super) model: &'a CompiledModel,
    pub(super) out: Vec<Candidate>,
}

impl Builder<'_> {
    pub(super) fn push(
        &mut self,
        kind: CandidateKind,
        premise: Expr,
        claim: Expr,
        rules: &[&str],
        rationale: String,
    ) {
        let mut targets: Vec<String> = Vec::new();
        for rule in rules {
            if !targets.iter().any(|t| t == rule) {
                targets.push(rule.to_string());
            }
        }
        self.out.push(Candidate {
            premise: and_of([premise]),
            claim,
            kind,
            rationale,
            rules: targets,
        });
    }
}

/// The rule applying (its guard, or nothing for a fact) and not applying
/// (its guard negated), for every case.
pub(super) fn applies_and_not(b: &mut Builder, cases: &[Case]) {
    for case in cases {
        let rule = case.rule.as_str();
        let rationale = if case.guard.is_empty() {
            format!("{rule} always holds")
        } else {
            format!("{rule} applies: its conditions hold, so its conclusion must follow")
        };
        b.push(
            CandidateKind::AntecedentTrue,
            case.antecedent(),
            case.conclusion.clone(),
            &[rule],
            rationale,
        );
    }
    for case in cases.iter().filter(|c| !c.guard.is_empty()) {
        b.push(
            CandidateKind::AntecedentFalse,
            not_all(&case.guard),
            case.conclusion.clone(),
            &[&case.rule],
            format!(
                "{} does not apply: its conditions fail, so it does not force its conclusion",
                case.rule
            ),
        );
    }
}

pub(super) fn impossible_probes(b: &mut Builder, cases: &[Case]) {
    for case in cases {
        let rule = case.rule.as_str();
        if case.guard.is_empty() {
            b.push(
                CandidateKind::Impossible,
                not_of(&case.conclusion),
                case.conclusion.clone(),
                &[rule],
                format!("denies {rule}, which always holds"),
            );
        } else {
            let mut premise = case.guard.clone();
            premise.push(not_of(&case.conclusion));
            b.push(
                CandidateKind::Impossible,
                and_of(premise),
                case.conclusion.clone(),
                &[rule],
                format!("{rule}'s conditions hold but its conclusion fails"),
            );
        }
    }
}

pub(super) fn boundaries(b: &mut Builder, cases: &[Case], seed: u64) {
    for case in cases {
        let rule = case.rule.as_str();
        if case.guard.is_empty() {
            // A fact's own thresholds: the claim is the compared condition.
            let mut found = Vec::new();
            atoms(&case.conclusion, &[], &mut found);
            for atom in found {
                let Some(threshold) = threshold_of(b.model, &atom.atom) else {
                    continue;
                };
                for (label, point) in boundary_points(&threshold, seed) {
                    b.push(
                        CandidateKind::Boundary,
                        point,
                        atom.atom.clone(),
                        &[rule],
                        format!("boundary of {rule} at {} {label}", threshold.subject),
                    );
                }
            }
            continue;
        }
        for atom in guard_atoms(&case.guard) {
            let Some(threshold) = threshold_of(b.model, &atom.atom) else {
                continue;
            };
            for (label, point) in boundary_points(&threshold, seed) {
                let mut premise = atom.context.clone();
                premise.push(point);
                b.push(
                    CandidateKind::Boundary,
                    and_of(premise),
                    case.conclusion.clone(),
                    &[rule],
                    format!(
                        "boundary of {rule} at {} {label}, its other conditions holding",
                        threshold.subject
                    ),
                );
            }
        }
    }
}

pub(super) fn mcdc(b: &mut Builder, cases: &[Case]) {
    for case in cases {
        let found = guard_atoms(&case.guard);
        if found.len() < 2 {
            continue;
        }
        let rule = case.rule.as_str();
        for atom in &found {
            for (holds, value) in [(true, atom.atom.clone()), (false, not_of(&atom.atom))] {
                let mut premise = atom.context.clone();
                premise.push(value);
                b.push(
                    CandidateKind::Mcdc,
                    and_of(premise),
                    case.conclusion.clone(),
                    &[rule],
                    format!(
                        "{rule}: the condition {} is {} while it alone decides",
                        atom.atom,
                        if holds { "true" } else { "false" }
                    ),
                );
            }
        }
    }
}

pub(super) fn enum_values(b: &mut Builder, cases: &[Case]) {
    let model = b.model;
    for (variable, sort) in &model.variables {
        let Sort::Enum(type_name) = sort else {
            continue;
        };
        let used = cases.iter().any(|c| {
            c.guard
                .iter()
                .any(|g| g.symbols().contains(&variable.as_str()))
                || c.conclusion.symbols().contains(&variable.as_str())
        });
        if !used {
            continue;
        }
        let values = model
            .enums
            .iter()
            .find(|(name, _)| name == type_name)
            .map(|(_, values)| values.clone())
            .unwrap_or_default();
        for value in values {
            let mentions =
                |case: &&Case, name: &str| case.guard.iter().any(|g| g.symbols().contains(&name));
            let mut relevant: Vec<&Case> = cases
                .iter()
                .filter(|c| mentions(c, variable) && mentions(c, &value))
                .collect();
            if relevant.is_empty() {
                relevant = cases.iter().filter(|c| mentions(c, variable)).collect();
            }
            let mut claims: Vec<&Expr> = Vec::new();
            for case in relevant {
                if claims.len() >= MAX_CLAIMS_PER_VALUE {
                    break;
                }
                if claims.contains(&&case.conclusion) {
                    continue;
                }
                claims.push(&case.conclusion);
                b.push(
                    CandidateKind::EnumValue,
                    app(Op::Eq, vec![Expr::symbol(variable), Expr::symbol(&value)]),
                    case.conclusion.clone(),
                    &[&case.rule],
                    format!(
                        "{variable} = {value}: what {} says for this value",
                        case.rule
                    ),
                );
            }
        }
    }
}

pub(super) fn underspecified(b: &mut Builder, cases: &[Case]) {
    for case in cases.iter().filter(|c| !c.guard.is_empty()) {
        let rule = case.rule.as_str();
        b.push(
            CandidateKind::Underspecified,
            truth(),
            case.conclusion.clone(),
            &[rule],
            format!("{rule}'s conclusion with no premise: the scenarios show what decides it"),
        );
        if case.guard.len() >= 2 {
            b.push(
                CandidateKind::Underspecified,
                case.guard[0].clone(),
                case.conclusion.clone(),
                &[rule],
                format!(
                    "{rule}'s conclusion with only its first condition: the scenarios show what else is needed"
                ),
            );
        }
    }
}

/// Rotates `items` by the seed and keeps `cap` of them, in their original order.
pub(super) fn capped<T>(items: Vec<T>, cap: usize, seed: u64) -> Vec<T> {
    if items.len() <= cap {
        return items;
    }
    let len = items.len();
    let start = (mix(seed, 0x5eed) % len as u64) as usize;
    let mut keep = vec![false; len];
    for i in 0..cap {
        keep[(start + i * len / cap) % len] = true;
    }
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(item, k)| k.then_some(item))
        .collect()
}
