//! Values as formulas: `v = value` for a scenario value.

use crate::model::finding::Value;
use crate::smt::build::{app, literal, not_of};
use crate::smt::{Expr, ExprKind, Op};
use num_rational::BigRational;

/// `variable = value`; None for an algebraic value (not written exactly).
pub fn equals(variable: &str, value: &Value) -> Option<Expr> {
    let name = Expr::symbol(variable);
    let constant = match value {
        Value::Bool(true) => return Some(name),
        Value::Bool(false) => return Some(not_of(&name)),
        Value::Int(i) => literal(&BigRational::from_integer(i.clone()), true),
        Value::Real(r) => literal(r, false),
        Value::Enum(e) => Expr::new(ExprKind::Symbol(e.clone())),
        Value::Algebraic(_) => return None,
    };
    Some(app(Op::Eq, vec![name, constant]))
}

/// `variable ≠ value`.
pub fn differs(variable: &str, value: &Value) -> Option<Expr> {
    equals(variable, value).map(|e| not_of(&e))
}

/// A sort key that puts numbers in ascending order, false before true.
pub fn order(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Real(x), Value::Real(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    }
}
