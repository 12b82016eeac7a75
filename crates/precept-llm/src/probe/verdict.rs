//! What an answer commits to, and its verdict. The answer verifier
//! translates the question and answer into premise–claim pairs and decides
//! each against the model; here the solver (without the rules) decides
//! which pairs apply to the question's facts and whether what they claim
//! settles the question's claim one way or the other (the answer's
//! *stance*). The verdict compares that with the proved answer.

use super::{Expected, Verdict};
use crate::answer::AnswerReport;
use crate::model::CompiledModel;
use crate::smt::Expr;
use crate::smt::build::{and_of, not_of};
use crate::solve::{FindingKind, FormulaQuery, Satisfiability, SolverWorker};

/// How an answer settles the question's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stance {
    Yes,
    No,
    /// It does not settle it (it hedges, or says something else).
    Open,
}

impl Stance {
    pub fn opposite(self) -> Stance {
        match self {
            Stance::Yes => Stance::No,
            Stance::No => Stance::Yes,
            Stance::Open => Stance::Open,
        }
    }
}

/// The judgement of one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    pub verdict: Verdict,
    /// None when the answer could not be translated.
    pub stance: Option<Stance>,
    /// The verifier's aggregate finding, or why there is none.
    pub finding: String,
    /// Why the verdict, for a reader.
    pub detail: String,
    /// What the answer claims about the question's situation (the claims of
    /// its confident pairs that apply to the facts): what follow-ups build on.
    pub commitments: Vec<Expr>,
}

impl Assessment {
    /// An answer the verifier could not judge.
    pub fn untranslatable(finding: impl Into<String>, detail: impl Into<String>) -> Assessment {
        Assessment {
            verdict: Verdict::Untranslatable,
            stance: None,
            finding: finding.into(),
            detail: detail.into(),
            commitments: Vec::new(),
        }
    }
}

/// Judges `report` (the verifier's on the question and answer) against the
/// question's `facts`, `claim` and proved `expected` answer.
pub fn assess(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    facts: &Expr,
    claim: &Expr,
    expected: &Expected,
    report: &AnswerReport,
) -> Assessment {
    let finding = report.finding.to_string();
    if contradicts_the_facts(worker, compiled, facts, report) {
        return Assessment {
            verdict: Verdict::Hallucination,
            stance: None,
            finding,
            detail: "it contradicts the question's own facts".into(),
            commitments: Vec::new(),
        };
    }
    if matches!(
        report.finding,
        FindingKind::NoTranslations | FindingKind::TranslationAmbiguous | FindingKind::TooComplex
    ) {
        let reason = report.reason.clone().unwrap_or_else(|| finding.clone());
        return Assessment::untranslatable(finding, reason);
    }
    let confident: Vec<_> = report
        .pairs
        .iter()
        .filter(|p| {
            matches!(
                p.finding,
                FindingKind::Valid
                    | FindingKind::Invalid
                    | FindingKind::Satisfiable
                    | FindingKind::Impossible
            )
        })
        .collect();
    let mut commitments = Vec::new();
    let mut stance = Stance::Open;
    for pair in &confident {
        let (Ok((_, premise)), Ok((_, said))) = (
            compiled.check_formula(&pair.premise),
            compiled.check_formula(&pair.claim),
        ) else {
            continue;
        };
        let applies = unsat(worker, and_of([facts.clone(), not_of(&premise)]));
        if !applies {
            continue;
        }
        commitments.push(said.clone());
        if stance != Stance::Open {
            continue;
        }
        let given = and_of([facts.clone(), said.clone()]);
        if unsat(worker, and_of([given.clone(), not_of(claim)])) {
            stance = Stance::Yes;
        } else if unsat(worker, and_of([given, claim.clone()])) {
            stance = Stance::No;
        }
    }
    let contradicted: Vec<String> = confident
        .iter()
        .filter(|p| matches!(p.finding, FindingKind::Invalid | FindingKind::Impossible))
        .flat_map(|p| p.evidence.rules().to_vec())
        .collect();
    let (verdict, detail) = if !contradicted.is_empty() {
        (
            Verdict::Hallucination,
            format!("the model contradicts it ({})", contradicted.join(", ")),
        )
    } else {
        judge(expected, stance)
    };
    Assessment {
        verdict,
        stance: Some(stance),
        finding,
        detail,
        commitments,
    }
}

/// An answer that claims, of the facts as given, something the facts
/// themselves rule out (no rule needed) is a hallucination, even though
/// the verifier cannot call such a translation confident (its premise and
/// claim cannot hold together).
fn contradicts_the_facts(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    facts: &Expr,
    report: &AnswerReport,
) -> bool {
    if report.finding != FindingKind::TranslationAmbiguous || unsat(worker, facts.clone()) {
        return false;
    }
    report.pairs.iter().any(|pair| {
        let (Ok((_, premise)), Ok((_, said))) = (
            compiled.check_formula(&pair.premise),
            compiled.check_formula(&pair.claim),
        ) else {
            return false;
        };
        unsat(worker, and_of([facts.clone(), not_of(&premise)]))
            && unsat(worker, and_of([facts.clone(), said]))
    })
}

/// The verdict of an answer whose pairs the model does not contradict.
pub fn judge(expected: &Expected, stance: Stance) -> (Verdict, String) {
    match (expected, stance) {
        (Expected::Depends { .. }, Stance::Open) => (Verdict::Correct, "it leaves it open".into()),
        (Expected::Depends { .. }, _) => (
            Verdict::Incomplete,
            format!("it decides what the policy leaves open ({expected})"),
        ),
        (_, Stance::Open) => (
            Verdict::Incomplete,
            format!("it hedges where the policy decides ({expected})"),
        ),
        (Expected::Yes | Expected::Value { .. }, Stance::Yes) | (Expected::No, Stance::No) => {
            (Verdict::Correct, "it agrees with the proved answer".into())
        }
        _ => (
            Verdict::Hallucination,
            format!("it contradicts the proved answer ({expected})"),
        ),
    }
}

/// Whether `formula` has no satisfying assignment, the rules aside.
fn unsat(worker: &SolverWorker, formula: Expr) -> bool {
    matches!(
        worker
            .check_formulas(vec![FormulaQuery::new(formula)])
            .first(),
        Some(Satisfiability::Unsatisfiable)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_compare_the_stance_with_the_proved_answer() {
        let depends = Expected::Depends {
            on: vec!["ageClass".into()],
        };
        let value = Expected::Value {
            variable: "fee".into(),
            value: "10.0".into(),
        };
        let cases = [
            (Expected::Yes, Stance::Yes, Verdict::Correct),
            (Expected::Yes, Stance::No, Verdict::Hallucination),
            (Expected::Yes, Stance::Open, Verdict::Incomplete),
            (Expected::No, Stance::No, Verdict::Correct),
            (Expected::No, Stance::Yes, Verdict::Hallucination),
            (value.clone(), Stance::Yes, Verdict::Correct),
            (value, Stance::No, Verdict::Hallucination),
            (depends.clone(), Stance::Open, Verdict::Correct),
            (depends.clone(), Stance::Yes, Verdict::Incomplete),
            (depends, Stance::No, Verdict::Incomplete),
        ];
        for (expected, stance, verdict) in cases {
            assert_eq!(
                judge(&expected, stance).0,
                verdict,
                "{expected} / {stance:?}"
            );
        }
        assert_eq!(Stance::Yes.opposite(), Stance::No);
        assert_eq!(Stance::Open.opposite(), Stance::Open);
    }
}
