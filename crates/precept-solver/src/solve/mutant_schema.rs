//! Mutant schemata: every mutant of one rule judged in one warm solver.
//!
//! The solver holds the rule's group and the cones of the tests that can
//! notice it, each rule under its usual guard, and every mutant of the rule
//! under a selector literal of its own. Switching from one mutant to the
//! next is a change of assumptions, not a reload; the tests' premises and
//! claims are asserted once, under guards, and shared by all the mutants.
//!
//! Only the finding's kind matters here, so a test is decided by the two
//! checks the findings algorithm starts with: rules ∧ P ∧ ¬C and
//! rules ∧ P ∧ C (both unsatisfiable: IMPOSSIBLE; only the second:
//! VALID; only the first: INVALID; both: SATISFIABLE). When the first
//! already differs from what the test expects, the mutant is killed
//! without the second. A mutant whose checks the solver cannot settle gets
//! no verdict (`None`): the caller judges it the slow way, with a full
//! question per test, so running out of time here never turns into killed
//! or survived.
//!
//! A side of a test that the test's run on the original model showed a
//! scenario of is satisfiable with any mutant that scenario satisfies by
//! exact evaluation (`SchemaTest::known`): no check.
//!
//! The mutants still alive at a test are asked each of its checks all
//! together first, their selectors assumed at once: satisfiable together,
//! each is satisfiable alone, and one check settles them all (most
//! survivors' checks on the sectioned bench model: its mutation analysis
//! went from 81 s to 45 s on one worker); otherwise each is asked alone.
//!
//! The mutants of a rule share what the original rule's own checks proved
//! (`Witness`): a check the test's expected kind says is unsatisfiable is
//! asked once with the original rule, and when its unsat core leaves the
//! rule out it stays unsatisfiable whatever the rule says, so no mutant
//! asks it again. Every other check is asked. (Reusing the models of
//! satisfiable checks was measured slower: Z3 builds a whole model.)

use super::session::{Interruption, SolverSession};
use crate::model::finding::FindingKind;
use crate::smt::Expr;
use z3::SatResult;
use z3::ast::Bool;

/// A test that passes on the original model, as the schema reruns it.
#[derive(Debug, Clone)]
pub struct SchemaTest {
    pub premise: Expr,
    pub claim: Expr,
    pub expected: FindingKind,
    /// Per mutant (in the order given): whether the test's run on the
    /// original model left a scenario of the claim (`[0]`) or of its
    /// negation (`[1]`) that the mutant satisfies by exact evaluation.
    /// That side is then satisfiable with the mutant in place of the rule
    /// (every other rule of the cone is unchanged; the argument of
    /// `test_runner/carry_over.rs`), with no check. Empty: none known.
    pub known: Vec<[bool; 2]>,
}

/// What the schema made of one mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MutantVerdict {
    /// The mutant makes the rules contradict each other (the caller picks
    /// the killing test from the whole suite then).
    pub inconsistent: bool,
    /// The position (in the given tests) of the first test it fails.
    pub killed_by: Option<usize>,
    /// How many of the given tests were run.
    pub tests_run: usize,
    /// A survivor proved to entail, and be entailed by, the original rule.
    pub equivalent: bool,
}

/// What the original rule's own check proved, for its mutants to reuse.
enum Witness {
    /// Unsatisfiable with a core that leaves the rule out: so with any
    /// mutant in its place.
    UnsatWithoutRule,
    /// Nothing to reuse (satisfiable, the rule is in the core, or not
    /// decided).
    Nothing,
}

/// Per test, the original rule's checks with the claim and with its
/// negation, made when a first mutant needs them.
type Witnesses = Vec<[Option<Witness>; 2]>;

/// A solver with the schema loaded and the literals to steer it.
struct Schema {
    solver: z3::Solver,
    /// The group of the mutated rule, without the rule itself.
    group: Vec<Bool>,
    original: Bool,
    original_formula: Bool,
    selectors: Vec<Bool>,
    mutant_formulas: Vec<Bool>,
    /// Per test: the rules of its cone (without the mutated rule), and the
    /// guards of P, C and ¬C.
    tests: Vec<(Vec<Bool>, [Bool; 3])>,
}

