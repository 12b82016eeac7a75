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

use crate::core::graph::RuleGraph;
use crate::core::model::{CompiledModel, LogicTest, TestStatus};
use crate::core::smt::{Expr, ExprKind, Op, Sort};
use crate::core::solve::{Finding, FindingKind, LogicWarning, SolverWorker};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::mpsc;

/// At most this many transitive chains per model (the seed rotates which).
const MAX_CHAINS: usize = 240;
/// At most this many three-rule chains are considered before the cap.
const MAX_TRIPLES_SCANNED: usize = 50_000;
/// At most this many composite pairs per model (the seed rotates which).
const MAX_COMPOSITES: usize = 160;
/// The solver answers at most `max(MIN_QUESTIONS, QUESTIONS_PER_TEST × max)`
/// questions per generation (negations included).
const MIN_QUESTIONS: usize = 600;
const QUESTIONS_PER_TEST: usize = 8;
/// At most this many claims per enum value.
const MAX_CLAIMS_PER_VALUE: usize = 4;

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

    fn bonus(self) -> f64 {
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
    pub rationale: String,
    /// The rules the candidate targets.
    pub rules: Vec<String>,
}

/// A candidate with its proved finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeneratedTest {
    /// Canonical SMT-LIB, as written.
    pub premise: String,
    pub claim: String,
    pub finding: Finding,
    pub kind: CandidateKind,
    pub rationale: String,
    /// The score the ranking picked it with (higher first).
    pub score: f64,
    /// The rules the candidate targeted (the finding's own rules are in
    /// `finding.rules()`).
    pub targets: Vec<String>,
    /// A readable name: the kind, then the claim in the model's English.
    pub name: String,
    /// The premise and claim in the model's English (the glossary's templates).
    pub premise_english: String,
    pub claim_english: String,
}

// ---------------------------------------------------------------------------
// Expression helpers

fn app(op: Op, args: Vec<Expr>) -> Expr {
    Expr::app(op, args)
}

fn truth() -> Expr {
    Expr::new(ExprKind::Bool(true))
}

/// The conjuncts of `e`, nested `and`s flattened.
fn conjuncts(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::App(Op::And, args) => args.iter().for_each(|a| conjuncts(a, out)),
        ExprKind::Bool(true) => {}
        _ => out.push(e.clone()),
    }
}

/// A conjunction, flattened, without `true` or repeated conjuncts.
fn and_of(parts: impl IntoIterator<Item = Expr>) -> Expr {
    let mut flat = Vec::new();
    for part in parts {
        conjuncts(&part, &mut flat);
    }
    let mut unique: Vec<Expr> = Vec::new();
    for part in flat {
        if !unique.contains(&part) {
            unique.push(part);
        }
    }
    match unique.len() {
        0 => truth(),
        1 => unique.pop().unwrap_or_else(truth),
        _ => app(Op::And, unique),
    }
}

/// The negation, without double negation.
fn not_of(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::App(Op::Not, args) if args.len() == 1 => args[0].clone(),
        ExprKind::Bool(value) => Expr::new(ExprKind::Bool(!value)),
        _ => app(Op::Not, vec![e.clone()]),
    }
}

/// The negation of a conjunction of conditions, readable: one condition is
/// negated directly.
fn not_all(conditions: &[Expr]) -> Expr {
    not_of(&and_of(conditions.iter().cloned()))
}

fn sort_of(model: &CompiledModel, e: &Expr) -> Option<Sort> {
    model
        .vocabulary
        .check(&e.to_string(), e)
        .ok()
        .map(|(_, sort)| sort)
}

fn variables_of(model: &CompiledModel, e: &Expr) -> BTreeSet<String> {
    e.symbols()
        .into_iter()
        .filter(|s| model.vocabulary.variable_sort(s).is_some())
        .map(str::to_string)
        .collect()
}

/// The value of a constant term (numerals, unary minus, arithmetic on constants).
fn constant(e: &Expr) -> Option<BigRational> {
    match &e.kind {
        ExprKind::Int(n) => Some(BigRational::from_integer(n.clone())),
        ExprKind::Decimal(r) => Some(r.clone()),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => constant(&args[0]),
        ExprKind::App(Op::Sub, args) if args.len() == 1 => constant(&args[0]).map(|v| -v),
        ExprKind::App(op @ (Op::Add | Op::Sub | Op::Mul), args) => {
            let mut values = args.iter().map(constant);
            let first = values.next()??;
            values.try_fold(first, |acc, v| {
                let v = v?;
                Some(match op {
                    Op::Add => acc + v,
                    Op::Sub => acc - v,
                    _ => acc * v,
                })
            })
        }
        _ => None,
    }
}

