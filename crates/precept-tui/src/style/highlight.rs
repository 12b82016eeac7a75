//! SMT-LIB highlighting with syntect, through the `.sublime-syntax` Precept
//! ships (`themes/smtlib.sublime-syntax`). Tokens are mapped to the theme's
//! semantic styles; results are cached per text, since syntect takes about a
//! millisecond a line.

use crate::style::theme::{Syntax, Theme};
use ratatui::text::{Line, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use syntect::parsing::{ParseState, ScopeStack, SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};

const SMTLIB_SYNTAX: &str = include_str!("../../../../themes/smtlib.sublime-syntax");

/// A highlighted line: byte ranges with their token kinds.
pub type Tokens = Vec<(std::ops::Range<usize>, Option<Syntax>)>;

pub struct Highlighter {
    syntaxes: SyntaxSet,
    cache: RefCell<HashMap<String, Tokens>>,
}

impl Default for Highlighter {
    fn default() -> Self {
        Highlighter::new()
    }
}

impl Highlighter {
    pub fn new() -> Highlighter {
        let mut builder = SyntaxSetBuilder::new();
        if let Ok(definition) = SyntaxDefinition::load_from_str(SMTLIB_SYNTAX, true, None) {
            builder.add(definition);
        }
        Highlighter {
            syntaxes: builder.build(),
            cache: RefCell::new(HashMap::new()),
        }
    }

    /// The tokens of one line of SMT-LIB.
    pub fn tokens(&self, line: &str) -> Tokens {
        if let Some(tokens) = self.cache.borrow().get(line) {
            return tokens.clone();
        }
        let tokens = self.parse(line);
        let mut cache = self.cache.borrow_mut();
        if cache.len() > 20_000 {
            cache.clear();
        }
        cache.insert(line.to_string(), tokens.clone());
        tokens
    }

    fn parse(&self, line: &str) -> Tokens {
        let Some(syntax) = self.syntaxes.find_syntax_by_name("SMT-LIB") else {
            return vec![(0..line.len(), None)];
        };
        let mut state = ParseState::new(syntax);
        let Ok(operations) = state.parse_line(line, &self.syntaxes) else {
            return vec![(0..line.len(), None)];
        };
        let mut stack = ScopeStack::new();
        let mut tokens = Vec::new();
        let mut last = 0;
        for (offset, operation) in operations {
            if offset > last {
                tokens.push((last..offset, classify(&stack)));
                last = offset;
            }
            let _ = stack.apply(&operation);
        }
        if last < line.len() {
            tokens.push((last..line.len(), classify(&stack)));
        }
        tokens
    }

    /// A styled line for the terminal.
    pub fn line<'a>(&self, text: &'a str, theme: &Theme) -> Line<'a> {
        let spans: Vec<Span<'a>> = self
            .tokens(text)
            .into_iter()
            .map(|(range, kind)| {
                let style = kind
                    .map(|k| theme.syntax(k))
                    .unwrap_or_else(|| theme.text());
                Span::styled(&text[range], style)
            })
            .collect();
        Line::from(spans)
    }
}

fn classify(stack: &ScopeStack) -> Option<Syntax> {
    let scope = stack.as_slice().last()?.build_string();
    let kind = if scope.starts_with("keyword") {
        Syntax::Keyword
    } else if scope.starts_with("constant.numeric") || scope.starts_with("constant.language") {
        Syntax::Number
    } else if scope.starts_with("constant.other.enum") {
        Syntax::Value
    } else if scope.starts_with("punctuation") {
        Syntax::Paren
    } else if scope.starts_with("comment") {
        Syntax::Comment
    } else if scope.starts_with("variable") || scope.starts_with("constant.other") {
        Syntax::Symbol
    } else {
        return None;
    };
    Some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_numbers_values_and_names_get_their_kinds() {
        let highlighter = Highlighter::new();
        let text = "(=> (= ageClass SENIOR) (>= fee 0.75))";
        let kinds: Vec<(&str, Option<Syntax>)> = highlighter
            .tokens(text)
            .into_iter()
            .map(|(r, k)| (&text[r], k))
            .filter(|(t, _)| !t.trim().is_empty())
            .collect();
        assert!(kinds.contains(&("=>", Some(Syntax::Keyword))), "{kinds:?}");
        assert!(
            kinds.contains(&("ageClass", Some(Syntax::Symbol))),
            "{kinds:?}"
        );
        assert!(
            kinds.contains(&("SENIOR", Some(Syntax::Value))),
            "{kinds:?}"
        );
        assert!(kinds.contains(&("0.75", Some(Syntax::Number))), "{kinds:?}");
        assert!(kinds.contains(&("(", Some(Syntax::Paren))), "{kinds:?}");
    }
}
