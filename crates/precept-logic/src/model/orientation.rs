//! Which way a rule points, from what it means rather than how it is
//! written. The checks that tell conditions from conclusions (gaps,
//! overlaps, vacuity, shadowed exceptions, impossible situations, open
//! decisions, duplicates) read rules through [`orient_group`] or
//! [`oriented_model`], which give the same condition and conclusion for
//! `(=> a b)`, its contrapositive `(=> (not b) (not a))` and their De
//! Morgan forms, with the sides of an `=` in either order.
//!
//! Of a rule and its contrapositive (each with its negations pushed
//! inward), the rule's reading is, in this order:
//! 1. the one that does not go against the rule graph (`rate = 0 ⇒ fee = 0`
//!    where other rules decide the rate from the age class and the fee from
//!    the rate, not `fee ≠ 0 ⇒ rate ≠ 0`), and, between two literals, the
//!    one that concludes what more other rules conclude (`¬adult ⇒ ¬canBook`
//!    beside `resident ⇒ canBook` denies the decision);
//! 2. the one that decides a Boolean or an enum rather than bounding a
//!    number no rule decides: `age < 16 ⇒ ¬canRide`, not
//!    `canRide ⇒ age ≥ 16`;
//! 3. the one with fewer negations and disjunctions (`a ∧ ¬b ⇒ ¬c` stays an
//!    exception, `¬b ⇒ ¬a` reads `a ⇒ b`), which is also how a rule read
//!    alone points;
//! 4. the one whose conclusion sorts first.

use crate::model::PolicyModel;
use crate::smt::{Expr, ExprKind, Op, parse_expr};
use std::collections::{BTreeSet, HashMap};

/// Which reading of an implication is the rule's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    AsWritten,
    Contrapositive,
}

/// How a rule of a group is read: its orientation, and whether nothing but
/// the order of the words chose it (`a ⇒ ¬c` beside rules that tell
/// neither way): such a rule is a constraint between its facts, with no
/// condition and no conclusion of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub orientation: Orientation,
    pub symmetric: bool,
}

/// The rule's condition and conclusion in `orientation`, negations pushed
/// inward; None when `formula` is no implication.
pub fn split_oriented(formula: &Expr, orientation: Orientation) -> Option<(Expr, Expr)> {
    let ExprKind::App(Op::Implies, args) = &formula.kind else {
        return None;
    };
    let (consequent, conditions) = args.split_last()?;
    let antecedent = joined(Op::And, conditions.to_vec());
    Some(match orientation {
        Orientation::AsWritten => (normal(&antecedent, true), normal(consequent, true)),
        Orientation::Contrapositive => (normal(consequent, false), normal(&antecedent, false)),
    })
}

/// The condition and conclusion of a rule read alone: the less awkward
/// reading, as written on a tie.
pub fn split_implication(formula: &Expr) -> Option<(Expr, Expr)> {
    let orientation = match preference(formula)? {
        Some(orientation) => orientation,
        None => Orientation::AsWritten,
    };
    split_oriented(formula, orientation)
}

