//! Groups tokens into s-expressions, checking that parentheses balance.

use super::error::SmtError;
use super::lexer::{Token, TokenKind, tokenize};
use super::span::{Position, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SExpr {
    Atom(Token),
    List(Vec<SExpr>, Span),
}

impl SExpr {
    pub fn span(&self) -> Span {
        match self {
            SExpr::Atom(token) => token.span,
            SExpr::List(_, span) => *span,
        }
    }

    /// The symbol if this is a symbol atom.
    pub fn as_symbol(&self) -> Option<&str> {
        match self {
            SExpr::Atom(Token {
                kind: TokenKind::Symbol(name),
                ..
            }) => Some(name),
            _ => None,
        }
    }

    /// A short description for "found ..." in error messages.
    pub fn describe(&self, source: &str) -> String {
        let span = self.span();
        let text = source.get(span.start..span.end).unwrap_or("");
        let first_line = text.lines().next().unwrap_or("");
        if first_line.chars().count() > 40 || first_line.len() < text.len() {
            let short: String = first_line.chars().take(40).collect();
            format!("'{short}...'")
        } else {
            format!("'{text}'")
        }
    }
}

/// Parses all s-expressions in `source`.
pub fn parse_sexprs(source: &str) -> Result<Vec<SExpr>, SmtError> {
    let tokens = tokenize(source)?;
    let mut stack: Vec<(Vec<SExpr>, usize)> = Vec::new();
    let mut top = Vec::new();
    for token in tokens {
        match token.kind {
            TokenKind::Open => stack.push((Vec::new(), token.span.start)),
            TokenKind::Close => {
                let Some((items, start)) = stack.pop() else {
                    return Err(SmtError::new(
                        source,
                        token.span,
                        "')'",
                        "'(' or a term (this ')' closes nothing)",
                    ));
                };
                let list = SExpr::List(items, Span::new(start, token.span.end));
                match stack.last_mut() {
                    Some((parent, _)) => parent.push(list),
                    None => top.push(list),
                }
            }
            _ => match stack.last_mut() {
                Some((parent, _)) => parent.push(SExpr::Atom(token)),
                None => top.push(SExpr::Atom(token)),
            },
        }
    }
    if let Some((_, start)) = stack.pop() {
        let opened = Position::of(source, start);
        return Err(SmtError::new(
            source,
            Span::new(source.len(), source.len()),
            "the end of the text",
            format!("')' to close the '(' at {opened}"),
        ));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbalanced_open_names_where_it_was_opened() {
        let err = parse_sexprs("(assert\n (and a b)").unwrap_err();
        assert_eq!(
            err.to_string(),
            "2:11: expected ')' to close the '(' at 1:1, found the end of the text"
        );
    }

    #[test]
    fn stray_close_is_reported_at_its_position() {
        let err = parse_sexprs("(a b))").unwrap_err();
        assert_eq!(err.position.column, 6);
        assert_eq!(err.found, "')'");
    }
}
