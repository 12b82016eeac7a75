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
//! 1. between readings without disjunctions, the one that concludes what
//!    the other rules conclude: `¬adult ⇒ ¬canBook` beside
//!    `resident ⇒ canBook` denies the decision;
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
/// the reading that concludes what the other rules conclude (and reads as
/// conditions what they do not), then the less awkward one, then the one
/// whose conclusion sorts first.
pub fn orient_group(
    formulas: &[&Expr],
    is_variable: &dyn Fn(&str) -> bool,
) -> Vec<Option<Orientation>> {
    // What each rule concludes read alone, counted per variable.
    let alone: Vec<Option<BTreeSet<String>>> = formulas
        .iter()
        .map(|f| {
            let (_, conclusion) = split_oriented(f, preference(f)??)?;
            Some(variables(&conclusion, is_variable))
        })
        .collect();
    let mut concluders: HashMap<String, usize> = HashMap::new();
    for variables in alone.iter().flatten() {
        for v in variables {
            *concluders.entry(v.clone()).or_default() += 1;
        }
    }
    formulas
        .iter()
        .zip(&alone)
        .map(|(formula, own)| {
            let preferred = preference(formula)?;
            // How many other rules conclude the variables of `e`.
            let others = |e: &Expr| -> isize {
                variables(e, is_variable)
                    .iter()
                    .map(|v| {
                        let all = concluders.get(v).copied().unwrap_or(0);
                        let mine = own.as_ref().is_some_and(|o| o.contains(v)) as usize;
                        (all - mine) as isize
                    })
                    .sum()
            };
            // The graph decides between readings of literals only: a rule
            // with a disjunction keeps its less awkward reading.
            let plain = [Orientation::AsWritten, Orientation::Contrapositive]
                .iter()
                .all(|&o| {
                    split_oriented(formula, o).is_some_and(|(a, c)| !has_or(&a) && !has_or(&c))
                });
            let score = |orientation| {
                let (condition, conclusion) =
                    split_oriented(formula, orientation).expect("an implication");
                let graph = match plain {
                    true => others(&conclusion) - others(&condition),
                    false => 0,
                };
                let awkward = preferred.is_some_and(|p| p != orientation);
                (
                    graph,
                    // A bound on a number no rule decides is a condition; a
                    // rule decides a Boolean or an enum.
                    std::cmp::Reverse(bounds_on_inputs(&conclusion, &|v| {
                        is_variable(v) && !concluders.contains_key(v)
                    })),
                    !awkward,
                    std::cmp::Reverse(conclusion.to_string()),
                )
            };
            Some(
                match score(Orientation::AsWritten) >= score(Orientation::Contrapositive) {
                    true => Orientation::AsWritten,
                    false => Orientation::Contrapositive,
                },
            )
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
    let is_variable = |s: &str| model.variable(s).is_some();
    let mut orientations = orient_group(&formulas, &is_variable).into_iter();
    let mut oriented = model.clone();
    for (rule, expr) in oriented.rules.iter_mut().zip(&parsed) {
        let Some(expr) = expr else { continue };
        let Some(orientation) = orientations.next().flatten() else {
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

fn has_or(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::App(Op::Or, _) => true,
        ExprKind::App(_, args) => args.iter().any(has_or),
        _ => false,
    }
}

/// The comparisons (`<=`, `<`, `>=`, `>`) in `expr` of numbers that are
/// all `input`s.
fn bounds_on_inputs(expr: &Expr, input: &dyn Fn(&str) -> bool) -> usize {
    match &expr.kind {
        ExprKind::App(Op::Le | Op::Lt | Op::Ge | Op::Gt, _) => {
            let symbols = expr.symbols();
            usize::from(!symbols.is_empty() && symbols.iter().all(|s| input(s)))
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
                    let (a, c) = split_oriented(r, o.unwrap()).unwrap();
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