/// Each formula's orientation (None for a rule that is no implication):
/// the reading that goes downstream in the rule graph, then the one that
/// decides a Boolean rather than bounding an undecided number, then the
/// less awkward one, then the one whose conclusion sorts first.
pub fn orient_group(
    formulas: &[&Expr],
    is_variable: &dyn Fn(&str) -> bool,
) -> Vec<Option<Reading>> {
    // Each rule read alone: the variables of its condition and conclusion.
    let alone: Vec<Option<(BTreeSet<String>, BTreeSet<String>)>> = formulas
        .iter()
        .map(|f| {
            let (condition, conclusion) = split_oriented(f, preference(f)??)?;
            Some((
                mentioned(&condition, is_variable),
                variables(&conclusion, is_variable),
            ))
        })
        .collect();
    let concluded: BTreeSet<&String> = alone.iter().flatten().flat_map(|(_, k)| k).collect();
    let rank = ranks(&alone);
    // Each variable's level by each rule that concludes it.
    let mut levels: HashMap<&String, Vec<(usize, usize)>> = HashMap::new();
    for (r, (condition, conclusion)) in alone
        .iter()
        .enumerate()
        .filter_map(|(r, a)| Some((r, a.as_ref()?)))
    {
        let above = condition
            .iter()
            .map(|v| rank.get(v).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        for v in conclusion {
            levels.entry(v).or_default().push((r, above + 1));
        }
    }
    // Each variable's level and how many rules conclude it, by the rules
    // other than `own`; None for the level of one no other rule concludes.
    let placed = |v: &String, own: usize| -> (Option<usize>, usize) {
        let others: Vec<usize> = levels
            .get(v)
            .into_iter()
            .flatten()
            .filter(|(r, _)| *r != own)
            .map(|(_, l)| *l)
            .collect();
        (others.iter().copied().max(), others.len())
    };
    formulas
        .iter()
        .enumerate()
        .map(|(own, formula)| {
            let preferred = preference(formula)?;
            let literal_conclusions = [Orientation::AsWritten, Orientation::Contrapositive]
                .iter()
                .all(|&o| split_oriented(formula, o).is_some_and(|(_, c)| is_literal(&c)));
            let score = |orientation| {
                let (condition, conclusion) =
                    split_oriented(formula, orientation).expect("an implication");
                let concluded_here = variables(&conclusion, is_variable);
                let read = mentioned(&condition, is_variable);
                let upstream = read
                    .iter()
                    .filter_map(|v| placed(v, own).0)
                    .max()
                    .unwrap_or(0);
                // Against the grain: it concludes what other rules place
                // above what it reads.
                let against = concluded_here
                    .iter()
                    .filter(|v| placed(v, own).0.is_some_and(|l| l < upstream))
                    .count();
                // Between a denial and a requirement, the reading that
                // concludes what more other rules conclude.
                let concluders = |vs: &BTreeSet<String>| -> isize {
                    vs.iter().map(|v| placed(v, own).1 as isize).sum()
                };
                let decides = match literal_conclusions {
                    true => concluders(&concluded_here) - concluders(&read),
                    false => 0,
                };
                let awkward = preferred.is_some_and(|p| p != orientation);
                (
                    (std::cmp::Reverse(against), decides),
                    // A bound on a number no rule decides is a condition; a
                    // rule decides a Boolean or an enum.
                    std::cmp::Reverse(bounds_on_inputs(&conclusion, &|v| {
                        is_variable(v) && !concluded.contains(&v.to_string())
                    })),
                    !awkward,
                    std::cmp::Reverse(conclusion.to_string()),
                )
            };
            let (written, contrapositive) = (
                score(Orientation::AsWritten),
                score(Orientation::Contrapositive),
            );
            // Told apart only by how the conclusion sorts: the rule reads
            // the same both ways.
            let symmetric = (&written.0, &written.1, written.2)
                == (&contrapositive.0, &contrapositive.1, contrapositive.2);
            Some(Reading {
                orientation: match written >= contrapositive {
                    true => Orientation::AsWritten,
                    false => Orientation::Contrapositive,
                },
                symmetric,
            })
        })
        .collect()
}

/// `model` with each rule that is written against the way it points (a
/// contrapositive, a negated `and` or `or`) rewritten the way it points;
/// every other rule, and every rule that does not parse, as it was.
pub fn oriented_model(model: &PolicyModel) -> PolicyModel {
    let parsed: Vec<Option<Expr>> = model
        .rules
        .iter()
        .map(|r| parse_expr(&r.expression).ok())
        .collect();
    let formulas: Vec<&Expr> = parsed.iter().flatten().collect();
    let variables: std::collections::HashSet<&str> =
        model.variables.iter().map(|v| v.name.as_str()).collect();
    let is_variable = |s: &str| variables.contains(s);
    let mut orientations = orient_group(&formulas, &is_variable).into_iter();
    let mut oriented = model.clone();
    for (rule, expr) in oriented.rules.iter_mut().zip(&parsed) {
        let Some(expr) = expr else { continue };
        let Some(Reading { orientation, .. }) = orientations.next().flatten() else {
            continue;
        };
        if orientation == Orientation::AsWritten && !negates_a_connective(expr) {
            continue;
        }
        if let Some((condition, conclusion)) = split_oriented(expr, orientation) {
            rule.expression = Expr::app(Op::Implies, vec![condition, conclusion]).to_string();
        }
    }
    oriented
}

/// Whether a `not` stands over an `and`, an `or`, an `=>` or a `not`.
fn negates_a_connective(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::App(Op::Not, args) => args.iter().any(|a| {
            matches!(
                a.kind,
                ExprKind::App(Op::And | Op::Or | Op::Implies | Op::Not, _)
            ) || negates_a_connective(a)
        }),
        ExprKind::App(_, args) => args.iter().any(negates_a_connective),
        _ => false,
    }
}

