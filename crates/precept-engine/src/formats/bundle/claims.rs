//! The queries behind one finding. For premise P, claim C and rules M:
//! M ∧ P (IMPOSSIBLE when unsat), M ∧ P ∧ ¬C (VALID when unsat) and
//! M ∧ P ∧ C (INVALID when unsat); for VALID, INVALID and IMPOSSIBLE the
//! minimal rule set of the evidence alone, which must be unsat too.

use super::query::{Answer, ClaimUse, Query, query_text};
use crate::model::CompiledModel;
use crate::model::finding::{Finding, FindingKind};
use crate::model::graph::RuleGraph;
use crate::smt::Expr;
use std::collections::BTreeSet;

/// One query file: its name inside `queries/`, its text and its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryFile {
    pub name: String,
    pub text: String,
    pub expected: Answer,
}

/// Which rules a claim's queries carry.
pub enum Scope<'a> {
    /// Every rule: the model is inconsistent (or its consistency unknown),
    /// so no part of it may be left out.
    WholeModel,
    /// The rules that share variables, directly or through other rules,
    /// with the premise and claim. Sound because the model is consistent:
    /// the rules left out mention none of these variables, and they can
    /// always be satisfied together.
    Connected(&'a RuleGraph),
}

/// The question of one finding, as the bundle writes it.
pub struct Claim<'a> {
    /// The file stem, e.g. `T3` or `NL2.pair1`.
    pub stem: &'a str,
    /// Who asks, for the comments: `test T3 "…"`.
    pub label: &'a str,
    pub premise: &'a Expr,
    pub claim: &'a Expr,
    pub finding: &'a Finding,
}

/// The query files behind `claim`'s finding; none for a finding a solver
/// cannot be asked to confirm (TOO_COMPLEX and the translation findings).
pub fn claim_queries(compiled: &CompiledModel, scope: &Scope, claim: &Claim) -> Vec<QueryFile> {
    let kind = claim.finding.kind;
    let (premise_only, with_claim, with_negation) = match kind {
        FindingKind::Impossible => (true, true, true),
        FindingKind::Valid => (false, false, true),
        FindingKind::Invalid => (false, true, false),
        FindingKind::Satisfiable => (false, false, false),
        _ => return Vec::new(),
    };
    let symbols: Vec<&str> = claim
        .premise
        .symbols()
        .into_iter()
        .chain(claim.claim.symbols())
        .collect();
    let (rules, variables): (Vec<usize>, BTreeSet<String>) = match scope {
        Scope::WholeModel => (
            (0..compiled.rules.len()).collect(),
            compiled.variables.iter().map(|(n, _)| n.clone()).collect(),
        ),
        Scope::Connected(graph) => (
            graph.rules_touching(symbols.iter().copied()),
            graph.cone_variables(symbols.iter().copied()),
        ),
    };
    let part = match scope {
        Scope::WholeModel => "all rules",
        Scope::Connected(_) => "the rules connected to the question",
    };
    let mut files = Vec::new();
    let mut add = |suffix: &str, purpose: String, rules: Vec<usize>, claim_use, unsat: bool| {
        let query = Query {
            purpose: format!("{}: {purpose}", claim.label),
            rules,
            premise: claim.premise,
            claim: claim.claim,
            claim_use,
            expected: Answer::from_unsat(unsat),
        };
        files.push(QueryFile {
            name: format!("{}.{suffix}.smt2", claim.stem),
            text: query_text(compiled, &variables, &query),
            expected: query.expected,
        });
    };
    add(
        "premise",
        format!("{part} and the premise (unsat means IMPOSSIBLE)"),
        rules.clone(),
        ClaimUse::Absent,
        premise_only,
    );
    add(
        "not-claim",
        format!("{part}, the premise and the claim negated (unsat means the claim follows)"),
        rules.clone(),
        ClaimUse::Negated,
        with_negation,
    );
    add(
        "claim",
        format!("{part}, the premise and the claim (unsat means the claim is refuted)"),
        rules,
        ClaimUse::Asserted,
        with_claim,
    );
    let evidence: Vec<usize> = claim
        .finding
        .rules()
        .iter()
        .filter_map(|id| compiled.rules.iter().position(|r| &r.id == id))
        .collect();
    let listed = claim.finding.rules().join(" ");
    match kind {
        FindingKind::Valid => add(
            "evidence",
            format!(
                "only the supporting rules ({listed}) with the premise and the claim negated: they alone suffice"
            ),
            evidence,
            ClaimUse::Negated,
            true,
        ),
        FindingKind::Invalid => add(
            "evidence",
            format!(
                "only the contradicting rules ({listed}) with the premise and the claim: they alone refute it"
            ),
            evidence,
            ClaimUse::Asserted,
            true,
        ),
        FindingKind::Impossible => add(
            "evidence",
            format!(
                "only the contradicting rules ({listed}) with the premise: they alone contradict it"
            ),
            evidence,
            ClaimUse::Absent,
            true,
        ),
        _ => {}
    }
    files
}
