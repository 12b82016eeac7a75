//! Byte spans in source text and their human line:column positions.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A half-open byte range `[start, end)` in some source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text`.
    pub fn of(text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = text.get(..offset).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position { line, column }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\ncd é x";
        assert_eq!(Position::of(text, 0), Position { line: 1, column: 1 });
        assert_eq!(Position::of(text, 3), Position { line: 2, column: 1 });
        let x = text.find('x').unwrap();
        assert_eq!(Position::of(text, x), Position { line: 2, column: 6 });
        assert_eq!(Position::of(text, 999), Position { line: 2, column: 7 });
    }
}
