//! Exact evaluation of an elaborated formula under known values, in plain
//! Rust (numbers as exact rationals). An answer is given only when it is
//! certain: an unknown name, an irrational value or a division by zero (which
//! SMT-LIB leaves unspecified) makes the part that needs it unknown, and an
//! `and`, `or` or `=>` still answers when a known part settles it.

use crate::model::finding::Value;
use crate::smt::{Expr, ExprKind, Op};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// A value during evaluation: Int and Real are both exact rationals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Known {
    Bool(bool),
    Number(BigRational),
    Enum(String),
}

impl Known {
    /// A scenario value; None for an irrational one.
    pub fn of(value: &Value) -> Option<Known> {
        Some(match value {
            Value::Bool(b) => Known::Bool(*b),
            Value::Int(i) => Known::Number(BigRational::from_integer(i.clone())),
            Value::Real(r) => Known::Number(r.clone()),
            Value::Enum(e) => Known::Enum(e.clone()),
            Value::Algebraic(_) => return None,
        })
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Known::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&BigRational> {
        match self {
            Known::Number(n) => Some(n),
            _ => None,
        }
    }
}

/// Whether `formula` is true, given each name's value by `lookup` (an enum
/// value's name looks up to itself); None when that cannot be told.
pub fn holds(formula: &Expr, lookup: &dyn Fn(&str) -> Option<Known>) -> Option<bool> {
    evaluate(formula, lookup)?.as_bool()
}

/// The value of `expr`, when it can be told exactly.
pub fn evaluate(expr: &Expr, lookup: &dyn Fn(&str) -> Option<Known>) -> Option<Known> {
    match &expr.kind {
        ExprKind::Bool(b) => Some(Known::Bool(*b)),
        ExprKind::Int(i) => Some(Known::Number(BigRational::from_integer(i.clone()))),
        ExprKind::Decimal(r) => Some(Known::Number(r.clone())),
        ExprKind::Symbol(name) => lookup(name),
        ExprKind::App(op, args) => apply(*op, args, lookup),
    }
}

fn truth(expr: &Expr, lookup: &dyn Fn(&str) -> Option<Known>) -> Option<bool> {
    evaluate(expr, lookup)?.as_bool()
}

fn number(expr: &Expr, lookup: &dyn Fn(&str) -> Option<Known>) -> Option<BigRational> {
    evaluate(expr, lookup)?.as_number().cloned()
}

/// `and` (when `settles` is false) or `or` (true): the first part equal to
/// `settles` decides, else every part must be known.
fn connective(
    args: &[Expr],
    settles: bool,
    lookup: &dyn Fn(&str) -> Option<Known>,
) -> Option<bool> {
    let mut unknown = false;
    for arg in args {
        match truth(arg, lookup) {
            Some(b) if b == settles => return Some(settles),
            Some(_) => {}
            None => unknown = true,
        }
    }
    if unknown { None } else { Some(!settles) }
}

fn apply(op: Op, args: &[Expr], lookup: &dyn Fn(&str) -> Option<Known>) -> Option<Known> {
    let value = match op {
        Op::And => Known::Bool(connective(args, false, lookup)?),
        Op::Or => Known::Bool(connective(args, true, lookup)?),
        Op::Not => Known::Bool(!truth(args.first()?, lookup)?),
        Op::Implies => {
            // (=> a b c) is (=> a (=> b c)): true once a premise is false or
            // the conclusion is true.
            let (conclusion, premises) = args.split_last()?;
            let mut unknown = false;
            for premise in premises {
                match truth(premise, lookup) {
                    Some(false) => return Some(Known::Bool(true)),
                    Some(true) => {}
                    None => unknown = true,
                }
            }
            match truth(conclusion, lookup) {
                Some(true) => Known::Bool(true),
                Some(false) if !unknown => Known::Bool(false),
                _ => return None,
            }
        }
        Op::Eq | Op::Distinct => {
            let values = args
                .iter()
                .map(|a| evaluate(a, lookup))
                .collect::<Option<Vec<_>>>()?;
            let result = if op == Op::Eq {
                values.windows(2).all(|w| w[0] == w[1])
            } else {
                values
                    .iter()
                    .enumerate()
                    .all(|(i, a)| values[i + 1..].iter().all(|b| a != b))
            };
            Known::Bool(result)
        }
        Op::Ite => match truth(args.first()?, lookup)? {
            true => evaluate(args.get(1)?, lookup)?,
            false => evaluate(args.get(2)?, lookup)?,
        },
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            let numbers = args
                .iter()
                .map(|a| number(a, lookup))
                .collect::<Option<Vec<_>>>()?;
            Known::Bool(numbers.windows(2).all(|w| match op {
                Op::Lt => w[0] < w[1],
                Op::Le => w[0] <= w[1],
                Op::Gt => w[0] > w[1],
                _ => w[0] >= w[1],
            }))
        }
        Op::Add | Op::Sub | Op::Mul | Op::Div => {
            let numbers = args
                .iter()
                .map(|a| number(a, lookup))
                .collect::<Option<Vec<_>>>()?;
            Known::Number(arithmetic(op, numbers)?)
        }
        Op::ToReal => Known::Number(number(args.first()?, lookup)?),
        Op::ToInt => Known::Number(BigRational::from_integer(
            number(args.first()?, lookup)?.floor().to_integer(),
        )),
    };
    Some(value)
}