/// A literal for `value`: an Int numeral or a decimal, negatives as `(- n)`.
fn literal(value: &BigRational, integer: bool) -> Expr {
    let magnitude = value.abs();
    let positive = if integer && magnitude.is_integer() {
        Expr::new(ExprKind::Int(magnitude.to_integer()))
    } else {
        Expr::new(ExprKind::Decimal(magnitude))
    };
    if value.is_negative() {
        app(Op::Sub, vec![positive])
    } else {
        positive
    }
}

/// `term + delta`, folding the constant into the term where it has one.
fn offset(term: &Expr, delta: &BigRational, integer: bool) -> Expr {
    if delta.is_zero() {
        return term.clone();
    }
    if let Some(value) = constant(term) {
        return literal(&(value + delta), integer);
    }
    if let ExprKind::App(Op::Add, args) = &term.kind {
        let constants: Vec<usize> = (0..args.len())
            .filter(|&i| constant(&args[i]).is_some())
            .collect();
        if let [at] = constants[..]
            && let Some(value) = constant(&args[at])
        {
            let folded = value + delta;
            let rest: Vec<Expr> = args
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != at)
                .map(|(_, a)| a.clone())
                .collect();
            let rest = if rest.len() == 1 {
                rest[0].clone()
            } else {
                app(Op::Add, rest)
            };
            return shift(rest, &folded, integer);
        }
    }
    shift(term.clone(), delta, integer)
}

fn shift(term: Expr, delta: &BigRational, integer: bool) -> Expr {
    if delta.is_zero() {
        term
    } else if delta.is_negative() {
        app(Op::Sub, vec![term, literal(&-delta.clone(), integer)])
    } else {
        app(Op::Add, vec![term, literal(delta, integer)])
    }
}

/// The number of decimal places a constant is written with (capped).
fn decimal_places(value: &BigRational) -> u32 {
    let ten = BigInt::from(10u32);
    let mut scaled = value.clone();
    for places in 0..6 {
        if scaled.is_integer() {
            return places;
        }
        scaled *= BigRational::from_integer(ten.clone());
    }
    6
}

fn ten_to_minus(places: u32) -> BigRational {
    BigRational::new(BigInt::from(1u32), BigInt::from(10u32).pow(places))
}

fn show_value(value: &BigRational, integer: bool) -> String {
    crate::core::smt::number::finite_decimal(value, integer)
        .unwrap_or_else(|| literal(value, integer).to_string())
}

// ---------------------------------------------------------------------------
// Cases: rules split into guard ⇒ conclusion

#[derive(Debug, Clone)]
struct Case {
    rule: String,
    /// Conjuncts of the guard; empty for a fact.
    guard: Vec<Expr>,
    conclusion: Expr,
}

impl Case {
    fn antecedent(&self) -> Expr {
        and_of(self.guard.iter().cloned())
    }
}

fn split_rule(model: &CompiledModel, rule: &str, expr: &Expr, guard: &[Expr], out: &mut Vec<Case>) {
    let with = |extra: &Expr| -> Vec<Expr> {
        let mut next = guard.to_vec();
        conjuncts(extra, &mut next);
        next
    };
    match &expr.kind {
        ExprKind::App(Op::Implies, args) if args.len() >= 2 => {
            let (conclusion, conditions) = args.split_last().unwrap_or((expr, &[]));
            split_rule(
                model,
                rule,
                conclusion,
                &with(&and_of(conditions.to_vec())),
                out,
            );
        }
        ExprKind::App(Op::And, args) if guard.is_empty() => {
            for arg in args {
                split_rule(model, rule, arg, guard, out);
            }
        }
        ExprKind::App(Op::Ite, args) if args.len() == 3 => {
            split_rule(model, rule, &args[1], &with(&args[0]), out);
            split_rule(model, rule, &args[2], &with(&not_of(&args[0])), out);
        }
        ExprKind::App(Op::Eq, args) if args.len() == 2 => {
            let ite_side = |e: &Expr| matches!(&e.kind, ExprKind::App(Op::Ite, a) if a.len() == 3);
            let (left, right) = (&args[0], &args[1]);
            if ite_side(right) != ite_side(left) {
                let (defined, ite) = if ite_side(right) {
                    (left, right)
                } else {
                    (right, left)
                };
                if let ExprKind::App(Op::Ite, branches) = &ite.kind {
                    let case = |branch: &Expr| app(Op::Eq, vec![defined.clone(), branch.clone()]);
                    split_rule(model, rule, &case(&branches[1]), &with(&branches[0]), out);
                    let negated = not_of(&branches[0]);
                    split_rule(model, rule, &case(&branches[2]), &with(&negated), out);
                    return;
                }
            }
            if sort_of(model, left) == Some(Sort::Bool) {
                // An equivalence: a defined name is decided by the other side.
                let bare = |e: &Expr| matches!(e.kind, ExprKind::Symbol(_));
                let (defined, body) = if bare(left) && !bare(right) {
                    (left, right)
                } else {
                    (right, left)
                };
                out.push(Case {
                    rule: rule.to_string(),
                    guard: with(body),
                    conclusion: defined.clone(),
                });
                out.push(Case {
                    rule: rule.to_string(),
                    guard: with(&not_of(body)),
                    conclusion: not_of(defined),
                });
                return;
            }
            out.push(Case {
                rule: rule.to_string(),
                guard: guard.to_vec(),
                conclusion: expr.clone(),
            });
        }
        _ => out.push(Case {
            rule: rule.to_string(),
            guard: guard.to_vec(),
            conclusion: expr.clone(),
        }),
    }
}