/// How far downstream each variable is in the graph of the rules read
/// alone: 0 for one no rule concludes, else one more than the conditions
/// of the rules that conclude it (cycles are cut at a fixed depth).
fn ranks(rules: &[Option<(BTreeSet<String>, BTreeSet<String>)>]) -> HashMap<String, usize> {
    const DEEPEST: usize = 32;
    let mut rank: HashMap<String, usize> = HashMap::new();
    for _ in 0..DEEPEST {
        let mut changed = false;
        for (condition, conclusion) in rules.iter().flatten() {
            let above = condition
                .iter()
                .map(|v| rank.get(v).copied().unwrap_or(0))
                .max()
                .unwrap_or(0);
            let level = (above + 1).min(DEEPEST);
            for v in conclusion {
                let current = rank.entry(v.clone()).or_default();
                if *current < level {
                    *current = level;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    rank
}

/// The less awkward reading; `Some(None)` on a tie, None when
/// `formula` is no implication.
fn preference(formula: &Expr) -> Option<Option<Orientation>> {
    let count = |orientation| {
        split_oriented(formula, orientation).map(|(a, c)| awkwardness(&a) + awkwardness(&c))
    };
    let (written, contrapositive) = (
        count(Orientation::AsWritten)?,
        count(Orientation::Contrapositive)?,
    );
    Some(match written.cmp(&contrapositive) {
        std::cmp::Ordering::Less => Some(Orientation::AsWritten),
        std::cmp::Ordering::Greater => Some(Orientation::Contrapositive),
        std::cmp::Ordering::Equal => None,
    })
}

/// Whether `expr` states one fact or its negation: a Boolean, an enum's
/// value, an equation; not a bound (`(<= x 3)`) and not a combination.
fn is_literal(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::App(Op::Not, args) => args.len() == 1 && is_literal(&args[0]),
        ExprKind::App(
            Op::And | Op::Or | Op::Implies | Op::Ite | Op::Le | Op::Lt | Op::Ge | Op::Gt,
            _,
        ) => false,
        _ => true,
    }
}

/// Every variable `expr` mentions, bounded or not.
fn mentioned(expr: &Expr, is_variable: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    expr.symbols()
        .into_iter()
        .filter(|s| is_variable(s))
        .map(str::to_string)
        .collect()
}

/// The variables `expr` states outright: not those it only bounds
/// (`(<= amount 30)` decides nothing about the amount).
fn variables(expr: &Expr, is_variable: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    match &expr.kind {
        ExprKind::App(Op::Le | Op::Lt | Op::Ge | Op::Gt, _) => BTreeSet::new(),
        ExprKind::App(_, args) => args
            .iter()
            .flat_map(|a| variables(a, is_variable))
            .collect(),
        ExprKind::Symbol(s) if is_variable(s) => BTreeSet::from([s.clone()]),
        _ => BTreeSet::new(),
    }
}

/// How far a reading is from how rules are stated: each negation counts
/// one, each disjunction two (`a ∧ ¬b ⇒ ¬c` reads better than its
/// contrapositive `c ⇒ ¬a ∨ b`).
fn awkwardness(expr: &Expr) -> usize {
    match &expr.kind {
        ExprKind::App(Op::Not, args) => 1 + args.iter().map(awkwardness).sum::<usize>(),
        ExprKind::App(Op::Or, args) => 2 + args.iter().map(awkwardness).sum::<usize>(),
        ExprKind::App(_, args) => args.iter().map(awkwardness).sum(),
        _ => 0,
    }
}

/// The thresholds in `expr`: comparisons (`<=`, `<`, `>=`, `>`) of one
/// `input` number with a constant (`(>= age 16)`, not `(>= a (+ b 3))`).
fn bounds_on_inputs(expr: &Expr, input: &dyn Fn(&str) -> bool) -> usize {
    match &expr.kind {
        ExprKind::App(Op::Le | Op::Lt | Op::Ge | Op::Gt, _) => {
            let symbols = expr.symbols();
            usize::from(symbols.len() == 1 && symbols.iter().all(|s| input(s)))
        }
        ExprKind::App(_, args) => args.iter().map(|a| bounds_on_inputs(a, input)).sum(),
        _ => 0,
    }
}

/// `(not expr)` with the negation pushed inward: `¬(¬a ∧ ¬b)` is `a ∨ b`.
pub fn negation_of(expr: &Expr) -> Expr {
    normal(expr, false)
}

fn joined(op: Op, mut parts: Vec<Expr>) -> Expr {
    match parts.len() {
        1 => parts.remove(0),
        _ => Expr::app(op, parts),
    }
}

/// `expr` (negated unless `positive`) with negations pushed inward through
/// `and`, `or` and `=>`, double negations gone, nested `and`s and `or`s
/// flattened, and the sides of `=` in one order.
fn normal(expr: &Expr, positive: bool) -> Expr {
    let flat = |op: Op, args: Vec<Expr>| {
        let mut parts = Vec::new();
        for arg in args {
            match arg.kind {
                ExprKind::App(inner, nested) if inner == op => parts.extend(nested),
                _ => parts.push(arg),
            }
        }
        joined(op, parts)
    };
    match &expr.kind {
        ExprKind::App(Op::Not, args) if args.len() == 1 => normal(&args[0], !positive),
        ExprKind::App(op @ (Op::And | Op::Or), args) => {
            let op = match (op, positive) {
                (Op::And, true) | (Op::Or, false) => Op::And,
                _ => Op::Or,
            };
            flat(op, args.iter().map(|a| normal(a, positive)).collect())
        }
        ExprKind::App(Op::Implies, args) => {
            // a ⇒ b is ¬a ∨ b.
            let (conclusion, conditions) = args.split_last().expect("=> has arguments");
            let mut parts: Vec<Expr> = conditions.iter().map(|c| normal(c, false)).collect();
            parts.push(normal(conclusion, true));
            match positive {
                true => flat(Op::Or, parts),
                false => flat(Op::And, parts.iter().map(|p| normal(p, false)).collect()),
            }
        }
        ExprKind::App(Op::Eq, args) if args.len() == 2 => {
            let mut sides = args.to_vec();
            if sides[0].to_string() > sides[1].to_string() {
                sides.swap(0, 1);
            }
            literal(Expr::app(Op::Eq, sides), positive)
        }
        _ => literal(expr.clone(), positive),
    }
}

fn literal(atom: Expr, positive: bool) -> Expr {
    match positive {
        true => atom,
        false => Expr::app(Op::Not, vec![atom]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    fn split(text: &str) -> Option<(String, String)> {
        split_implication(&parse_expr(text).unwrap()).map(|(a, c)| (a.to_string(), c.to_string()))
    }

    #[test]
    fn equivalent_forms_of_a_rule_point_the_same_way() {
        for form in [
            "(=> (and a b) c)",
            "(=> (not c) (not (and a b)))",
            "(=> (not c) (or (not a) (not b)))",
            "(=> (not (or (not a) (not b))) c)",
            "(=> a b c)",
        ] {
            assert_eq!(
                split(form),
                Some(("(and a b)".into(), "c".into())),
                "{form}"
            );
        }
        // An exception stays one, and so does a disjunction of requirements.
        assert_eq!(
            split("(=> (not c) (or (not a) b))"),
            Some(("(and a (not b))".into(), "c".into()))
        );
        assert_eq!(
            split("(=> (and a (not b)) (not c))"),
            Some(("(and a (not b))".into(), "(not c)".into()))
        );
        assert_eq!(
            split("(=> x (or a b))"),
            Some(("x".into(), "(or a b)".into()))
        );
        assert_eq!(split("(=> (= k A) x)"), split("(=> (not x) (not (= A k)))"));
        assert_eq!(split("(= x 3)"), None);
    }

    #[test]
    fn a_tie_goes_by_what_the_other_rules_conclude() {
        let rules: Vec<Expr> = ["(=> a (not c))", "(=> b c)", "(=> c (not d))"]
            .iter()
            .map(|t| parse_expr(t).unwrap())
            .collect();
        let contrapositive: Vec<Expr> =
            ["(=> c (not a))", "(=> (not c) (not b))", "(=> d (not c))"]
                .iter()
                .map(|t| parse_expr(t).unwrap())
                .collect();
        let is_variable = |_: &str| true;
        let read = |rules: &[Expr]| -> Vec<(String, String)> {
            let formulas: Vec<&Expr> = rules.iter().collect();
            orient_group(&formulas, &is_variable)
                .into_iter()
                .zip(rules)
                .map(|(o, r)| {
                    let (a, c) = split_oriented(r, o.unwrap().orientation).unwrap();
                    (a.to_string(), c.to_string())
                })
                .collect()
        };
        let expected = vec![
            ("a".to_string(), "(not c)".to_string()),
            ("b".to_string(), "c".to_string()),
            ("d".to_string(), "(not c)".to_string()),
        ];
        assert_eq!(read(&rules), expected);
        assert_eq!(read(&contrapositive), expected);
    }
}
