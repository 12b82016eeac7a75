//! Rules split into cases (a guard and a conclusion), the atoms of a
//! guard, and the thresholds a comparison sets, with the points one step
//! below, at and above them.

use std::collections::BTreeSet;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use crate::model::CompiledModel;
use crate::smt::build::*;
use crate::smt::{Expr, ExprKind, Op, Sort};

pub(super) fn sort_of(model: &CompiledModel, e: &Expr) -> Option<Sort> {
    model
        .vocabulary
        .check(&e.to_string(), e)
        .ok()
        .map(|(_, sort)| sort)
}

pub(super) fn variables_of(model: &CompiledModel, e: &Expr) -> BTreeSet<String> {
    e.symbols()
        .into_iter()
        .filter(|s| model.vocabulary.variable_sort(s).is_some())
        .map(str::to_string)
        .collect()
}

#[derive(Debug, Clone)]
pub(super) struct Case {
    pub(super) rule: String,
    /// Conjuncts of the guard; empty for a fact.
    pub(super) guard: Vec<Expr>,
    pub(super) conclusion: Expr,
}

impl Case {
    pub(super) fn antecedent(&self) -> Expr {
        and_of(self.guard.iter().cloned())
    }
}

pub(super) fn split_rule(
    model: &CompiledModel,
    rule: &str,
    expr: &Expr,
    guard: &[Expr],
    out: &mut Vec<Case>,
) {
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

pub(super) fn cases_of(model: &CompiledModel) -> Vec<Case> {
    let mut cases = Vec::new();
    for rule in &model.rules {
        split_rule(model, &rule.id, &rule.written, &[], &mut cases);
    }
    cases
}

/// An atomic condition with the other conditions that make it decisive
/// (siblings true under `and`, false under `or`).
#[derive(Debug, Clone)]
pub(super) struct Atom {
    pub(super) atom: Expr,
    pub(super) context: Vec<Expr>,
}

pub(super) fn atoms(e: &Expr, context: &[Expr], out: &mut Vec<Atom>) {
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

pub(super) fn guard_atoms(guard: &[Expr]) -> Vec<Atom> {
    let mut out = Vec::new();
    if guard.len() == 1 {
        atoms(&guard[0], &[], &mut out);
    } else if !guard.is_empty() {
        atoms(&app(Op::And, guard.to_vec()), &[], &mut out);
    }
    out
}
/// A numeric threshold: `subject` compared with `threshold`.
pub(super) struct Threshold {
    pub(super) subject: Expr,
    pub(super) threshold: Expr,
    /// Both sides are Int: steps of 1.
    pub(super) integer: bool,
    /// The subject is Int (against a Real threshold when `integer` is false).
    pub(super) subject_int: bool,
}

pub(super) fn threshold_of(model: &CompiledModel, atom: &Expr) -> Option<Threshold> {
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
pub(super) fn boundary_points(t: &Threshold, seed: u64) -> Vec<(String, Expr)> {
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