fn cases_of(model: &CompiledModel) -> Vec<Case> {
    let mut cases = Vec::new();
    for rule in &model.rules {
        split_rule(model, &rule.id, &rule.written, &[], &mut cases);
    }
    cases
}

/// An atomic condition with the other conditions that make it decisive
/// (siblings true under `and`, false under `or`).
#[derive(Debug, Clone)]
struct Atom {
    atom: Expr,
    context: Vec<Expr>,
}

fn atoms(e: &Expr, context: &[Expr], out: &mut Vec<Atom>) {
    match &e.kind {
        ExprKind::App(op @ (Op::And | Op::Or), args) => {
            for (i, arg) in args.iter().enumerate() {
                let mut inner = context.to_vec();
                for (j, sibling) in args.iter().enumerate() {
                    if i != j {
                        inner.push(if *op == Op::And {
                            sibling.clone()
                        } else {
                            not_of(sibling)
                        });
                    }
                }
                atoms(arg, &inner, out);
            }
        }
        ExprKind::App(Op::Not, args) if args.len() == 1 => atoms(&args[0], context, out),
        _ => out.push(Atom {
            atom: e.clone(),
            context: context.to_vec(),
        }),
    }
}

fn guard_atoms(guard: &[Expr]) -> Vec<Atom> {
    let mut out = Vec::new();
    if guard.len() == 1 {
        atoms(&guard[0], &[], &mut out);
    } else if !guard.is_empty() {
        atoms(&app(Op::And, guard.to_vec()), &[], &mut out);
    }
    out
}
/// A numeric threshold: `subject` compared with `threshold`.
struct Threshold {
    subject: Expr,
    threshold: Expr,
    /// Both sides are Int: steps of 1.
    integer: bool,
    /// The subject is Int (against a Real threshold when `integer` is false).
    subject_int: bool,
}

fn threshold_of(model: &CompiledModel, atom: &Expr) -> Option<Threshold> {
    let ExprKind::App(op, args) = &atom.kind else {
        return None;
    };
    if args.len() != 2 || !matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq) {
        return None;
    }
    let (a, b) = (&args[0], &args[1]);
    let (sort_a, sort_b) = (sort_of(model, a)?, sort_of(model, b)?);
    if !sort_a.is_numeric() || !sort_b.is_numeric() {
        return None;
    }
    let (a_const, b_const) = (constant(a).is_some(), constant(b).is_some());
    if a_const && b_const {
        return None;
    }
    // An equation is a threshold only against a constant (otherwise it is a definition).
    if *op == Op::Eq && !a_const && !b_const {
        return None;
    }
    let is_symbol = |e: &Expr| matches!(e.kind, ExprKind::Symbol(_));
    let subject_is_b = a_const || (!b_const && is_symbol(b) && !is_symbol(a));
    let (subject, threshold, subject_sort, threshold_sort) = if subject_is_b {
        (b, a, sort_b, sort_a)
    } else {
        (a, b, sort_a, sort_b)
    };
    Some(Threshold {
        subject: subject.clone(),
        threshold: threshold.clone(),
        integer: subject_sort == Sort::Int && threshold_sort == Sort::Int,
        subject_int: subject_sort == Sort::Int,
    })
}

