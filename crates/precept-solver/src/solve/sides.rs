//! A question's two sides decided apart, so that two workers can each take
//! one (`Scheduler::verify` in the engine): the rules and the premise with the claim's
//! negation, and with the claim. Each side is answered by a scenario where
//! it holds or by a minimal set of rules with which it cannot, and the two
//! answers make the finding the whole verify gives (`join_sides`): the same
//! kind, warnings and rule sets proved minimal.

use super::error::SolveError;
use super::session::{Interruption, SolverSession};
use crate::model::finding::{Finding, FindingKind, KnownSide, KnownSides, LogicWarning, Scenario};
use crate::smt::Expr;

/// One side of a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The rules, the premise and the claim's negation: refuted, the claim
    /// is VALID.
    ClaimFalse,
    /// The rules, the premise and the claim: refuted, the claim is INVALID.
    ClaimTrue,
}

/// One side of a question checked, inside the session: a scenario where
/// it holds, or the rules (by position) of an unsat core where it cannot,
/// `minimal` when that is proved.
pub(super) enum SideResult {
    Holds(Scenario),
    Refuted { core: Vec<usize>, minimal: bool },
}

/// What one side's checks proved.
#[derive(Debug, Clone, PartialEq)]
pub enum SideAnswer {
    /// A scenario where the side holds.
    Holds(Scenario),
    /// The rules (by id, in natural order) with which the side cannot
    /// hold; `minimal` when no rule of them can go.
    Refuted { rules: Vec<String>, minimal: bool },
    /// The rules contradict each other: every question is IMPOSSIBLE, and
    /// the whole verify finds the rules that conflict.
    PolicyInconsistent,
    /// The solver gave up (or was stopped), for this reason.
    Undecided(String),
}

/// One side answered, with the logic warnings of the question when this
/// side looked for them (the claim-false side does).
#[derive(Debug, Clone, PartialEq)]
pub struct SideVerdict {
    pub side: Side,
    pub answer: SideAnswer,
    pub warnings: Vec<LogicWarning>,
}

impl SolverSession {
    /// Decides one side of the question: in the same cone solver, with the
    /// same guards and preferences as `verify`, a refuted side's rules
    /// minimized the same way.
    pub fn verify_side(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        side: Side,
        interruption: &dyn Interruption,
    ) -> SideVerdict {
        let (answer, warnings) = self
            .decide_one_side(premise, claim, side, interruption)
            .unwrap_or_else(|reason| (SideAnswer::Undecided(reason.to_string()), Vec::new()));
        SideVerdict {
            side,
            answer,
            warnings,
        }
    }

    fn decide_one_side(
        &mut self,
        premise: &Expr,
        claim: &Expr,
        side: Side,
        interruption: &dyn Interruption,
    ) -> Result<(SideAnswer, Vec<LogicWarning>), SolveError> {
        let scope = self.scoped(premise, claim, interruption)?;
        if scope.consistency == Some(false) {
            return Ok((SideAnswer::PolicyInconsistent, Vec::new()));
        }
        let warnings = match side {
            Side::ClaimFalse => self.logic_warnings(premise, claim, interruption)?,
            Side::ClaimTrue => Vec::new(),
        };
        let answer = self.in_cone(&scope.rules, |session| {
            let asked = session.ask(premise, claim, &scope)?;
            let decided =
                session.decide_side(&asked, side, &scope, &mut Vec::new(), interruption)?;
            Ok::<_, SolveError>(match decided {
                SideResult::Holds(scenario) => SideAnswer::Holds(scenario),
                SideResult::Refuted { core, minimal } => {
                    let (rules, proved) =
                        session.minimal_core(&asked, side, core, minimal, interruption)?;
                    SideAnswer::Refuted {
                        rules: session.rule_names(&rules),
                        minimal: proved,
                    }
                }
            })
        })?;
        Ok((answer, warnings))
    }
}

/// The finding the two sides' answers prove, as the whole verify gives it;
/// None when they leave it to the whole verify: both sides refuted
/// (IMPOSSIBLE, whose rules are those that refute the premise alone), or
/// the rules contradicting each other.
pub fn join_sides(
    premise: &Expr,
    claim: &Expr,
    claim_false: &SideVerdict,
    claim_true: &SideVerdict,
) -> Option<Finding> {
    let (premise, claim) = (premise.to_string(), claim.to_string());
    let mut finding = Finding::new(FindingKind::Satisfiable, &premise, &claim);
    match (&claim_false.answer, &claim_true.answer) {
        (SideAnswer::Undecided(reason), _) | (_, SideAnswer::Undecided(reason)) => {
            return Some(Finding::too_complex(&premise, &claim, reason.clone()));
        }
        (SideAnswer::PolicyInconsistent, _) | (_, SideAnswer::PolicyInconsistent) => return None,
        (SideAnswer::Refuted { .. }, SideAnswer::Refuted { .. }) => return None,
        (SideAnswer::Refuted { rules, minimal }, SideAnswer::Holds(scenario)) => {
            finding.kind = FindingKind::Valid;
            finding.supporting_rules = rules.clone();
            finding.rules_minimal = *minimal;
            finding.claims_true_scenario = Some(scenario.clone());
        }
        (SideAnswer::Holds(scenario), SideAnswer::Refuted { rules, minimal }) => {
            finding.kind = FindingKind::Invalid;
            finding.contradicting_rules = rules.clone();
            finding.rules_minimal = *minimal;
            finding.claims_false_scenario = Some(scenario.clone());
        }
        (SideAnswer::Holds(claim_fails), SideAnswer::Holds(claim_holds)) => {
            finding.claims_true_scenario = Some(claim_holds.clone());
            finding.claims_false_scenario = Some(claim_fails.clone());
        }
    }
    finding.warnings = claim_false
        .warnings
        .iter()
        .chain(&claim_true.warnings)
        .copied()
        .collect();
    Some(finding)
}

/// What the two sides proved, for the whole verify to take as known
/// (`verify_knowing`): scenarios, and rule sets proved minimal.
pub fn known_from_sides(claim_false: &SideVerdict, claim_true: &SideVerdict) -> KnownSides {
    let known = |verdict: &SideVerdict| match &verdict.answer {
        SideAnswer::Holds(scenario) => Some(KnownSide::Holds(scenario.clone())),
        SideAnswer::Refuted {
            rules,
            minimal: true,
        } => Some(KnownSide::Refuted(rules.clone())),
        _ => None,
    };
    KnownSides {
        claim_true: known(claim_true),
        claim_false: known(claim_false),
    }
}
