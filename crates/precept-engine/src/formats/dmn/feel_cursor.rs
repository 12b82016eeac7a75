//! Walking the tokens of one FEEL text, shared by the unary-test and the
//! literal-expression parsers: the token ahead, its offset, eating a
//! punctuation mark, and an error saying what was expected there.

use super::feel_lexer::{LexError, Token};

pub struct TokenCursor<'a> {
    pub tokens: &'a [(usize, Token)],
    /// The index of the token ahead.
    pub at: usize,
    /// The offset reported past the last token (the text's length).
    pub end: usize,
    /// How errors name the end of the text ("the end of the cell").
    pub end_name: &'static str,
}

impl<'a> TokenCursor<'a> {
    pub fn new(tokens: &'a [(usize, Token)], text: &str, end_name: &'static str) -> Self {
        TokenCursor {
            tokens,
            at: 0,
            end: text.len(),
            end_name,
        }
    }

    pub fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|(_, t)| t)
    }

    pub fn offset(&self) -> usize {
        self.tokens
            .get(self.at)
            .map(|(o, _)| *o)
            .unwrap_or(self.end)
    }

    pub fn error(&self, expected: &str) -> LexError {
        let found = match self.peek() {
            Some(token) => format!("'{}'", token.describe()),
            None => self.end_name.to_string(),
        };
        LexError {
            offset: self.offset(),
            message: format!("{expected}, found {found}"),
        }
    }

    pub fn eat(&mut self, punct: &str) -> bool {
        if matches!(self.peek(), Some(Token::Punct(p)) if *p == punct) {
            self.at += 1;
            true
        } else {
            false
        }
    }
}