/// The boundary points of a threshold: (description, premise atom).
fn boundary_points(t: &Threshold, seed: u64) -> Vec<(String, Expr)> {
    let value = constant(&t.threshold);
    let at = |point: Expr| app(Op::Eq, vec![t.subject.clone(), point]);
    // An Int subject against a fractional constant: the integers either side.
    if t.subject_int
        && !t.integer
        && let Some(v) = value.as_ref().filter(|v| !v.is_integer())
    {
        let below = v.floor();
        let above = below.clone() + BigRational::from_integer(1.into());
        return vec![
            (
                format!("just below ({})", show_value(&below, true)),
                at(literal(&below, true)),
            ),
            (
                format!("just above ({})", show_value(&above, true)),
                at(literal(&above, true)),
            ),
        ];
    }
    let step = if t.integer || t.subject_int {
        BigRational::from_integer(BigInt::from(1u32))
    } else {
        let places = value.as_ref().map_or(0, decimal_places).max(2);
        ten_to_minus(places + (seed % 2) as u32)
    };
    [
        ("just below", -step.clone()),
        ("at", BigRational::zero()),
        ("just above", step),
    ]
    .into_iter()
    .map(|(label, delta)| {
        let point = offset(&t.threshold, &delta, t.integer);
        let shown = match constant(&point) {
            Some(v) => show_value(&v, t.integer),
            None => point.to_string(),
        };
        (format!("{label} ({shown})"), at(point))
    })
    .collect()
}

// ---------------------------------------------------------------------------
// Candidates

struct Builder<'a> {
    model: &'a CompiledModel,
    out: Vec<Candidate>,
}

