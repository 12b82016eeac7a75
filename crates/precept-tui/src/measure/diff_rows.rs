//! The diff overlay's lines wrapped to its width: a long line continues on
//! the next rows (with a hanging indent) instead of being cut, and two
//! columns (v{base} beside the draft, a table's names beside their values)
//! wrap each within its own width, the separator on every row. Update
//! scrolls over these rows and view draws them, so both measure here.

use crate::measure::layout::help_area;
use crate::state::version_diff::{DiffLine, LeftWidth, LineKind};

/// Below this many columns per side, two columns are stacked instead.
const NARROWEST_COLUMN: usize = 12;

/// The text width inside the diff overlay's border for a terminal of `size`.
pub fn diff_width(size: (u16, u16)) -> usize {
    help_area(size).width.saturating_sub(2).max(1) as usize
}

/// Every line wrapped to `width` columns: no row is wider than `width`.
pub fn diff_rows(lines: &[DiffLine], width: usize) -> Vec<(LineKind, String)> {
    let width = width.max(1);
    let mut rows = Vec::new();
    for line in lines {
        match line {
            DiffLine::Text {
                kind,
                indent,
                hang,
                text,
            } => {
                for row in hanging(text, width, *indent, *hang) {
                    rows.push((*kind, row));
                }
            }
            DiffLine::Columns {
                kind,
                indent,
                left_width,
                separator,
                left,
                right,
            } => {
                for row in columns(width, *indent, *left_width, separator, left, right) {
                    rows.push((*kind, row));
                }
            }
        }
    }
    rows
}

/// `text` from column `indent`, continuation rows from `indent + hang`
/// (both cut back when the width leaves no room for them); an empty text is
/// one empty row.
fn hanging(text: &str, width: usize, indent: usize, hang: usize) -> Vec<String> {
    let indent = indent.min(width / 2);
    let rest = (indent + hang).min(width / 2);
    let first = wrap_words(text, width - indent, width - rest);
    if first.is_empty() {
        return vec![String::new()];
    }
    first
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let pad = if i == 0 { indent } else { rest };
            format!("{}{row}", " ".repeat(pad))
        })
        .collect()
}

/// Two columns side by side, or stacked (left above right) when either
/// would be narrower than [`NARROWEST_COLUMN`].
fn columns(
    width: usize,
    indent: usize,
    left_width: LeftWidth,
    separator: &str,
    left: &str,
    right: &str,
) -> Vec<String> {
    let gap = separator.chars().count();
    let room = width.saturating_sub(indent + gap);
    let left_cols = match left_width {
        LeftWidth::Half => room / 2,
        LeftWidth::Fixed(n) => n.min(room / 2),
    };
    let right_cols = room.saturating_sub(left_cols);
    let least_left = match left_width {
        LeftWidth::Half => NARROWEST_COLUMN,
        // A table's short names need no more than their own width.
        LeftWidth::Fixed(n) => n.clamp(1, NARROWEST_COLUMN),
    };
    if left_cols < least_left || right_cols < NARROWEST_COLUMN {
        let mut rows = hanging(left, width, indent, 2);
        if !right.is_empty() || !left.is_empty() {
            rows.extend(hanging(right, width, indent + 2, 2));
        }
        return rows;
    }
    let lefts = wrap_words(left, left_cols, left_cols);
    let rights = wrap_words(right, right_cols, right_cols);
    let count = lefts.len().max(rights.len()).max(1);
    (0..count)
        .map(|i| {
            let l = lefts.get(i).map_or("", String::as_str);
            let r = rights.get(i).map_or("", String::as_str);
            let pad = left_cols - l.chars().count();
            let row = format!("{}{l}{}{separator}{r}", " ".repeat(indent), " ".repeat(pad));
            row.trim_end().to_string()
        })
        .collect()
}