impl SolverSession {
    /// Judges every mutant of rule `rule_id` (its elaborated formulas)
    /// against `tests` (the passing tests whose cone holds the rule, in
    /// order), stopping each mutant at its first failing test. `None` for a
    /// mutant means "not settled here"; every verdict is `None` when the
    /// original policy is not known to be consistent (the cone argument
    /// needs it).
    pub fn judge_mutants(
        &mut self,
        rule_id: &str,
        mutants: &[Expr],
        tests: &[SchemaTest],
        interruption: &dyn Interruption,
    ) -> Vec<Option<MutantVerdict>> {
        let nothing = vec![None; mutants.len()];
        let Some(rule) = self.rules.iter().position(|r| r.id == rule_id) else {
            return nothing;
        };
        if !matches!(self.consistency(interruption), Ok(Some(true))) {
            return nothing;
        }
        let Some(schema) = self.schema(rule, mutants, tests) else {
            return nothing;
        };
        let budget = self.timeout();
        let check = |assumptions: &[Bool]| {
            interruption.limit_checks(Some(budget));
            interruption.start_check();
            let result = super::check_gate::gated_check(&schema.solver, assumptions);
            interruption.limit_checks(None);
            result
        };
        let mut witnesses: Witnesses = (0..tests.len()).map(|_| [None, None]).collect();
        judge_all(&schema, &mut witnesses, tests, &check)
    }

    fn schema(&mut self, rule: usize, mutants: &[Expr], tests: &[SchemaTest]) -> Option<Schema> {
        let without = |rules: Vec<usize>| -> Vec<usize> {
            rules.into_iter().filter(|&r| r != rule).collect::<Vec<_>>()
        };
        let group = without(self.group_of(rule));
        let mut cones = Vec::with_capacity(tests.len());
        for test in tests {
            let mut question: Vec<&str> = test
                .premise
                .symbols()
                .into_iter()
                .chain(test.claim.symbols())
                .filter(|s| self.vocabulary.is_variable(s))
                .collect();
            question.sort_unstable();
            question.dedup();
            cones.push(without(self.rules_touching(&question)));
        }
        let mut held: Vec<usize> = group
            .iter()
            .chain(cones.iter().flatten())
            .copied()
            .collect();
        held.push(rule);
        held.sort_unstable();
        held.dedup();
        let solver = self.scratch_solver(&held);
        // Every check of the schema has the watchdog's check budget.
        super::check_gate::watchdog_only(&solver);
        let mut selectors = Vec::with_capacity(mutants.len());
        let mut mutant_formulas = Vec::with_capacity(mutants.len());
        for mutant in mutants {
            let formula = self.vocabulary.formula(mutant).ok()?;
            let selector = Bool::fresh_const("mutant");
            solver.assert(selector.implies(&formula));
            selectors.push(selector);
            mutant_formulas.push(formula);
        }
        let guard = |formula: &Bool| {
            let literal = Bool::fresh_const("question");
            solver.assert(literal.implies(formula));
            literal
        };
        let mut guarded_tests = Vec::with_capacity(tests.len());
        for (test, cone) in tests.iter().zip(cones) {
            let p = self.vocabulary.formula(&test.premise).ok()?;
            let c = self.vocabulary.formula(&test.claim).ok()?;
            let guards = [guard(&p), guard(&c), guard(&c.not())];
            guarded_tests.push((self.literals(&cone), guards));
        }
        Some(Schema {
            group: self.literals(&group),
            original: self.rules[rule].literal.clone(),
            original_formula: self.rules[rule].formula.clone(),
            solver,
            selectors,
            mutant_formulas,
            tests: guarded_tests,
        })
    }
}

/// The kind the findings algorithm gives, from its two first checks.
fn kind_of(claim_true: SatResult, claim_false: SatResult) -> Option<FindingKind> {
    use SatResult::{Sat, Unsat};
    Some(match (claim_true, claim_false) {
        (Unsat, Unsat) => FindingKind::Impossible,
        (Sat, Unsat) => FindingKind::Valid,
        (Unsat, Sat) => FindingKind::Invalid,
        (Sat, Sat) => FindingKind::Satisfiable,
        _ => return None,
    })
}

