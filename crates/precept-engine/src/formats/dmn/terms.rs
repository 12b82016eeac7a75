//! FEEL literals and literal expressions as SMT-LIB terms over the model's
//! variables, typed as the vocabulary says.

use super::feel_expression::Expression;
use super::feel_lexer::Number;
use super::feel_unary::Literal;
use super::vocabulary::{Kind, Vocabulary};

/// An SMT-LIB term and its type.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub text: String,
    pub kind: Kind,
}

/// Why a literal or expression is not a term of the type it needs: what
/// was expected and what was found, without the word "expected".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DmnTermError {
    /// A number with a fraction where the input is an integer.
    #[error("a whole number (integer input), found {0}")]
    NotWhole(String),
    /// A literal of another type: what a value of the type is called
    /// (`kind_words`) and the literal as found.
    #[error("{expected}, found {found}")]
    WrongType { expected: String, found: String },
    #[error("the name of an input data or a decision, found '{0}'")]
    UnknownName(String),
    /// A term of arithmetic that is not a number.
    #[error("a number in arithmetic, found '{0}'")]
    NotNumber(String),
}

/// A failure inside a FEEL text: the byte offset and what was expected.
pub type TermError = (usize, DmnTermError);

fn is_numeric(kind: Kind) -> bool {
    matches!(kind, Kind::Real | Kind::Int)
}

/// A number as a term of `kind` (Int only for whole numbers).
pub fn number_term(negative: bool, number: &Number, kind: Kind) -> Result<Term, DmnTermError> {
    let digits = if kind == Kind::Int {
        if !number.is_integer() {
            return Err(DmnTermError::NotWhole(number.text.clone()));
        }
        number.text.clone()
    } else if number.text.contains('.') {
        number.text.clone()
    } else {
        format!("{}.0", number.text)
    };
    let kind = if kind == Kind::Int {
        Kind::Int
    } else {
        Kind::Real
    };
    let text = if negative && number.value != num_rational::BigRational::default() {
        format!("(- {digits})")
    } else {
        digits
    };
    Ok(Term { text, kind })
}

/// What a value of `kind` is called in messages.
pub fn kind_words(kind: Kind, vocabulary: &Vocabulary) -> String {
    match kind {
        Kind::Unknown | Kind::Real | Kind::Int => "a number".into(),
        Kind::Bool => "a boolean (true or false)".into(),
        Kind::Enum(e) => {
            let values: Vec<String> = vocabulary.enums[e]
                .values
                .iter()
                .map(|(v, _)| format!("\"{v}\""))
                .collect();
            format!("one of the strings {}", values.join(", "))
        }
    }
}

/// A unary-test literal compared with a subject of `kind`.
pub fn literal_term(
    literal: &Literal,
    kind: Kind,
    vocabulary: &Vocabulary,
) -> Result<Term, DmnTermError> {
    let mismatch = || DmnTermError::WrongType {
        expected: kind_words(kind, vocabulary),
        found: literal.describe(),
    };
    match (literal, kind) {
        (Literal::Number { negative, number }, Kind::Real | Kind::Int) => {
            number_term(*negative, number, kind)
        }
        (Literal::Bool(b), Kind::Bool) => Ok(Term {
            text: b.to_string(),
            kind,
        }),
        (Literal::Text(value), Kind::Enum(e)) => match vocabulary.value_symbol(e, value) {
            Some(symbol) => Ok(Term {
                text: symbol.to_string(),
                kind,
            }),
            None => Err(mismatch()),
        },
        _ => Err(mismatch()),
    }
}

/// A literal expression as a term; `expected` types its literals (a
/// string needs an enum to belong to).
pub fn expression_term(
    expression: &Expression,
    expected: Kind,
    vocabulary: &Vocabulary,
) -> Result<Term, TermError> {
    match expression {
        Expression::Number(number) => {
            let kind = if is_numeric(expected) {
                expected
            } else {
                Kind::Real
            };
            number_term(false, number, kind).map_err(|m| (0, m))
        }
        Expression::Bool(b) => Ok(Term {
            text: b.to_string(),
            kind: Kind::Bool,
        }),
        Expression::Text(value) => match expected {
            Kind::Enum(e) => vocabulary
                .value_symbol(e, value)
                .map(|symbol| Term {
                    text: symbol.to_string(),
                    kind: expected,
                })
                .ok_or_else(|| {
                    (
                        0,
                        DmnTermError::WrongType {
                            expected: kind_words(expected, vocabulary),
                            found: format!("\"{value}\""),
                        },
                    )
                }),
            _ => Err((
                0,
                DmnTermError::WrongType {
                    expected: kind_words(expected, vocabulary),
                    found: format!("the string \"{value}\""),
                },
            )),
        },
        Expression::Name { name, offset } => match vocabulary.find(name) {
            Some(index) => {
                let variable = &vocabulary.variables[index];
                Ok(Term {
                    text: variable.symbol.clone(),
                    kind: variable.kind,
                })
            }
            None => Err((*offset, DmnTermError::UnknownName(name.clone()))),
        },
        Expression::Negate(inner) => {
            let inner = numeric(inner, expected, vocabulary)?;
            Ok(Term {
                text: format!("(- {})", inner.text),
                kind: inner.kind,
            })
        }
        Expression::Arithmetic(op, left, right) => {
            let left = numeric(left, expected, vocabulary)?;
            let right = numeric(right, expected, vocabulary)?;
            let kind = if *op == '/' || left.kind == Kind::Real || right.kind == Kind::Real {
                Kind::Real
            } else {
                Kind::Int
            };
            Ok(Term {
                text: format!("({op} {} {})", left.text, right.text),
                kind,
            })
        }
        Expression::Extreme { max, arguments } => {
            let terms = arguments
                .iter()
                .map(|a| numeric(a, expected, vocabulary))
                .collect::<Result<Vec<Term>, TermError>>()?;
            let kind = if terms.iter().any(|t| t.kind == Kind::Real) {
                Kind::Real
            } else {
                Kind::Int
            };
            Ok(Term {
                text: extreme(&terms, if *max { ">=" } else { "<=" }),
                kind,
            })
        }
    }
}

fn numeric(
    expression: &Expression,
    expected: Kind,
    vocabulary: &Vocabulary,
) -> Result<Term, TermError> {
    let expected = if is_numeric(expected) {
        expected
    } else {
        Kind::Real
    };
    let term = expression_term(expression, expected, vocabulary)?;
    if is_numeric(term.kind) {
        Ok(term)
    } else {
        let offset = match expression {
            Expression::Name { offset, .. } => *offset,
            _ => 0,
        };
        Err((offset, DmnTermError::NotNumber(term.text)))
    }
}

/// max/min of several terms: the first that beats every later one, else
/// the next.
fn extreme(terms: &[Term], beats: &str) -> String {
    match terms {
        [] => String::new(),
        [only] => only.text.clone(),
        [first, rest @ ..] => {
            let wins: Vec<String> = rest
                .iter()
                .map(|other| format!("({beats} {} {})", first.text, other.text))
                .collect();
            let condition = if wins.len() == 1 {
                wins[0].clone()
            } else {
                format!("(and {})", wins.join(" "))
            };
            format!("(ite {condition} {} {})", first.text, extreme(rest, beats))
        }
    }
}