impl Builder<'_> {
    fn push(
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

/// Every candidate for `model`, in a fixed order (see the module docs).
pub fn candidates(model: &CompiledModel, seed: u64) -> Vec<Candidate> {
    let cases = cases_of(model);
    let mut b = Builder {
        model,
        out: Vec::new(),
    };
    impossible_probes(&mut b, &cases);
    boundaries(&mut b, &cases, seed);
    for case in &cases {
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
    mcdc(&mut b, &cases);
    enum_values(&mut b, &cases);
    underspecified(&mut b, &cases);
    transitive(&mut b, &cases, seed);
    composite(&mut b, &cases, seed);
    b.out
}

fn impossible_probes(b: &mut Builder, cases: &[Case]) {
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

fn boundaries(b: &mut Builder, cases: &[Case], seed: u64) {
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

fn mcdc(b: &mut Builder, cases: &[Case]) {
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

fn enum_values(b: &mut Builder, cases: &[Case]) {
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

fn underspecified(b: &mut Builder, cases: &[Case]) {
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
fn capped<T>(items: Vec<T>, cap: usize, seed: u64) -> Vec<T> {
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

fn transitive(b: &mut Builder, cases: &[Case], seed: u64) {
    let model = b.model;
    let graph = RuleGraph::build(
        model.variables.iter().map(|(name, _)| name.as_str()),
        model.rules.iter().map(|r| (r.id.as_str(), &r.written)),
    );
    // What a case decides: the name a conclusion defines or sets (`x` in
    // `(= x ..)`, `p` or `(not p)`), otherwise every variable it mentions.
    // A fact (a definition) decides what it defines from what it reads, so
    // it can carry a chain from one guarded rule to the next.
    let outputs: Vec<BTreeSet<String>> = cases
        .iter()
        .map(|c| decided_variables(model, &c.conclusion))
        .collect();
    let guard_vars: Vec<Vec<BTreeSet<String>>> = cases
        .iter()
        .map(|c| c.guard.iter().map(|g| variables_of(model, g)).collect())
        .collect();
    // What a case reads: its guard's variables; a fact's other variables.
    let inputs: Vec<BTreeSet<String>> = (0..cases.len())
        .map(|i| {
            if cases[i].guard.is_empty() {
                variables_of(model, &cases[i].conclusion)
                    .into_iter()
                    .filter(|v| !outputs[i].contains(v))
                    .collect()
            } else {
                guard_vars[i].iter().flatten().cloned().collect()
            }
        })
        .collect();
    let mut cases_of_rule: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, case) in cases.iter().enumerate() {
        cases_of_rule.entry(case.rule.as_str()).or_default().push(i);
    }
    // Successors through the rule↔variable graph: the cases of the rules
    // using a variable the case decides, that read it.
    let next: Vec<Vec<usize>> = (0..cases.len())
        .map(|from| {
            let mut found = BTreeSet::new();
            for variable in &outputs[from] {
                for rule in graph.rules_using(variable) {
                    if rule == cases[from].rule {
                        continue;
                    }
                    for &to in cases_of_rule.get(rule.as_str()).into_iter().flatten() {
                        if inputs[to].contains(variable) {
                            found.insert(to);
                        }
                    }
                }
            }
            found.into_iter().collect()
        })
        .collect();
    // The conditions of guarded case `to` that the step before does not decide.
    let rest = |from: usize, to: usize| -> Vec<Expr> {
        cases[to]
            .guard
            .iter()
            .zip(&guard_vars[to])
            .filter(|(_, vars)| vars.is_disjoint(&outputs[from]))
            .map(|(g, _)| g.clone())
            .collect()
    };
    let guarded = |i: usize| !cases[i].guard.is_empty();
    let mut pairs = Vec::new();
    let mut triples = Vec::new();
    for first in (0..cases.len()).filter(|&i| guarded(i)) {
        for &second in &next[first] {
            if guarded(second) {
                pairs.push(vec![first, second]);
            }
            for &third in &next[second] {
                if triples.len() < MAX_TRIPLES_SCANNED
                    && guarded(third)
                    && cases[third].rule != cases[first].rule
                {
                    triples.push(vec![first, second, third]);
                }
            }
        }
    }
    let pairs = capped(pairs, MAX_CHAINS, seed);
    let room = MAX_CHAINS.saturating_sub(pairs.len()).max(MAX_CHAINS / 4);
    let triples = capped(triples, room, seed);
    for chain in pairs.into_iter().chain(triples) {
        let mut premise = cases[chain[0]].guard.clone();
        for step in chain.windows(2) {
            premise.extend(rest(step[0], step[1]));
        }
        let last = chain[chain.len() - 1];
        let rules: Vec<&str> = chain.iter().map(|&i| cases[i].rule.as_str()).collect();
        let path = rules.join(" → ");
        let rationale = if chain.len() == 2 {
            format!(
                "chain {path}: {}'s conclusion feeds {}'s conditions",
                rules[0], rules[1]
            )
        } else {
            format!("chain {path}: each conclusion feeds the next rule")
        };
        b.push(
            CandidateKind::Transitive,
            and_of(premise),
            cases[last].conclusion.clone(),
            &rules,
            rationale,
        );
    }
}

/// The variables a conclusion decides: the defined name of `(= x ..)`, the
/// name in `p` or `(not p)`; otherwise every variable it mentions.
fn decided_variables(model: &CompiledModel, conclusion: &Expr) -> BTreeSet<String> {
    let named = |e: &Expr| match &e.kind {
        ExprKind::Symbol(name) if model.vocabulary.variable_sort(name).is_some() => {
            Some(name.clone())
        }
        _ => None,
    };
    let single = match &conclusion.kind {
        ExprKind::Symbol(_) => named(conclusion),
        ExprKind::App(Op::Not, args) if args.len() == 1 => named(&args[0]),
        ExprKind::App(Op::Eq, args) if args.len() == 2 => {
            named(&args[0]).or_else(|| named(&args[1]))
        }
        _ => None,
    };
    match single {
        Some(name) => BTreeSet::from([name]),
        None => variables_of(model, conclusion),
    }
}

/// Whether two guards plainly exclude each other: one enum variable with two
/// values, or a condition and its negation.
fn exclusive(first: &[Expr], second: &[Expr]) -> bool {
    let value_of = |e: &Expr| -> Option<(String, String)> {
        match &e.kind {
            ExprKind::App(Op::Eq, args) if args.len() == 2 => {
                match (&args[0].kind, &args[1].kind) {
                    (ExprKind::Symbol(a), ExprKind::Symbol(b)) => Some((a.clone(), b.clone())),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    first.iter().any(|f| {
        second.iter().any(|g| {
            if not_of(f) == *g {
                return true;
            }
            match (value_of(f), value_of(g)) {
                (Some((v1, a)), Some((v2, b))) => v1 == v2 && a != b && !a.is_empty(),
                _ => false,
            }
        })
    })
}

fn composite(b: &mut Builder, cases: &[Case], seed: u64) {
    let model = b.model;
    let guarded: Vec<usize> = (0..cases.len())
        .filter(|&i| !cases[i].guard.is_empty())
        .collect();
    let conclusion_vars: Vec<BTreeSet<String>> = cases
        .iter()
        .map(|c| variables_of(model, &c.conclusion))
        .collect();
    // Two rules that conclude about the same variable: applied together they
    // must agree, or the policy contradicts itself where both apply.
    let mut pairs = Vec::new();
    for (n, &i) in guarded.iter().enumerate() {
        for &j in &guarded[n + 1..] {
            if cases[i].rule != cases[j].rule
                && !conclusion_vars[i].is_disjoint(&conclusion_vars[j])
                && !exclusive(&cases[i].guard, &cases[j].guard)
            {
                pairs.push((i, j));
            }
        }
    }
    for (i, j) in capped(pairs, MAX_COMPOSITES, seed) {
        let (first, second) = (&cases[i], &cases[j]);
        let mut premise = first.guard.clone();
        premise.extend(second.guard.iter().cloned());
        if exclusive(
            std::slice::from_ref(&first.conclusion),
            std::slice::from_ref(&second.conclusion),
        ) {
            // Opposite conclusions: where both rules apply, the policy contradicts itself.
            b.push(
                CandidateKind::Composite,
                and_of(premise),
                first.conclusion.clone(),
                &[&first.rule, &second.rule],
                format!(
                    "{} and {} conclude opposite things: can both apply at once?",
                    first.rule, second.rule
                ),
            );
            continue;
        }
        b.push(
            CandidateKind::Composite,
            and_of(premise),
            and_of([first.conclusion.clone(), second.conclusion.clone()]),
            &[&first.rule, &second.rule],
            format!(
                "{} and {} together: both apply, so both conclusions must hold",
                first.rule, second.rule
            ),
        );
    }
}

// ---------------------------------------------------------------------------
// Solving, deduplication, ranking

/// A candidate with its finding.
struct Decided {
    candidate: Candidate,
    premise: String,
    claim: String,
    finding: Finding,
}

fn key(premise: &str, claim: &str) -> String {
    format!("{premise}\u{0}{claim}")
}

/// At most `budget` distinct candidates, taken round-robin over the rules
/// they target first (each rule's boundaries first, then rule-applies,
/// chains, MC/DC, combinations, rule-does-not-apply, impossible probes,
/// values, under-specified), so on a large model every rule gets its first
/// candidates before any rule gets more.
fn within_budget(candidates: Vec<Candidate>, budget: usize) -> Vec<Candidate> {
    let mut seen = HashSet::new();
    let distinct: Vec<Candidate> = candidates
        .into_iter()
        .filter(|c| seen.insert(key(&c.premise.to_string(), &c.claim.to_string())))
        .collect();
    if distinct.len() <= budget {
        return distinct;
    }
    let mut order: Vec<&str> = Vec::new();
    let mut buckets: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, candidate) in distinct.iter().enumerate() {
        let rule = candidate.rules.first().cloned().unwrap_or_default();
        let bucket = buckets.entry(rule).or_default();
        if bucket.is_empty() {
            order.push(candidate.rules.first().map_or("", String::as_str));
        }
        bucket.push(i);
    }
    // Within a rule, the kinds most likely to teach something come first.
    let priority = |kind: CandidateKind| match kind {
        CandidateKind::Boundary => 0,
        CandidateKind::AntecedentTrue => 1,
        CandidateKind::Transitive => 2,
        CandidateKind::Mcdc => 3,
        CandidateKind::Composite => 4,
        CandidateKind::AntecedentFalse => 5,
        CandidateKind::Impossible => 6,
        CandidateKind::EnumValue => 7,
        CandidateKind::Underspecified => 8,
        CandidateKind::Negation => 9,
    };
    for bucket in buckets.values_mut() {
        bucket.sort_by_key(|&i| (priority(distinct[i].kind), i));
    }
    let mut keep = vec![false; distinct.len()];
    let mut taken = 0;
    let mut round = 0;
    while taken < budget {
        let mut any = false;
        for rule in &order {
            if let Some(&i) = buckets.get(*rule).and_then(|b| b.get(round)) {
                any = true;
                if taken < budget {
                    keep[i] = true;
                    taken += 1;
                }
            }
        }
        if !any {
            break;
        }
        round += 1;
    }
    distinct
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Checks, submits and collects; candidates that do not type-check or whose
/// premise and claim were asked before are skipped.
fn solve(
    worker: &SolverWorker,
    model: &CompiledModel,
    candidates: Vec<Candidate>,
    asked: &mut HashSet<String>,
) -> Vec<Decided> {
    let (reply, replies) = mpsc::channel();
    let mut pending = Vec::new();
    for candidate in candidates {
        let (premise, claim) = (candidate.premise.to_string(), candidate.claim.to_string());
        if !asked.insert(key(&premise, &claim)) {
            continue;
        }
        let (Ok((_, premise_formula)), Ok((_, claim_formula))) =
            (model.check_formula(&premise), model.check_formula(&claim))
        else {
            continue;
        };
        let ticket = worker.submit(premise_formula, claim_formula, reply.clone());
        pending.push((ticket, candidate, premise, claim));
    }
    drop(reply);
    let mut findings: HashMap<u64, Finding> = replies
        .iter()
        .map(|answer| (answer.ticket, answer.finding))
        .collect();
    pending
        .into_iter()
        .filter_map(|(ticket, candidate, premise, claim)| {
            findings.remove(&ticket).map(|finding| Decided {
                candidate,
                premise,
                claim,
                finding,
            })
        })
        .collect()
}

/// Keeps decided findings worth showing: drops TOO_COMPLEX (and the other
/// undecided kinds) and premises that contradict themselves without any rule.
fn worth_keeping(decided: &Decided) -> bool {
    matches!(
        decided.finding.kind,
        FindingKind::Valid
            | FindingKind::Invalid
            | FindingKind::Satisfiable
            | FindingKind::Impossible
    ) && !decided
        .finding
        .warnings
        .contains(&LogicWarning::PremiseAlwaysFalse)
}

/// Drops a test whose finding repeats an earlier one of the same kind with
/// the same claim, finding and rules (keeps the first).
fn dedupe(decided: Vec<Decided>) -> Vec<Decided> {
    let mut seen = HashSet::new();
    decided
        .into_iter()
        .filter(|d| {
            let mut rules = d.finding.rules().to_vec();
            rules.sort();
            seen.insert((
                d.candidate.kind,
                d.claim.clone(),
                d.finding.kind,
                rules.join(","),
            ))
        })
        .collect()
}

fn base_score(d: &Decided, facts: &HashSet<String>) -> f64 {
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

/// splitmix64 of `value` salted with `seed`.
fn mix(seed: u64, value: u64) -> u64 {
    let mut z = value ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Greedy coverage order (see the module docs); at most `max` picks.
fn rank(
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

/// Generates at most `max` tests for `model` (loaded in `worker`), each with
/// a finding proved by the solver, deduplicated and ranked most informative
/// first. Deterministic for a model and seed on a freshly loaded worker.
pub fn generate(
    worker: &SolverWorker,
    model: &CompiledModel,
    max: usize,
    seed: u64,
) -> Vec<GeneratedTest> {
    if max == 0 {
        return Vec::new();
    }
    let budget = MIN_QUESTIONS.max(QUESTIONS_PER_TEST.saturating_mul(max));
    let mut asked = HashSet::new();
    let first = solve(
        worker,
        model,
        within_budget(candidates(model, seed), budget),
        &mut asked,
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
            let name = format!(
                "{}: {}",
                d.candidate.kind.label(),
                if claim_english.is_empty() {
                    d.claim.as_str()
                } else {
                    claim_english.trim_end_matches('.')
                }
            );
            GeneratedTest {
                premise: d.premise,
                claim: d.claim,
                finding: d.finding,
                kind: d.candidate.kind,
                rationale: d.candidate.rationale,
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
/// named after its kind and its claim in English.
pub fn to_proposed(generated: &GeneratedTest, id: String) -> LogicTest {
    let name = if generated.name.is_empty() {
        format!("{}: {}", generated.kind.label(), generated.claim)
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
pub fn reject(test: &mut LogicTest, expected: FindingKind) -> Result<(), String> {
    let Some(proved) = test.proved else {
        return Err(format!(
            "{} was written by hand, not generated; edit its expected finding instead",
            test.id
        ));
    };
    if test.status == TestStatus::Manual {
        return Err(format!("{} is not a generated test", test.id));
    }
    if expected == proved {
        return Err(format!(
            "{} was proved {proved}; expecting {expected} is accepting it, not rejecting it",
            test.id
        ));
    }
    test.expected = expected;
    test.status = TestStatus::Rejected;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::smt::parse_expr;

    fn e(text: &str) -> Expr {
        parse_expr(text).unwrap()
    }

    fn model(smtlib: &str) -> CompiledModel {
        let policy = crate::core::model::import::import_smtlib(smtlib).unwrap();
        let compiled = crate::core::model::compile(&policy);
        assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
        compiled
    }

    const SMALL: &str = "(declare-datatypes ((Age 0)) (((CHILD) (ADULT))))
        (declare-const age Age) (declare-const units Int) (declare-const fee Real)
        (declare-const ok Bool) (declare-const member Bool)
        (assert (= fee (ite (= age CHILD) 5.0 10.0)))
        (assert (= ok (<= units 3)))
        (assert (=> (and member (> units 0)) (< fee 20.5)))";

    #[test]
    fn rules_split_into_guarded_cases() {
        let shown: Vec<String> = cases_of(&model(SMALL))
            .iter()
            .map(|c| format!("{}: {} => {}", c.rule, c.antecedent(), c.conclusion))
            .collect();
        assert_eq!(
            shown,
            vec![
                "R1: (= age CHILD) => (= fee 5.0)",
                "R1: (not (= age CHILD)) => (= fee 10.0)",
                "R2: (<= units 3) => ok",
                "R2: (not (<= units 3)) => (not ok)",
                "R3: (and member (> units 0)) => (< fee 20.5)",
            ]
        );
    }

    #[test]
    fn boundaries_step_by_sort() {
        let candidates = candidates(&model(SMALL), 0);
        let points: Vec<String> = candidates
            .iter()
            .filter(|c| c.kind == CandidateKind::Boundary && c.rules == ["R2"])
            .map(|c| c.premise.to_string())
            .collect();
        assert!(points.contains(&"(= units 2)".to_string()), "{points:?}");
        assert!(points.contains(&"(= units 4)".to_string()), "{points:?}");
        // R3's other condition is held true so the threshold decides.
        assert!(
            candidates
                .iter()
                .any(|c| c.premise.to_string() == "(and member (= units 1))")
        );
    }

    #[test]
    fn the_budget_reaches_every_rule_first() {
        let all = candidates(&model(SMALL), 0);
        let kept = within_budget(all.clone(), 3);
        assert_eq!(kept.len(), 3);
        let rules: BTreeSet<&str> = kept.iter().map(|c| c.rules[0].as_str()).collect();
        assert_eq!(rules.len(), 3, "{kept:?}");
        // Each rule's most telling kind first: R1 has no threshold.
        let kinds: Vec<(&str, CandidateKind)> =
            kept.iter().map(|c| (c.rules[0].as_str(), c.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                ("R2", CandidateKind::Boundary),
                ("R3", CandidateKind::Boundary),
                ("R1", CandidateKind::AntecedentTrue),
            ]
        );
        assert_eq!(within_budget(all.clone(), usize::MAX).len(), {
            let keys: HashSet<String> = all
                .iter()
                .map(|c| key(&c.premise.to_string(), &c.claim.to_string()))
                .collect();
            keys.len()
        });
    }

    #[test]
    fn offsets_fold_into_constants() {
        let one = BigRational::from_integer(1.into());
        assert_eq!(offset(&e("5"), &-one.clone(), true).to_string(), "4");
        assert_eq!(offset(&e("0"), &-one.clone(), true).to_string(), "(- 1)");
        assert_eq!(
            offset(&e("(+ departureDay 90)"), &one, true).to_string(),
            "(+ departureDay 91)"
        );
        assert_eq!(
            offset(&e("x"), &-ten_to_minus(2), false).to_string(),
            "(- x 0.01)"
        );
        assert_eq!(
            offset(&e("5.0"), &ten_to_minus(2), false).to_string(),
            "5.01"
        );
    }

    #[test]
    fn conjunctions_flatten_and_negations_cancel() {
        let both = and_of([e("(and a b)"), e("true"), e("a"), e("c")]);
        assert_eq!(both.to_string(), "(and a b c)");
        assert_eq!(and_of([]).to_string(), "true");
        assert_eq!(not_of(&e("(not a)")).to_string(), "a");
    }

    #[test]
    fn atoms_carry_their_deciding_context() {
        let mut found = Vec::new();
        atoms(&e("(and a (or b c))"), &[], &mut found);
        let shown: Vec<String> = found
            .iter()
            .map(|a| format!("{} | {}", a.atom, and_of(a.context.clone())))
            .collect();
        assert_eq!(
            shown,
            vec!["a | (or b c)", "b | (and a (not c))", "c | (and a (not b))"]
        );
    }
}