/// The original rule's check under `assumptions` (which assume it), when
/// the test's expected kind says it is unsatisfiable (`unsat`): whether
/// its core leaves the rule out.
fn witness(
    schema: &Schema,
    unsat: bool,
    assumptions: &[Bool],
    check: &dyn Fn(&[Bool]) -> SatResult,
) -> Witness {
    if !unsat || check(assumptions) != SatResult::Unsat {
        return Witness::Nothing;
    }
    let core = schema.solver.get_unsat_core();
    if core.iter().any(|literal| literal == &schema.original) {
        Witness::Nothing
    } else {
        Witness::UnsatWithoutRule
    }
}

/// The `mutants`' checks under `assumptions` (without their selectors),
/// settled by `witness` when it can be, else asked.
fn settled(
    witness: &Witness,
    schema: &Schema,
    mutants: &[usize],
    assumptions: &[Bool],
    check: &dyn Fn(&[Bool]) -> SatResult,
) -> Vec<SatResult> {
    match witness {
        Witness::UnsatWithoutRule => vec![SatResult::Unsat; mutants.len()],
        Witness::Nothing => each_satisfiable(schema, mutants, assumptions, check),
    }
}

/// The `mutants`' checks of one side of a test under `assumptions`: a
/// mutant `known` to satisfy a scenario of that side (from the test's run
/// on the original model) is satisfiable with no check; the others are
/// settled by the side's witness (made by `make` when first needed) or
/// asked.
fn side(
    schema: &Schema,
    slot: &mut Option<Witness>,
    mutants: &[usize],
    known: impl Fn(usize) -> bool,
    make: impl FnOnce() -> Witness,
    assumptions: &[Bool],
    check: &dyn Fn(&[Bool]) -> SatResult,
) -> Vec<SatResult> {
    let asked: Vec<usize> = mutants.iter().copied().filter(|&j| !known(j)).collect();
    let mut answers = match asked.is_empty() {
        true => Vec::new(),
        false => settled(
            slot.get_or_insert_with(make),
            schema,
            &asked,
            assumptions,
            check,
        ),
    }
    .into_iter();
    mutants
        .iter()
        .map(|&j| match known(j) {
            true => SatResult::Sat,
            false => answers.next().unwrap_or(SatResult::Unknown),
        })
        .collect()
}

/// Whether a finding of kind `kind` comes with a satisfiable first check
/// (rules ∧ P ∧ C).
fn claim_can_hold(kind: FindingKind) -> bool {
    matches!(kind, FindingKind::Valid | FindingKind::Satisfiable)
}

/// Whether each of `mutants` can hold with `assumptions`: all of them
/// together first (satisfiable together: so is each, and one check settles
/// them all), else one by one.
fn each_satisfiable(
    schema: &Schema,
    mutants: &[usize],
    assumptions: &[Bool],
    check: &dyn Fn(&[Bool]) -> SatResult,
) -> Vec<SatResult> {
    let with = |selectors: &[usize]| -> Vec<Bool> {
        let mut all = assumptions.to_vec();
        all.extend(selectors.iter().map(|&j| schema.selectors[j].clone()));
        all
    };
    if mutants.len() > 1 && check(&with(mutants)) == SatResult::Sat {
        return vec![SatResult::Sat; mutants.len()];
    }
    mutants.iter().map(|&j| check(&with(&[j]))).collect()
}

