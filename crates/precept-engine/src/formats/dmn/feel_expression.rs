//! FEEL literal expressions as far as decision logic over numbers needs
//! them: numbers, strings, booleans, names (which may contain spaces, as
//! `Years of Service` does), `+ - * /`, parentheses, and `max(...)` and
//! `min(...)`. Output entries and literal-expression decisions use it.

use super::feel_cursor::TokenCursor as Parser;
use super::feel_lexer::{LexError, Number, Token, tokens};

/// FEEL words that start constructs Precept does not read.
const KEYWORDS: [&str; 14] = [
    "if",
    "then",
    "else",
    "for",
    "some",
    "every",
    "in",
    "return",
    "satisfies",
    "and",
    "or",
    "between",
    "instance",
    "function",
];

#[derive(Debug, Clone, PartialEq)]
pub enum Expression {
    Number(Number),
    Text(String),
    Bool(bool),
    /// A name as written, words joined by single spaces.
    Name {
        name: String,
        offset: usize,
    },
    Negate(Box<Expression>),
    Arithmetic(char, Box<Expression>, Box<Expression>),
    /// `max(...)` (true) or `min(...)` (false) of at least one argument.
    Extreme {
        max: bool,
        arguments: Vec<Expression>,
    },
}

/// Reads a literal expression. Errors carry the byte offset in `text`.
pub fn parse_expression(text: &str) -> Result<Expression, LexError> {
    let tokens = tokens(text)?;
    let mut parser = Parser::new(&tokens, text, "the end of the expression");
    let expression = parser.sum()?;
    if parser.peek().is_some() {
        return Err(parser.error("an operator (+ - * /) or the end of the expression"));
    }
    Ok(expression)
}

impl Parser<'_> {
    fn sum(&mut self) -> Result<Expression, LexError> {
        let mut left = self.product()?;
        loop {
            let op = if self.eat("+") {
                '+'
            } else if self.eat("-") {
                '-'
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = Expression::Arithmetic(op, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Expression, LexError> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat("*") {
                '*'
            } else if self.eat("/") {
                '/'
            } else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = Expression::Arithmetic(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Expression, LexError> {
        if self.eat("-") {
            return Ok(Expression::Negate(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expression, LexError> {
        let offset = self.offset();
        match self.peek().cloned() {
            Some(Token::Number(number)) => {
                self.at += 1;
                Ok(Expression::Number(number))
            }
            Some(Token::Text(text)) => {
                self.at += 1;
                Ok(Expression::Text(text))
            }
            Some(Token::Punct("(")) => {
                self.at += 1;
                let inner = self.sum()?;
                if !self.eat(")") {
                    return Err(self.error("')'"));
                }
                Ok(inner)
            }
            Some(Token::Word(first)) => {
                self.at += 1;
                if (first == "max" || first == "min")
                    && matches!(self.peek(), Some(Token::Punct("(")))
                {
                    self.at += 1;
                    let mut arguments = vec![self.sum()?];
                    while self.eat(",") {
                        arguments.push(self.sum()?);
                    }
                    if !self.eat(")") {
                        return Err(self.error("',' or ')' in the argument list"));
                    }
                    return Ok(Expression::Extreme {
                        max: first == "max",
                        arguments,
                    });
                }
                let mut name = first;
                loop {
                    match self.peek() {
                        Some(Token::Word(word)) => {
                            name.push(' ');
                            name.push_str(word);
                        }
                        Some(Token::Number(number)) => {
                            name.push(' ');
                            name.push_str(&number.text);
                        }
                        Some(Token::Punct(".")) => match self.tokens.get(self.at + 1) {
                            Some((_, Token::Word(word))) => {
                                name.push('.');
                                name.push_str(word);
                                self.at += 1;
                            }
                            _ => return Err(self.error("a name after '.'")),
                        },
                        Some(Token::Punct("(")) => {
                            return Err(LexError {
                                offset,
                                message: format!(
                                    "a number, a name, max(...) or min(...), found a call of '{name}' (only max and min are supported)"
                                ),
                            });
                        }
                        _ => break,
                    }
                    self.at += 1;
                }
                if let Some(keyword) = name.split([' ', '.']).find(|word| KEYWORDS.contains(word)) {
                    return Err(LexError {
                        offset,
                        message: format!(
                            "arithmetic over names and numbers, found the FEEL keyword '{keyword}' (not supported)"
                        ),
                    });
                }
                Ok(match name.as_str() {
                    "true" => Expression::Bool(true),
                    "false" => Expression::Bool(false),
                    _ => Expression::Name { name, offset },
                })
            }
            _ => Err(self.error("a number, a string, a name, '(' or max(...)/min(...)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str, offset: usize) -> Expression {
        Expression::Name {
            name: text.into(),
            offset,
        }
    }

    #[test]
    fn names_with_spaces_arithmetic_and_max_read() {
        let e = parse_expression("Base Vacation Days +\n  max( Extra days case 1, Extra days case 3 ) +\n Extra days case 2").unwrap();
        let Expression::Arithmetic('+', left, right) = e else {
            panic!("{e:?}")
        };
        assert_eq!(*right, name("Extra days case 2", 70));
        let Expression::Arithmetic('+', base, extreme) = *left else {
            panic!()
        };
        assert_eq!(*base, name("Base Vacation Days", 0));
        assert_eq!(
            *extreme,
            Expression::Extreme {
                max: true,
                arguments: vec![name("Extra days case 1", 28), name("Extra days case 3", 47)]
            }
        );
        assert_eq!(
            parse_expression("2 * (a - -1) / b").unwrap(),
            Expression::Arithmetic(
                '/',
                Box::new(Expression::Arithmetic(
                    '*',
                    Box::new(Expression::Number(Number::parse("2").unwrap())),
                    Box::new(Expression::Arithmetic(
                        '-',
                        Box::new(name("a", 5)),
                        Box::new(Expression::Negate(Box::new(Expression::Number(
                            Number::parse("1").unwrap()
                        ))))
                    ))
                )),
                Box::new(name("b", 15))
            )
        );
    }

    #[test]
    fn other_functions_and_dangling_operators_are_refused() {
        let err = parse_expression("sum(a, b)").unwrap_err();
        assert!(err.message.contains("only max and min"), "{}", err.message);
        let err = parse_expression("a +").unwrap_err();
        assert_eq!(err.offset, 3);
        let err = parse_expression("if a then b else c").unwrap_err();
        assert!(err.message.contains("'if'"), "{}", err.message);
    }
}
