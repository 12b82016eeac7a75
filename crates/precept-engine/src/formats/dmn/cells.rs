//! An input cell as a condition on its column's subject, and whether two
//! cells of one column can hold at once (decided on the literals, without
//! the solver, so that a First or Priority row negates only the earlier
//! rows it can overlap).

use super::feel_unary::{Comparison, Literal, Test, UnaryTests};
use super::terms::{DmnTermError, literal_term};
use super::vocabulary::{Kind, Vocabulary};
use num_rational::BigRational;
use std::cmp::Ordering;

/// Why an input cell is not a condition on its column's subject: what
/// was expected and what was found, without the word "expected".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DmnCellError {
    /// A literal that is not a value of the subject's type.
    #[error(transparent)]
    Literal(#[from] DmnTermError),
    /// `<`, `<=`, `>` or `>=` on a subject that is not a number (the
    /// literal compared with).
    #[error(
        "a value to compare with '=' (ordering applies to numbers only), found an ordering test on {0}"
    )]
    OrderingNotNumeric(String),
    /// A range on a subject that is not a number (its low end).
    #[error("a single value (ranges apply to numbers only), found a range from {0}")]
    RangeNotNumeric(String),
}

/// The condition `tests` put on `subject` (an SMT-LIB term of `kind`);
/// `None` for `-`.
pub fn condition(
    tests: &UnaryTests,
    subject: &str,
    kind: Kind,
    vocabulary: &Vocabulary,
) -> Result<Option<String>, DmnCellError> {
    let (positive, list) = match tests {
        UnaryTests::Any => return Ok(None),
        UnaryTests::AnyOf(list) => (true, list),
        UnaryTests::NoneOf(list) => (false, list),
    };
    let parts = list
        .iter()
        .map(|test| one_test(test, subject, kind, vocabulary))
        .collect::<Result<Vec<String>, DmnCellError>>()?;
    let either = if parts.len() == 1 {
        parts.into_iter().next().unwrap_or_default()
    } else {
        format!("(or {})", parts.join(" "))
    };
    Ok(Some(if positive {
        either
    } else {
        format!("(not {either})")
    }))
}

fn one_test(
    test: &Test,
    subject: &str,
    kind: Kind,
    vocabulary: &Vocabulary,
) -> Result<String, DmnCellError> {
    let numeric = matches!(kind, Kind::Real | Kind::Int);
    match test {
        Test::Compare(Comparison::Equal, literal) => {
            let term = literal_term(literal, kind, vocabulary)?;
            Ok(match (kind, literal) {
                (Kind::Bool, Literal::Bool(true)) => subject.to_string(),
                (Kind::Bool, Literal::Bool(false)) => format!("(not {subject})"),
                _ => format!("(= {subject} {})", term.text),
            })
        }
        Test::Compare(comparison, literal) => {
            if !numeric {
                return Err(DmnCellError::OrderingNotNumeric(literal.describe()));
            }
            let term = literal_term(literal, kind, vocabulary)?;
            let op = match comparison {
                Comparison::Less => "<",
                Comparison::LessOrEqual => "<=",
                Comparison::Greater => ">",
                _ => ">=",
            };
            Ok(format!("({op} {subject} {})", term.text))
        }
        Test::Range {
            low,
            low_closed,
            high,
            high_closed,
        } => {
            if !numeric {
                return Err(DmnCellError::RangeNotNumeric(low.describe()));
            }
            let low = literal_term(low, kind, vocabulary)?;
            let high = literal_term(high, kind, vocabulary)?;
            Ok(format!(
                "(and ({} {} {subject}) ({} {subject} {}))",
                if *low_closed { "<=" } else { "<" },
                low.text,
                if *high_closed { "<=" } else { "<" },
                high.text
            ))
        }
    }
}

/// A numeric interval; `None` ends are unbounded.
#[derive(Debug, Clone)]
struct Interval {
    low: Option<(Value, bool)>,
    high: Option<(Value, bool)>,
}

/// A number with a float beside it: comparing floats first is fast, and
/// exact wherever the floats differ (rounding keeps order); equal floats
/// fall back to the exact values.
#[derive(Debug, Clone)]
struct Value {
    approx: f64,
    exact: BigRational,
}

impl Value {
    fn cmp(&self, other: &Value) -> Ordering {
        match self.approx.partial_cmp(&other.approx) {
            Some(Ordering::Less) => Ordering::Less,
            Some(Ordering::Greater) => Ordering::Greater,
            _ => self.exact.cmp(&other.exact),
        }
    }
}

fn value(literal: &Literal) -> Option<Value> {
    match literal {
        Literal::Number { negative, number } => {
            let approx: f64 = number.text.parse().ok()?;
            Some(if *negative {
                Value {
                    approx: -approx,
                    exact: -number.value.clone(),
                }
            } else {
                Value {
                    approx,
                    exact: number.value.clone(),
                }
            })
        }
        _ => None,
    }
}