/// Word wrap: the first row at most `first` columns, the others at most
/// `rest`; a word longer than a row is broken where the row ends. Runs of
/// spaces between words become one space; a table's rule (`───`) is one
/// long word and is cut to the row.
fn wrap_words(text: &str, first: usize, rest: usize) -> Vec<String> {
    let (first, rest) = (first.max(1), rest.max(1));
    let mut rows: Vec<String> = Vec::new();
    let mut current = String::new();
    let limit = |rows: &Vec<String>| if rows.is_empty() { first } else { rest };
    for word in text.split_whitespace() {
        let length = current.chars().count();
        let needed = if current.is_empty() {
            word.chars().count()
        } else {
            length + 1 + word.chars().count()
        };
        if needed > limit(&rows) && !current.is_empty() {
            rows.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
        while current.chars().count() > limit(&rows) {
            let cut = limit(&rows);
            let head: String = current.chars().take(cut).collect();
            let tail: String = current.chars().skip(cut).collect();
            rows.push(head);
            current = tail;
        }
    }
    if !current.is_empty() {
        rows.push(current);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn width_of(rows: &[(LineKind, String)]) -> usize {
        rows.iter()
            .map(|(_, r)| r.chars().count())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_long_line_continues_with_its_hanging_indent_and_loses_no_word() {
        let line = DiffLine::Text {
            kind: LineKind::Text,
            indent: 0,
            hang: 6,
            text: "note: natural-language test N3 not compared: no stored translation on A".into(),
        };
        let rows = diff_rows(&[line], 30);
        assert!(width_of(&rows) <= 30, "{rows:?}");
        assert!(rows[0].1.starts_with("note: "));
        assert!(rows[1..].iter().all(|(_, r)| r.starts_with("      ")));
        let words: Vec<String> = rows
            .iter()
            .flat_map(|(_, r)| r.split_whitespace().map(str::to_string))
            .collect();
        assert_eq!(
            words.join(" "),
            "note: natural-language test N3 not compared: no stored translation on A"
        );
    }

    #[test]
    fn two_columns_wrap_each_in_its_half_with_the_separator_on_every_row() {
        let line = DiffLine::Columns {
            kind: LineKind::Text,
            indent: 4,
            left_width: LeftWidth::Half,
            separator: " │ ",
            left: "(= totalExpense (* 1.1 (+ cashPayment creditCost)))".into(),
            right: "(= totalExpense (* 1.2 (+ cashPayment creditCost)))".into(),
        };
        let rows = diff_rows(&[line], 40);
        assert!(rows.len() > 1, "{rows:?}");
        assert!(width_of(&rows) <= 40, "{rows:?}");
        // 40 columns less the indent (4) and the separator (3): 16 on the left.
        assert!(
            rows.iter()
                .all(|(_, r)| r.chars().position(|c| c == '│') == Some(21)),
            "{rows:?}"
        );
        let side = |index: usize| {
            rows.iter()
                .map(|(_, r)| r.split('│').nth(index).unwrap().trim().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let left = side(0);
        assert_eq!(
            side(1),
            "(= totalExpense (* 1.2 (+ cashPayment creditCost)))"
        );
        assert_eq!(left, "(= totalExpense (* 1.1 (+ cashPayment creditCost)))");
    }

    #[test]
    fn narrow_columns_are_stacked_and_a_word_longer_than_a_row_is_broken() {
        let line = DiffLine::Columns {
            kind: LineKind::Text,
            indent: 4,
            left_width: LeftWidth::Half,
            separator: " │ ",
            left: "left side".into(),
            right: "right side".into(),
        };
        let rows = diff_rows(&[line], 24);
        let texts: Vec<&str> = rows.iter().map(|(_, r)| r.as_str()).collect();
        assert_eq!(texts, ["    left side", "      right side"]);
        assert_eq!(wrap_words("abcdefghij", 4, 4), ["abcd", "efgh", "ij"]);
        assert_eq!(
            diff_rows(
                &[DiffLine::Text {
                    kind: LineKind::Text,
                    indent: 0,
                    hang: 0,
                    text: String::new()
                }],
                10
            )
            .len(),
            1
        );
    }
}
