//! The plain facts an impossible-situation search (L210) combines: a Bool
//! input true or false, an enum input at one of its values, and a number
//! input on either side of a threshold the rules' conditions compare it
//! with ("the donation is at most £30").

use crate::model::CompiledModel;
use crate::smt::{Expr, ExprKind, Op, Sort};
use crate::solve::Value;
use num_rational::BigRational;
use num_traits::One;
use std::collections::BTreeSet;

/// The most thresholds of one number input tried.
const MAX_BOUNDS_PER_INPUT: usize = 4;

/// One input fact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Fact {
    pub(super) variable: String,
    pub(super) value: FactValue,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum FactValue {
    Bool(bool),
    Enum(String),
    /// `variable <relation> bound` holds (or, when `holds` is false, not).
    Bound {
        relation: Relation,
        bound: BigRational,
        integer: bool,
        holds: bool,
    },
}

/// A comparison with the variable on the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Relation {
    AtMost,
    Under,
    AtLeast,
    Over,
}

impl Relation {
    fn op(self) -> Op {
        match self {
            Relation::AtMost => Op::Le,
            Relation::Under => Op::Lt,
            Relation::AtLeast => Op::Ge,
            Relation::Over => Op::Gt,
        }
    }

    /// The relation with its sides swapped: `c <= x` is `x >= c`.
    fn flipped(self) -> Relation {
        match self {
            Relation::AtMost => Relation::AtLeast,
            Relation::Under => Relation::Over,
            Relation::AtLeast => Relation::AtMost,
            Relation::Over => Relation::Under,
        }
    }

    /// The relation that holds exactly when this one does not.
    fn negated(self) -> Relation {
        match self {
            Relation::AtMost => Relation::Over,
            Relation::Under => Relation::AtLeast,
            Relation::AtLeast => Relation::Under,
            Relation::Over => Relation::AtMost,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Relation::AtMost => "≤",
            Relation::Under => "<",
            Relation::AtLeast => "≥",
            Relation::Over => ">",
        }
    }
}

impl FactValue {
    /// A bound's relation as it holds, with its number; None for any other
    /// fact.
    pub(super) fn bound(&self) -> Option<(Relation, &BigRational)> {
        match self {
            FactValue::Bound { bound, .. } => Some((self.relation()?, bound)),
            _ => None,
        }
    }

    /// A bound's relation as it holds (negated when the fact is that the
    /// bound does not hold).
    fn relation(&self) -> Option<Relation> {
        match self {
            FactValue::Bound {
                relation, holds, ..
            } => Some(if *holds {
                *relation
            } else {
                relation.negated()
            }),
            _ => None,
        }
    }
}

impl Fact {
    pub(super) fn expr(&self) -> Expr {
        let variable = Expr::symbol(&self.variable);
        match &self.value {
            FactValue::Bool(true) => variable,
            FactValue::Bool(false) => Expr::app(Op::Not, vec![variable]),
            FactValue::Enum(value) => Expr::app(Op::Eq, vec![variable, Expr::symbol(value)]),
            FactValue::Bound { bound, integer, .. } => {
                let relation = self.value.relation().expect("a bound");
                let bound = match integer {
                    true => Expr::new(ExprKind::Int(bound.to_integer())),
                    false => Expr::new(ExprKind::Decimal(bound.clone())),
                };
                Expr::app(relation.op(), vec![variable, bound])
            }
        }
    }

    /// A value of the variable for which the fact holds (for a bound, the
    /// threshold or the nearest whole step past it).
    pub(super) fn value(&self) -> Value {
        match &self.value {
            FactValue::Bool(b) => Value::Bool(*b),
            FactValue::Enum(v) => Value::Enum(v.clone()),
            FactValue::Bound { bound, integer, .. } => {
                let relation = self.value.relation().expect("a bound");
                let one = BigRational::one();
                let witness = match relation {
                    Relation::AtMost | Relation::AtLeast => bound.clone(),
                    Relation::Under => bound - one,
                    Relation::Over => bound + one,
                };
                match integer {
                    true => Value::Int(witness.to_integer()),
                    false => Value::Real(witness),
                }
            }
        }
    }

    pub(super) fn show(&self) -> String {
        match &self.value {
            FactValue::Bool(b) => format!("{} = {b}", self.variable),
            FactValue::Enum(v) => format!("{} = {v}", self.variable),
            FactValue::Bound { bound, .. } => {
                let relation = self.value.relation().expect("a bound");
                let bound = crate::smt::number::finite_decimal(bound, true)
                    .unwrap_or_else(|| bound.to_string());
                format!("{} {} {bound}", self.variable, relation.symbol())
            }
        }
    }
}

/// The facts of input `name`: a Bool's two values, an enum's values, a
/// number's sides of each threshold `conditions` compare it with.
pub(super) fn facts_of(
    model: &CompiledModel,
    name: &str,
    sort: &Sort,
    conditions: &[Expr],
) -> Vec<Fact> {
    let fact = |value| Fact {
        variable: name.to_string(),
        value,
    };
    match sort {
        Sort::Bool => vec![fact(FactValue::Bool(true)), fact(FactValue::Bool(false))],
        Sort::Enum(type_name) => model
            .enums
            .iter()
            .find(|(n, _)| n == type_name)
            .map(|(_, values)| {
                values
                    .iter()
                    .map(|v| fact(FactValue::Enum(v.clone())))
                    .collect()
            })
            .unwrap_or_default(),
        Sort::Int | Sort::Real => {
            let mut bounds = BTreeSet::new();
            for condition in conditions {
                thresholds(condition, name, &mut bounds);
            }
            bounds
                .into_iter()
                .take(MAX_BOUNDS_PER_INPUT)
                .flat_map(|(relation, bound)| {
                    [true, false].map(|holds| {
                        fact(FactValue::Bound {
                            relation,
                            bound: bound.clone(),
                            integer: *sort == Sort::Int,
                            holds,
                        })
                    })
                })
                .collect()
        }
    }
}

/// The comparisons of `name` with a number anywhere in `expr`.
fn thresholds(expr: &Expr, name: &str, out: &mut BTreeSet<(Relation, BigRational)>) {
    let ExprKind::App(op, args) = &expr.kind else {
        return;
    };
    let relation = match op {
        Op::Le => Some(Relation::AtMost),
        Op::Lt => Some(Relation::Under),
        Op::Ge => Some(Relation::AtLeast),
        Op::Gt => Some(Relation::Over),
        _ => None,
    };
    if let (Some(relation), [left, right]) = (relation, args.as_slice()) {
        match (
            is_variable(left, name),
            number(right),
            number(left),
            is_variable(right, name),
        ) {
            (true, Some(bound), _, _) => {
                out.insert((relation, bound));
            }
            (_, _, Some(bound), true) => {
                out.insert((relation.flipped(), bound));
            }
            _ => {}
        }
        return;
    }
    args.iter().for_each(|a| thresholds(a, name, out));
}

fn is_variable(expr: &Expr, name: &str) -> bool {
    match &expr.kind {
        ExprKind::Symbol(s) => s == name,
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => is_variable(&args[0], name),
        _ => false,
    }
}

fn number(expr: &Expr) -> Option<BigRational> {
    match &expr.kind {
        ExprKind::Int(n) => Some(BigRational::from_integer(n.clone())),
        ExprKind::Decimal(d) => Some(d.clone()),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => number(&args[0]),
        _ => None,
    }
}