fn arithmetic(op: Op, numbers: Vec<BigRational>) -> Option<BigRational> {
    let mut numbers = numbers.into_iter();
    let first = numbers.next()?;
    let rest: Vec<BigRational> = numbers.collect();
    Some(match op {
        Op::Sub if rest.is_empty() => -first,
        Op::Add => rest.into_iter().fold(first, |a, b| a + b),
        Op::Sub => rest.into_iter().fold(first, |a, b| a - b),
        Op::Mul => rest.into_iter().fold(first, |a, b| a * b),
        _ => {
            let mut quotient = first;
            for divisor in rest {
                if divisor.is_zero() {
                    return None;
                }
                quotient /= divisor;
            }
            quotient
        }
    })
}

/// `n` as an exact rational.
pub fn integer(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;
    use std::collections::HashMap;

    fn with(values: &[(&str, Known)]) -> impl Fn(&str) -> Option<Known> {
        let map: HashMap<String, Known> = values
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect();
        move |name: &str| {
            map.get(name)
                .cloned()
                .or_else(|| name.starts_with("E_").then(|| Known::Enum(name.into())))
        }
    }

    fn eval(text: &str, values: &[(&str, Known)]) -> Option<bool> {
        holds(&parse_expr(text).expect("parses"), &with(values))
    }

    #[test]
    fn definitions_evaluate_exactly() {
        let values = [
            ("rate", Known::Number(BigRational::new(2.into(), 5.into()))),
            ("fee", Known::Number(integer(20))),
            ("senior", Known::Bool(true)),
        ];
        assert_eq!(eval("(=> senior (= (* fee rate) 8))", &values), Some(true));
        assert_eq!(
            eval("(=> senior (= (* fee rate) 8.1))", &values),
            Some(false)
        );
        assert_eq!(eval("(= (/ fee 3) 6.6)", &values), Some(false));
        assert_eq!(eval("(= (to_int (/ fee 3)) 6)", &values), Some(true));
        assert_eq!(
            eval("(> (ite senior fee 0) 19.5 (- 3))", &values),
            Some(true)
        );
    }

    #[test]
    fn unknown_parts_answer_only_when_settled() {
        let values = [("a", Known::Bool(false)), ("t", Known::Enum("E_x".into()))];
        assert_eq!(eval("(=> a missing)", &values), Some(true));
        assert_eq!(eval("(and a missing)", &values), Some(false));
        assert_eq!(eval("(or a missing)", &values), None);
        assert_eq!(eval("(=> missing a)", &values), None);
        assert_eq!(eval("(= t E_x)", &values), Some(true));
        assert_eq!(eval("(distinct t E_y E_x)", &values), Some(false));
        // Division by zero is unspecified in SMT-LIB: never a guess.
        assert_eq!(eval("(= (/ 1 0) 0)", &values), None);
    }
}
