//! FEEL unary tests, the input cells of a decision table: `-`,
//! comparisons (`< 18`, `>= 60`, `= "Gold"`), ranges (`[a..b]`, `(a..b)`,
//! `]a..b[`), lists of those, `not(...)`, and plain strings, numbers and
//! booleans. Anything else is refused with what was expected.

use super::feel_cursor::TokenCursor as Parser;
use super::feel_lexer::{LexError, Number, Token, tokens};

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A number with its sign.
    Number {
        negative: bool,
        number: Number,
    },
    Text(String),
    Bool(bool),
}

impl Literal {
    pub fn describe(&self) -> String {
        match self {
            Literal::Number { negative, number } => {
                format!("{}{}", if *negative { "-" } else { "" }, number.text)
            }
            Literal::Text(s) => format!("\"{s}\""),
            Literal::Bool(b) => b.to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    Equal,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
}

/// One positive unary test.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    Compare(Comparison, Literal),
    Range {
        low: Literal,
        low_closed: bool,
        high: Literal,
        high_closed: bool,
    },
}

/// A whole input cell.
#[derive(Debug, Clone, PartialEq)]
pub enum UnaryTests {
    /// `-`: any value.
    Any,
    /// Holds when any of the tests holds.
    AnyOf(Vec<Test>),
    /// `not(...)`: holds when none of the tests holds.
    NoneOf(Vec<Test>),
}

/// Reads an input cell. Errors carry the byte offset in `text`.
pub fn parse_unary_tests(text: &str) -> Result<UnaryTests, LexError> {
    let tokens = tokens(text)?;
    let mut parser = Parser::new(&tokens, text, "the end of the cell");
    if tokens.is_empty() {
        return Err(LexError {
            offset: 0,
            message: "a unary test ('-' for any value), found an empty cell".into(),
        });
    }
    if tokens.len() == 1 && tokens[0].1 == Token::Punct("-") {
        return Ok(UnaryTests::Any);
    }
    if matches!(&tokens[0].1, Token::Word(w) if w == "not") {
        parser.at = 1;
        parser.expect("(")?;
        let tests = parser.list()?;
        parser.expect(")")?;
        parser.finish()?;
        return Ok(UnaryTests::NoneOf(tests));
    }
    let tests = parser.list()?;
    parser.finish()?;
    Ok(UnaryTests::AnyOf(tests))
}

/// Reads a list of plain literals (`inputValues`, `outputValues`).
pub fn parse_literal_list(text: &str) -> Result<Vec<Literal>, LexError> {
    let tokens = tokens(text)?;
    let mut parser = Parser::new(&tokens, text, "the end of the cell");
    let mut literals = vec![parser.literal()?];
    while parser.eat(",") {
        literals.push(parser.literal()?);
    }
    parser.finish()?;
    Ok(literals)
}

impl Parser<'_> {
    fn expect(&mut self, punct: &str) -> Result<(), LexError> {
        if self.eat(punct) {
            Ok(())
        } else {
            Err(self.error(&format!("'{punct}'")))
        }
    }

