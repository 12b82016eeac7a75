//! Symbolic test generation: premise/claim pairs derived from the rules'
//! structure, each decided by the solver, so a generated test's finding is
//! *proved*, not guessed (ARC §3.1 "symbolic test generation"; HalluVault
//! §4.2 reasoning rules for multi-step cases).
//!
//! # Candidates
//!
//! Every rule is first split into *cases*: a guard (a list of conditions)
//! and a conclusion. `(=> A1 .. An C)` is one case; a definition by cases
//! `(= x (ite c a b))` gives `c ⇒ (= x a)` and `¬c ⇒ (= x b)`; a Boolean
//! equivalence `(= p body)` gives `body ⇒ p` and `¬body ⇒ ¬p`; a top-level
//! `(and ..)` splits into its parts; anything else is a fact (empty guard).
//! From the cases, [`candidates`] derives, in this order (the first of two
//! candidates with the same premise and claim is the one kept):
//!
//! | kind | premise | claim | usually |
//! |---|---|---|---|
//! | [`CandidateKind::Impossible`] | a case's guard with its conclusion negated, or a negated fact | the conclusion | IMPOSSIBLE |
//! | [`CandidateKind::Boundary`] | the guard's other conditions, with a compared term one step below, at and above its threshold | the conclusion | flips at the threshold |
//! | [`CandidateKind::AntecedentTrue`] | the guard (empty for a fact) | the conclusion | VALID |
//! | [`CandidateKind::AntecedentFalse`] | the guard negated | the conclusion | SATISFIABLE |
//! | [`CandidateKind::Mcdc`] | one condition of a compound guard true and false, the others held where it decides | the conclusion | VALID / SATISFIABLE |
//! | [`CandidateKind::EnumValue`] | `(= var VALUE)` for each value of each enum variable in the rules | the conclusions of the rules mentioning that value | any |
//! | [`CandidateKind::Underspecified`] | empty, or only the first condition of the guard | the conclusion | SATISFIABLE |
//! | [`CandidateKind::Transitive`] | the guard of r1 plus the conditions of r2 (and r3) that r1's conclusion does not decide | r2's (r3's) conclusion | VALID |
//! | [`CandidateKind::Composite`] | two related guards together | both conclusions | VALID / IMPOSSIBLE |
//!
//! [`generate`] adds one more kind once findings are known:
//! [`CandidateKind::Negation`], the claim of every proved-VALID test negated
//! (which is then INVALID by construction).
//!
//! Boundaries: for each comparison of a term with a constant or another
//! term (`(>= delayHours 5.0)`, `(<= requestDay (+ departureDay 90))`) the
//! term is set one step below, at and above (Int: ±1; Real: see the seed);
//! for a fact the claim is the compared condition itself.
//!
//! Transitive chains follow the rule↔variable graph ([`RuleGraph`]): r1 → r2
//! when r1's conclusion decides a variable r2 reads (the `x` of `(= x ..)`,
//! the `p` of `p` / `(not p)`; r2's guard, or a definition's right-hand
//! side, so definitions can carry a chain), up to three rules, first and
//! last guarded. Composite pairs are guarded cases of different rules that
//! conclude about a shared variable and whose guards do not plainly exclude
//! each other; when their conclusions are opposite, the claim is the first
//! conclusion and the question is whether both rules can apply at once.
//!
//! # Deduplication
//!
//! A premise and claim (canonical SMT-LIB) is asked once. TOO_COMPLEX
//! findings are dropped, and so are premises that are false on their own
//! (the solver's logic warning). Of tests of one kind with the same claim,
//! finding and justifying rules, only the first is kept.

