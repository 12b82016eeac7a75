//! Building expressions of the fragment: conjunctions and negations that
//! stay readable (no `(and)` of one, no double negation), exact numeric
//! literals, and terms moved by a constant (`x + δ`), as test generation
//! needs them.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::{Expr, ExprKind, Op};

pub fn app(op: Op, args: Vec<Expr>) -> Expr {
    Expr::app(op, args)
}

pub fn truth() -> Expr {
    Expr::new(ExprKind::Bool(true))
}

/// The conjuncts of `e`, nested `and`s flattened.
pub fn conjuncts(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::App(Op::And, args) => args.iter().for_each(|a| conjuncts(a, out)),
        ExprKind::Bool(true) => {}
        _ => out.push(e.clone()),
    }
}

/// A conjunction, flattened, without `true` or repeated conjuncts.
pub fn and_of(parts: impl IntoIterator<Item = Expr>) -> Expr {
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
pub fn not_of(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::App(Op::Not, args) if args.len() == 1 => args[0].clone(),
        ExprKind::Bool(value) => Expr::new(ExprKind::Bool(!value)),
        _ => app(Op::Not, vec![e.clone()]),
    }
}

/// The negation of a conjunction of conditions, readable: one condition is
/// negated directly.
pub fn not_all(conditions: &[Expr]) -> Expr {
    not_of(&and_of(conditions.iter().cloned()))
}

/// The value of a constant term (numerals, unary minus, arithmetic on constants).
pub fn constant(e: &Expr) -> Option<BigRational> {
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
pub fn literal(value: &BigRational, integer: bool) -> Expr {
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
pub fn offset(term: &Expr, delta: &BigRational, integer: bool) -> Expr {
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

pub fn shift(term: Expr, delta: &BigRational, integer: bool) -> Expr {
    if delta.is_zero() {
        term
    } else if delta.is_negative() {
        app(Op::Sub, vec![term, literal(&-delta.clone(), integer)])
    } else {
        app(Op::Add, vec![term, literal(delta, integer)])
    }
}

/// The number of decimal places a constant is written with (capped).
pub fn decimal_places(value: &BigRational) -> u32 {
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

pub fn ten_to_minus(places: u32) -> BigRational {
    BigRational::new(BigInt::from(1u32), BigInt::from(10u32).pow(places))
}

pub fn show_value(value: &BigRational, integer: bool) -> String {
    crate::smt::number::finite_decimal(value, integer)
        .unwrap_or_else(|| literal(value, integer).to_string())
}

// ---------------------------------------------------------------------------
// Cases: rules split into guard ⇒ conclusion
