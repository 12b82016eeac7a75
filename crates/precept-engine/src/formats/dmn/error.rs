//! What went wrong while reading a DMN file: where (line and column in the
//! file), in which element or table cell, and what was expected.

use thiserror::Error;

/// A place in the file, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Place {
    pub line: u32,
    pub column: u32,
}

impl Place {
    /// The place `offset` bytes into `text`, where `text` starts at `self`.
    pub fn within(self, text: &str, offset: usize) -> Place {
        let before = &text[..offset.min(text.len())];
        match before.rfind('\n') {
            Some(newline) => Place {
                line: self.line + before.matches('\n').count() as u32,
                column: before[newline + 1..].chars().count() as u32 + 1,
            },
            None => Place {
                line: self.line,
                column: self.column + before.chars().count() as u32,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}:{}: {context}: expected {message}", place.line, place.column)]
pub struct DmnError {
    pub place: Place,
    /// The element or table cell, e.g. `decision 'Approval', rule 2, input 'Age'`.
    pub context: String,
    /// What was expected (and what was found), without the word "expected".
    pub message: String,
}

impl DmnError {
    pub fn new(place: Place, context: impl Into<String>, message: impl Into<String>) -> DmnError {
        DmnError {
            place,
            context: context.into(),
            message: message.into(),
        }
    }
}