//! # Budget
//!
//! The solver answers at most max(600, 8 × `max`) questions per generation
//! (about 3 ms each on the samples, far more on large connected models).
//! When a model has more candidates, they are taken round-robin over the
//! rules they target (boundaries first, impossible probes late), so every
//! rule gets its first candidates before any rule gets more; the negations
//! share the budget. Candidates are sent back into their original order
//! before solving, so the kept set is all that the budget changes.
//!
//! # The seed
//!
//! Generation is deterministic for a model and a seed. The seed does three
//! things, nothing else: `seed % 2` picks the Real boundary step (0: `10^-k`
//! with k = max(2, decimals of the threshold), e.g. 0.01 for money; 1: ten
//! times finer); when a model has more transitive chains or composite pairs
//! than the caps below, the seed rotates which ones are taken; and it salts
//! the hash that breaks ties between equally ranked tests.
//!
//! # Ranking
//!
//! Each decided test gets a base score: by finding (IMPOSSIBLE 3, INVALID
//! 2.5, VALID 2, SATISFIABLE 1.2), by kind (boundary +1, transitive +0.8,
//! composite +0.6, MC/DC +0.5, rule applies +0.4, value and under-specified
//! +0.3, rule does not apply +0.1, impossible probe −0.5, negation −0.6 so
//! it follows the VALID test it negates), +1 for a *surprise* (an IMPOSSIBLE
//! from a candidate not built to be impossible: a rule that can never apply
//! or two rules that conflict), +0.15 per justifying rule (up to 4), −1 per
//! logic warning, and −1 (−0.5 for a boundary) when the candidate only
//! restates rules that hold unconditionally. Tests are then picked greedily:
//! the next is the one with the highest base score plus a coverage bonus
//! (+2 when its finding cites a rule no earlier pick cites, +0.1 per further
//! new rule, up to 3), a variety bonus (+1 for the first test of its kind,
//! +0.5 for the first with its finding), minus a diversity
//! penalty (−0.25 per earlier pick of the same kind aimed at the same rule).
//! Ties go to the lower seeded hash of the premise and claim, then to the
//! earlier candidate. The recorded `score` is the one the test was picked with.

use std::collections::HashSet;

use serde::Serialize;

use crate::model::{CompiledModel, LogicTest, TestStatus};
use crate::solve::{Finding, FindingKind, SolverWorker};

use super::budget::*;
use super::candidates::{
    Builder, applies_and_not, boundaries, enum_values, impossible_probes, mcdc, underspecified,
};
pub use super::candidates::{Candidate, CandidateKind};
use super::cases::cases_of;
use super::chains::{composite, transitive};
pub use super::explain::{
    accept_impossible_warning, explanation, explanation_of_current, test_name,
};
use super::ranking::rank;
use crate::smt::build::not_of;

/// Every candidate for `model`, in a fixed order (see the module docs).
pub fn candidates(model: &CompiledModel, seed: u64) -> Vec<Candidate> {
    let cases = cases_of(model);
    let mut b = Builder {
        model,
        out: Vec::new(),
    };
    impossible_probes(&mut b, &cases);
    boundaries(&mut b, &cases, seed);
    applies_and_not(&mut b, &cases);
    mcdc(&mut b, &cases);
    enum_values(&mut b, &cases);
    underspecified(&mut b, &cases);
    transitive(&mut b, &cases, seed);
    composite(&mut b, &cases, seed);
    b.out
}

/// Why a generated test cannot be rejected with a given expected finding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RejectError {
    #[error("{0} was written by hand, not generated; edit its expected finding instead")]
    WrittenByHand(String),
    #[error("{0} is not a generated test")]
    NotGenerated(String),
    #[error("{test} was proved {proved}; expecting {proved} is accepting it, not rejecting it")]
    SameAsProved { test: String, proved: FindingKind },
}

/// A candidate with its proved finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeneratedTest {
    /// Canonical SMT-LIB, as written.
    pub premise: String,
    pub claim: String,
    pub finding: Finding,
    pub kind: CandidateKind,
    /// Why it has its finding, written from the proved finding and its
    /// rules ([`explanation`]), then what it was generated to probe.
    pub rationale: String,
    /// The score the ranking picked it with (higher first).
    pub score: f64,
    /// The rules the candidate targeted (the finding's own rules are in
    /// `finding.rules()`).
    pub targets: Vec<String>,
    /// What the test asks, in the model's English ([`test_name`]).
    pub name: String,
    /// The premise and claim in the model's English (the glossary's templates).
    pub premise_english: String,
    pub claim_english: String,
}

/// Generates at most `max` tests for `model` (loaded in `worker`), each with
/// a finding proved by the solver, deduplicated and ranked most informative
/// first. Deterministic for a model and seed on a freshly loaded worker.
pub fn generate(
    worker: &SolverWorker,
    model: &CompiledModel,
    max: usize,
    seed: u64,
) -> Vec<GeneratedTest> {
    generate_on(std::slice::from_ref(worker), model, max, seed, None, &mut 0)
}

/// [`generate`] with the solver's questions shared out over every worker
/// `workers` (each with `model` loaded); the same tests as on one worker.
pub fn generate_pooled(
    workers: &[SolverWorker],
    model: &CompiledModel,
    max: usize,
    seed: u64,
) -> Vec<GeneratedTest> {
    generate_on(workers, model, max, seed, None, &mut 0)
}