/// Every mutant of the schema against `tests` in order, each stopping at
/// its first failing test. The mutants still alive are asked each check
/// together (`each_satisfiable`), so a verdict is the one a mutant asked
/// alone gets; None for a mutant a check could not settle.
fn judge_all(
    schema: &Schema,
    witnesses: &mut Witnesses,
    tests: &[SchemaTest],
    check: &dyn Fn(&[Bool]) -> SatResult,
) -> Vec<Option<MutantVerdict>> {
    let with = |rules: &[Bool], extra: &[&Bool]| -> Vec<Bool> {
        let mut all = rules.to_vec();
        all.extend(extra.iter().map(|b| (*b).clone()));
        all
    };
    let fresh = MutantVerdict {
        inconsistent: false,
        killed_by: None,
        tests_run: 0,
        equivalent: false,
    };
    let mut verdicts = vec![Some(fresh); schema.selectors.len()];
    // The rest of the policy is consistent and shares no variable with the
    // rule's group, so the mutated policy is consistent exactly when the
    // group with the mutant is.
    let all: Vec<usize> = (0..schema.selectors.len()).collect();
    let mut live = Vec::new();
    for (j, result) in all
        .iter()
        .zip(each_satisfiable(schema, &all, &schema.group, check))
    {
        match result {
            SatResult::Sat => live.push(*j),
            SatResult::Unsat => {
                verdicts[*j] = Some(MutantVerdict {
                    inconsistent: true,
                    ..fresh
                })
            }
            SatResult::Unknown => verdicts[*j] = None,
        }
    }
    for (i, (test, (cone, [premise, claim, not_claim]))) in
        tests.iter().zip(&schema.tests).enumerate()
    {
        if live.is_empty() {
            break;
        }
        for &j in &live {
            if let Some(verdict) = &mut verdicts[j] {
                verdict.tests_run += 1;
            }
        }
        let kill = |verdicts: &mut Vec<Option<MutantVerdict>>, j: usize| {
            if let Some(verdict) = &mut verdicts[j] {
                verdict.killed_by = Some(i);
            }
        };
        let [claim_witness, not_claim_witness] = &mut witnesses[i];
        let claim_true = side(
            schema,
            claim_witness,
            &live,
            |j| test.known.get(j).is_some_and(|k| k[0]),
            || {
                let unsat = !claim_can_hold(test.expected);
                let assumptions = with(cone, &[&schema.original, premise, claim]);
                witness(schema, unsat, &assumptions, check)
            },
            &with(cone, &[premise, claim]),
            check,
        );
        let mut alive = Vec::new();
        for (&j, result) in live.iter().zip(claim_true) {
            let differs = match result {
                SatResult::Sat => !claim_can_hold(test.expected),
                SatResult::Unsat => claim_can_hold(test.expected),
                SatResult::Unknown => {
                    verdicts[j] = None;
                    continue;
                }
            };
            // Whatever the second check says, the kind is not the expected one.
            match differs {
                true => kill(&mut verdicts, j),
                false => alive.push((j, result)),
            }
        }
        let still: Vec<usize> = alive.iter().map(|&(j, _)| j).collect();
        live = Vec::new();
        if still.is_empty() {
            continue;
        }
        let claim_false = side(
            schema,
            not_claim_witness,
            &still,
            |j| test.known.get(j).is_some_and(|k| k[1]),
            || {
                let unsat = matches!(test.expected, FindingKind::Valid | FindingKind::Impossible);
                let assumptions = with(cone, &[&schema.original, premise, not_claim]);
                witness(schema, unsat, &assumptions, check)
            },
            &with(cone, &[premise, not_claim]),
            check,
        );
        for ((j, claim_true), claim_false) in alive.into_iter().zip(claim_false) {
            match kind_of(claim_true, claim_false) {
                None => verdicts[j] = None,
                Some(kind) if kind != test.expected => kill(&mut verdicts, j),
                Some(_) => live.push(j),
            }
        }
    }
    // A survivor is equivalent when the mutated group entails the original
    // rule and the original group entails the mutant. The first check of
    // the survivors together: satisfiable, none entails it.
    let negated = Bool::fresh_const("entailed");
    schema
        .solver
        .assert(negated.implies(schema.original_formula.not()));
    let first = each_satisfiable(schema, &live, &with(&schema.group, &[&negated]), check);
    for (&j, result) in live.iter().zip(first) {
        let equivalent = match result {
            SatResult::Sat => Some(false),
            SatResult::Unknown => None,
            SatResult::Unsat => {
                let negated = Bool::fresh_const("entailed");
                schema
                    .solver
                    .assert(negated.implies(schema.mutant_formulas[j].not()));
                match check(&with(&schema.group, &[&schema.original, &negated])) {
                    SatResult::Unsat => Some(true),
                    SatResult::Sat => Some(false),
                    SatResult::Unknown => None,
                }
            }
        };
        match (equivalent, &mut verdicts[j]) {
            (Some(equivalent), Some(verdict)) => verdict.equivalent = equivalent,
            _ => verdicts[j] = None,
        }
    }
    verdicts
}