fn interval(test: &Test) -> Option<Interval> {
    match test {
        Test::Compare(comparison, literal) => {
            let v = value(literal)?;
            Some(match comparison {
                Comparison::Equal => Interval {
                    low: Some((v.clone(), true)),
                    high: Some((v, true)),
                },
                Comparison::Less => Interval {
                    low: None,
                    high: Some((v, false)),
                },
                Comparison::LessOrEqual => Interval {
                    low: None,
                    high: Some((v, true)),
                },
                Comparison::Greater => Interval {
                    low: Some((v, false)),
                    high: None,
                },
                Comparison::GreaterOrEqual => Interval {
                    low: Some((v, true)),
                    high: None,
                },
            })
        }
        Test::Range {
            low,
            low_closed,
            high,
            high_closed,
        } => Some(Interval {
            low: Some((value(low)?, *low_closed)),
            high: Some((value(high)?, *high_closed)),
        }),
    }
}

fn intervals_meet(a: &Interval, b: &Interval) -> bool {
    let low = match (&a.low, &b.low) {
        (Some(x), Some(y)) => Some(match x.0.cmp(&y.0) {
            Ordering::Greater => x,
            Ordering::Equal if !x.1 => x,
            _ => y,
        }),
        (x, y) => x.as_ref().or(y.as_ref()),
    };
    let high = match (&a.high, &b.high) {
        (Some(x), Some(y)) => Some(match x.0.cmp(&y.0) {
            Ordering::Less => x,
            Ordering::Equal if !x.1 => x,
            _ => y,
        }),
        (x, y) => x.as_ref().or(y.as_ref()),
    };
    match (low, high) {
        (Some(l), Some(h)) => match l.0.cmp(&h.0) {
            Ordering::Less => true,
            Ordering::Equal => l.1 && h.1,
            Ordering::Greater => false,
        },
        _ => true,
    }
}

/// One positive test reduced to what the overlap test needs.
#[derive(Debug, Clone)]
enum Shape {
    Interval(Interval),
    Text(String),
    Bool(bool),
}

/// A cell reduced once, to be compared with many others.
#[derive(Debug, Clone)]
pub struct CellShape {
    /// `None` when the cell may hold for anything (`-`, `not(...)`).
    shapes: Option<Vec<Shape>>,
}

impl CellShape {
    pub fn of(tests: &UnaryTests) -> CellShape {
        let UnaryTests::AnyOf(list) = tests else {
            return CellShape { shapes: None };
        };
        let shapes = list
            .iter()
            .map(|test| match (interval(test), test) {
                (Some(range), _) => Some(Shape::Interval(range)),
                (None, Test::Compare(Comparison::Equal, Literal::Text(s))) => {
                    Some(Shape::Text(s.clone()))
                }
                (None, Test::Compare(Comparison::Equal, Literal::Bool(b))) => Some(Shape::Bool(*b)),
                _ => None,
            })
            .collect::<Option<Vec<Shape>>>();
        CellShape { shapes }
    }
}

fn shapes_meet(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Interval(x), Shape::Interval(y)) => intervals_meet(x, y),
        (Shape::Text(x), Shape::Text(y)) => x == y,
        (Shape::Bool(x), Shape::Bool(y)) => x == y,
        _ => true,
    }
}

/// Whether some value can pass both cells. Errs on the side of `true`
/// (a negated cell is assumed to meet anything).
pub fn may_meet(a: &CellShape, b: &CellShape) -> bool {
    match (&a.shapes, &b.shapes) {
        (Some(x), Some(y)) => x.iter().any(|s| y.iter().any(|t| shapes_meet(s, t))),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::feel_unary::parse_unary_tests;
    use super::*;

    fn meet(a: &str, b: &str) -> bool {
        may_meet(
            &CellShape::of(&parse_unary_tests(a).unwrap()),
            &CellShape::of(&parse_unary_tests(b).unwrap()),
        )
    }

    #[test]
    fn cells_that_cannot_hold_together_are_told_apart() {
        assert!(meet(">=18", ">12"));
        assert!(!meet("<12", ">=12"));
        assert!(meet("<=12", ">=12"));
        assert!(!meet("[15..30)", ">=30"));
        assert!(meet("[15..30]", ">=30"));
        assert!(!meet("(1..2)", "[2..3]"));
        assert!(!meet("\"Low\"", "\"High\",\"Medium\""));
        assert!(meet("\"Low\"", "\"High\",\"Low\""));
        assert!(!meet("true", "false"));
        assert!(meet("-", "<0"));
        assert!(meet("not(<0)", "<0"));
        assert!(!meet("-5", "> -5"));
    }
}
