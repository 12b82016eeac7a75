//! A cheap look at a rule's condition before the solver's: the bounds its
//! top-level conjuncts put on single variables (`(>= age 18.0)`,
//! `(= tier GOLD)`, `isMember`). Two conditions whose bounds cannot meet
//! can never hold together, so the pairwise overlap check skips them
//! without a solver call (a decision table of thousands of rows is mostly
//! such pairs). Anything else in a condition is ignored, which only makes
//! the box larger: the test never wrongly says "disjoint".

use crate::smt::{Expr, ExprKind, Op};
use num_rational::BigRational;
use std::cmp::Ordering;
use std::collections::HashMap;

type Bound = Option<(BigRational, bool)>;

#[derive(Debug, Clone, Default)]
pub(super) struct ConditionBox {
    /// Lower and upper bound of numeric variables (value, inclusive).
    ranges: HashMap<String, (Bound, Bound)>,
    /// Enum variables fixed to a value, Bool variables to true or false.
    fixed: HashMap<String, String>,
}

fn constant(expr: &Expr) -> Option<BigRational> {
    match &expr.kind {
        ExprKind::Int(n) => Some(BigRational::from_integer(n.clone())),
        ExprKind::Decimal(d) => Some(d.clone()),
        ExprKind::App(Op::Sub, args) if args.len() == 1 => Some(-constant(&args[0])?),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => constant(&args[0]),
        _ => None,
    }
}

fn variable<'a>(expr: &'a Expr, is_variable: &dyn Fn(&str) -> bool) -> Option<&'a str> {
    match &expr.kind {
        ExprKind::Symbol(name) if is_variable(name) => Some(name),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => variable(&args[0], is_variable),
        _ => None,
    }
}

fn tighter_low(a: &Bound, b: &Bound) -> Bound {
    match (a, b) {
        (Some(x), Some(y)) => Some(match x.0.cmp(&y.0) {
            Ordering::Greater => x.clone(),
            Ordering::Less => y.clone(),
            Ordering::Equal => (x.0.clone(), x.1 && y.1),
        }),
        (x, y) => x.clone().or(y.clone()),
    }
}

fn tighter_high(a: &Bound, b: &Bound) -> Bound {
    match (a, b) {
        (Some(x), Some(y)) => Some(match x.0.cmp(&y.0) {
            Ordering::Less => x.clone(),
            Ordering::Greater => y.clone(),
            Ordering::Equal => (x.0.clone(), x.1 && y.1),
        }),
        (x, y) => x.clone().or(y.clone()),
    }
}

fn empty(low: &Bound, high: &Bound) -> bool {
    match (low, high) {
        (Some(l), Some(h)) => match l.0.cmp(&h.0) {
            Ordering::Greater => true,
            Ordering::Equal => !(l.1 && h.1),
            Ordering::Less => false,
        },
        _ => false,
    }
}

impl ConditionBox {
    pub(super) fn of(condition: &Expr, is_variable: &dyn Fn(&str) -> bool) -> ConditionBox {
        let mut found = ConditionBox::default();
        found.add(condition, is_variable);
        found
    }

    fn add(&mut self, conjunct: &Expr, is_variable: &dyn Fn(&str) -> bool) {
        let ExprKind::App(op, args) = &conjunct.kind else {
            if let Some(name) = variable(conjunct, is_variable) {
                self.fixed.insert(name.to_string(), "true".into());
            }
            return;
        };
        match (op, args.as_slice()) {
            (Op::And, parts) => {
                for part in parts {
                    self.add(part, is_variable);
                }
            }
            (Op::Not, [inner]) => {
                if let Some(name) = variable(inner, is_variable) {
                    self.fixed.insert(name.to_string(), "false".into());
                }
            }
            (Op::Eq, [a, b]) => {
                if let (Some(name), ExprKind::Symbol(value)) = (variable(a, is_variable), &b.kind)
                    && !is_variable(value)
                {
                    self.fixed.insert(name.to_string(), value.clone());
                } else {
                    self.bound(Op::Eq, a, b, is_variable);
                }
            }
            (Op::Lt | Op::Le | Op::Gt | Op::Ge, [a, b]) => self.bound(*op, a, b, is_variable),
            _ => {}
        }
    }

    fn bound(&mut self, op: Op, a: &Expr, b: &Expr, is_variable: &dyn Fn(&str) -> bool) {
        let (name, value, op) = match (variable(a, is_variable), constant(b)) {
            (Some(name), Some(value)) => (name, value, op),
            _ => match (constant(a), variable(b, is_variable)) {
                (Some(value), Some(name)) => {
                    let flipped = match op {
                        Op::Lt => Op::Gt,
                        Op::Le => Op::Ge,
                        Op::Gt => Op::Lt,
                        Op::Ge => Op::Le,
                        other => other,
                    };
                    (name, value, flipped)
                }
                _ => return,
            },
        };
        let (low, high): (Bound, Bound) = match op {
            Op::Lt => (None, Some((value, false))),
            Op::Le => (None, Some((value, true))),
            Op::Gt => (Some((value, false)), None),
            Op::Ge => (Some((value, true)), None),
            _ => (Some((value.clone(), true)), Some((value, true))),
        };
        let entry = self.ranges.entry(name.to_string()).or_default();
        *entry = (tighter_low(&entry.0, &low), tighter_high(&entry.1, &high));
    }

    /// Whether no assignment can satisfy both boxes.
    pub(super) fn disjoint(&self, other: &ConditionBox) -> bool {
        let fixed_apart = self
            .fixed
            .iter()
            .any(|(name, value)| other.fixed.get(name).is_some_and(|v| v != value));
        fixed_apart
            || self.ranges.iter().any(|(name, (low, high))| {
                other
                    .ranges
                    .get(name)
                    .is_some_and(|(l2, h2)| empty(&tighter_low(low, l2), &tighter_high(high, h2)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    fn boxed(text: &str) -> ConditionBox {
        let is_variable = |s: &str| !s.chars().next().is_some_and(char::is_uppercase);
        ConditionBox::of(&parse_expr(text).unwrap(), &is_variable)
    }

    #[test]
    fn bounds_that_cannot_meet_are_disjoint_and_nothing_else() {
        let adult = boxed("(and (>= age 18.0) (= risk Medium) ok)");
        assert!(adult.disjoint(&boxed("(and (< age 18.0) ok)")));
        assert!(adult.disjoint(&boxed("(= risk Low)")));
        assert!(adult.disjoint(&boxed("(not ok)")));
        assert!(!adult.disjoint(&boxed("(and (<= age 18.0) ok)")));
        assert!(!adult.disjoint(&boxed("(or (< age 18.0) (> age 60.0))")));
        assert!(boxed("(and (<= 15.0 y) (< y 30.0))").disjoint(&boxed("(>= y 30.0)")));
        assert!(!boxed("(> x (- 5))").disjoint(&boxed("(>= x 0)")));
        assert!(boxed("(> x (- 5))").disjoint(&boxed("(<= x (- 5))")));
    }
}