/// As `generate_pooled`, waiting for no answer once `deadline` (if any)
/// has passed; returns the tests and how many questions were left
/// unanswered (their candidates are not among the tests: skipped, not
/// passed).
pub fn generate_within(
    workers: &[SolverWorker],
    model: &CompiledModel,
    max: usize,
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> (Vec<GeneratedTest>, usize) {
    let mut unanswered = 0;
    let tests = generate_on(workers, model, max, seed, deadline, &mut unanswered);
    (tests, unanswered)
}

fn generate_on(
    worker: &[SolverWorker],
    model: &CompiledModel,
    max: usize,
    seed: u64,
    deadline: Option<std::time::Instant>,
    unanswered: &mut usize,
) -> Vec<GeneratedTest> {
    if max == 0 || worker.is_empty() {
        return Vec::new();
    }
    let budget = MIN_QUESTIONS.max(QUESTIONS_PER_TEST.saturating_mul(max));
    let mut asked = HashSet::new();
    let first = solve(
        worker,
        model,
        within_budget(candidates(model, seed), budget),
        &mut asked,
        deadline,
        unanswered,
    );
    let mut decided = dedupe(first.into_iter().filter(worth_keeping).collect());
    // HalluVault's negation rule: a proved claim's opposite is refuted.
    let negations: Vec<Candidate> = decided
        .iter()
        .filter(|d| d.finding.kind == FindingKind::Valid)
        .map(|d| Candidate {
            premise: d.candidate.premise.clone(),
            claim: not_of(&d.candidate.claim),
            kind: CandidateKind::Negation,
            rationale: format!(
                "negation of a VALID test ({}): the opposite claim must be INVALID",
                d.candidate.rationale
            ),
            rules: d.candidate.rules.clone(),
        })
        .collect();
    let room = budget.saturating_sub(asked.len());
    decided.extend(solve(
        worker,
        model,
        negations.into_iter().take(room).collect(),
        &mut asked,
        deadline,
        unanswered,
    ));
    let decided = dedupe(decided.into_iter().filter(worth_keeping).collect());
    let mut facts: HashSet<String> = model.rules.iter().map(|r| r.id.clone()).collect();
    for case in cases_of(model) {
        if !case.guard.is_empty() {
            facts.remove(&case.rule);
        }
    }
    rank(decided, &facts, max, seed)
        .into_iter()
        .map(|(d, score)| {
            let premise_english = english(model, &d.premise);
            let claim_english = english(model, &d.claim);
            // Named and explained only now that the finding is proved.
            let name = test_name(model, &d.premise, &d.claim);
            let rationale = explanation(&d.finding, d.candidate.kind, &d.candidate.rules);
            GeneratedTest {
                premise: d.premise,
                claim: d.claim,
                finding: d.finding,
                kind: d.candidate.kind,
                rationale,
                score: (score * 1000.0).round() / 1000.0,
                targets: d.candidate.rules,
                name,
                premise_english,
                claim_english,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Proposed tests and the expert's verdict

/// English for a formula as written (empty when it does not parse).
fn english(model: &CompiledModel, formula: &str) -> String {
    model
        .check_formula(formula)
        .map(|(written, _)| model.glossary.sentence(&written))
        .unwrap_or_default()
}

/// A generated test as a proposed logic test: expected = the proved finding,
/// named after what it asks.
pub fn to_proposed(generated: &GeneratedTest, id: String) -> LogicTest {
    let name = if generated.name.is_empty() {
        format!("{}, when {}?", generated.claim, generated.premise)
    } else {
        generated.name.clone()
    };
    let mut test = LogicTest::new(
        id,
        name,
        generated.premise.clone(),
        generated.claim.clone(),
        generated.finding.kind,
    );
    test.status = TestStatus::Proposed;
    test.proved = Some(generated.finding.kind);
    test.rationale = generated.rationale.clone();
    test
}

/// The expert agrees: a generated test becomes a regression test expecting
/// its proved finding. A test without a proved finding (written by hand) is
/// left as it is.
pub fn accept(test: &mut LogicTest) {
    if let Some(proved) = test.proved {
        test.expected = proved;
        test.status = TestStatus::Accepted;
    }
}

/// The expert expected another finding: the test becomes a failing test
/// (until the model is repaired) that expects `expected`. Fails for a test
/// that was not generated, and when `expected` is the proved finding (that
/// is an accept).
pub fn reject(test: &mut LogicTest, expected: FindingKind) -> Result<(), RejectError> {
    let Some(proved) = test.proved else {
        return Err(RejectError::WrittenByHand(test.id.clone()));
    };
    if test.status == TestStatus::Manual {
        return Err(RejectError::NotGenerated(test.id.clone()));
    }
    if expected == proved {
        return Err(RejectError::SameAsProved {
            test: test.id.clone(),
            proved,
        });
    }
    test.expected = expected;
    test.status = TestStatus::Rejected;
    Ok(())
}