    fn finish(&self) -> Result<(), LexError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("the end of the cell or ','")),
        }
    }

    fn list(&mut self) -> Result<Vec<Test>, LexError> {
        let mut tests = vec![self.test()?];
        while self.eat(",") {
            tests.push(self.test()?);
        }
        Ok(tests)
    }

    fn test(&mut self) -> Result<Test, LexError> {
        let comparison = match self.peek() {
            Some(Token::Punct("<")) => Some(Comparison::Less),
            Some(Token::Punct("<=")) => Some(Comparison::LessOrEqual),
            Some(Token::Punct(">")) => Some(Comparison::Greater),
            Some(Token::Punct(">=")) => Some(Comparison::GreaterOrEqual),
            Some(Token::Punct("=")) => Some(Comparison::Equal),
            _ => None,
        };
        if let Some(comparison) = comparison {
            self.at += 1;
            return Ok(Test::Compare(comparison, self.literal()?));
        }
        let low_closed = match self.peek() {
            Some(Token::Punct("[")) => Some(true),
            Some(Token::Punct("(")) | Some(Token::Punct("]")) => Some(false),
            _ => None,
        };
        if let Some(low_closed) = low_closed {
            self.at += 1;
            let low = self.literal()?;
            self.expect("..")?;
            let high = self.literal()?;
            let high_closed = match self.peek() {
                Some(Token::Punct("]")) => true,
                Some(Token::Punct(")")) | Some(Token::Punct("[")) => false,
                _ => return Err(self.error("']', ')' or '[' closing the range")),
            };
            self.at += 1;
            return Ok(Test::Range {
                low,
                low_closed,
                high,
                high_closed,
            });
        }
        Ok(Test::Compare(Comparison::Equal, self.literal()?))
    }

    fn literal(&mut self) -> Result<Literal, LexError> {
        let negative = self.eat("-");
        let literal = match self.peek() {
            Some(Token::Number(number)) => Literal::Number {
                negative,
                number: number.clone(),
            },
            Some(Token::Text(text)) if !negative => Literal::Text(text.clone()),
            Some(Token::Word(w)) if !negative && (w == "true" || w == "false") => {
                Literal::Bool(w == "true")
            }
            _ => {
                return Err(self.error(if negative {
                    "a number after '-'"
                } else {
                    "a comparison, a range, a list, not(...), '-', or a string, number or boolean"
                }));
            }
        };
        self.at += 1;
        Ok(literal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Literal {
        Literal::Number {
            negative: false,
            number: Number::parse(text).unwrap(),
        }
    }

    #[test]
    fn comparisons_ranges_lists_and_negation_read() {
        assert_eq!(parse_unary_tests(" - ").unwrap(), UnaryTests::Any);
        assert_eq!(
            parse_unary_tests("<18,>=60").unwrap(),
            UnaryTests::AnyOf(vec![
                Test::Compare(Comparison::Less, number("18")),
                Test::Compare(Comparison::GreaterOrEqual, number("60")),
            ])
        );
        assert_eq!(
            parse_unary_tests("[15..30)").unwrap(),
            UnaryTests::AnyOf(vec![Test::Range {
                low: number("15"),
                low_closed: true,
                high: number("30"),
                high_closed: false,
            }])
        );
        assert_eq!(
            parse_unary_tests("not(\"High\", \"Low\")").unwrap(),
            UnaryTests::NoneOf(vec![
                Test::Compare(Comparison::Equal, Literal::Text("High".into())),
                Test::Compare(Comparison::Equal, Literal::Text("Low".into())),
            ])
        );
        assert_eq!(
            parse_unary_tests("]0.5..-2[").unwrap(),
            UnaryTests::AnyOf(vec![Test::Range {
                low: number("0.5"),
                low_closed: false,
                high: Literal::Number {
                    negative: true,
                    number: Number::parse("2").unwrap()
                },
                high_closed: false,
            }])
        );
        assert_eq!(
            parse_unary_tests("false").unwrap(),
            UnaryTests::AnyOf(vec![Test::Compare(Comparison::Equal, Literal::Bool(false))])
        );
    }

    #[test]
    fn anything_else_is_refused_at_its_offset() {
        let err = parse_unary_tests(">= 18, date(\"2020-01-01\")").unwrap_err();
        assert_eq!(err.offset, 7);
        assert!(err.message.contains("found 'date'"), "{}", err.message);
        let err = parse_unary_tests("[1..5").unwrap_err();
        assert_eq!(err.offset, 5);
        assert!(err.message.contains("closing the range"));
        assert!(parse_unary_tests("").is_err());
        assert!(parse_unary_tests("\"open").is_err());
        assert!(parse_unary_tests("> Age").is_err());
        assert!(parse_unary_tests("1 2").is_err());
    }
}
