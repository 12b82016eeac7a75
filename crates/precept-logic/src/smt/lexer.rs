//! Splits SMT-LIB text into tokens, each with its byte span.

use super::error::SmtError;
use super::span::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenKind {
    Open,
    Close,
    /// A simple or `|quoted|` symbol, without the bars.
    Symbol(String),
    /// `:name`
    Keyword(String),
    /// Digits only, as written.
    Numeral(String),
    /// `digits.digits`, as written.
    Decimal(String),
    /// A `"string"` literal (only meaningful in `set-info` and friends).
    StringLit(String),
    /// `#x..` or `#b..`: lexed so the parser can say they are outside the fragment.
    BitVector(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

/// Tokenizes `source`. Comments (`;` to end of line) and white space are skipped.
pub fn tokenize(source: &str) -> Result<Vec<Token>, SmtError> {
    let mut tokens = Vec::new();
    let mut chars = source.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == ';' {
            while let Some(&(_, c)) = chars.peek() {
                if c == '\n' {
                    break;
                }
                chars.next();
            }
            continue;
        }
        let kind;
        let end;
        match c {
            '(' => {
                chars.next();
                kind = TokenKind::Open;
                end = start + 1;
            }
            ')' => {
                chars.next();
                kind = TokenKind::Close;
                end = start + 1;
            }
            '|' => {
                chars.next();
                let mut text = String::new();
                let mut closed = None;
                for (i, c) in chars.by_ref() {
                    if c == '|' {
                        closed = Some(i + 1);
                        break;
                    }
                    text.push(c);
                }
                let Some(close) = closed else {
                    return Err(SmtError::new(
                        source,
                        Span::new(start, source.len()),
                        "the end of the text",
                        "'|' to close the quoted symbol",
                    ));
                };
                kind = TokenKind::Symbol(text);
                end = close;
            }
            '"' => {
                chars.next();
                let mut text = String::new();
                let mut closed = None;
                while let Some((i, c)) = chars.next() {
                    if c == '"' {
                        // SMT-LIB escapes a quote by doubling it.
                        if chars.peek().map(|&(_, c)| c) == Some('"') {
                            chars.next();
                            text.push('"');
                            continue;
                        }
                        closed = Some(i + 1);
                        break;
                    }
                    text.push(c);
                }
                let Some(close) = closed else {
                    return Err(SmtError::new(
                        source,
                        Span::new(start, source.len()),
                        "the end of the text",
                        "'\"' to close the string",
                    ));
                };
                kind = TokenKind::StringLit(text);
                end = close;
            }
            ':' => {
                chars.next();
                end = take_while(&mut chars, start + 1, &is_symbol_char);
                kind = TokenKind::Keyword(source[start + 1..end].to_string());
            }
            '#' => {
                chars.next();
                end = take_while(&mut chars, start + 1, &|c: char| c.is_ascii_alphanumeric());
                kind = TokenKind::BitVector(source[start..end].to_string());
            }
            c if c.is_ascii_digit() => {
                end = take_while(&mut chars, start, &|c: char| {
                    c.is_ascii_digit() || c == '.' || c.is_ascii_alphabetic()
                });
                let text = &source[start..end];
                if text.bytes().all(|b| b.is_ascii_digit()) {
                    kind = TokenKind::Numeral(text.to_string());
                } else if is_decimal(text) {
                    kind = TokenKind::Decimal(text.to_string());
                } else {
                    return Err(SmtError::new(
                        source,
                        Span::new(start, end),
                        format!("'{text}'"),
                        "a number such as 12 or 0.75",
                    ));
                }
            }
            c if is_symbol_char(c) => {
                end = take_while(&mut chars, start, &is_symbol_char);
                kind = TokenKind::Symbol(source[start..end].to_string());
            }
            other => {
                return Err(SmtError::new(
                    source,
                    Span::new(start, start + other.len_utf8()),
                    format!("the character {other:?}"),
                    "'(', ')', a symbol or a number",
                ));
            }
        }
        tokens.push(Token {
            kind,
            span: Span::new(start, end),
        });
    }
    Ok(tokens)
}

type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// Consumes characters while `pred` holds; returns the end offset.
fn take_while(chars: &mut Chars<'_>, start: usize, pred: &dyn Fn(char) -> bool) -> usize {
    let mut end = start;
    while let Some(&(i, c)) = chars.peek() {
        if !pred(c) {
            break;
        }
        end = i + c.len_utf8();
        chars.next();
    }
    end
}

fn is_decimal(text: &str) -> bool {
    let mut parts = text.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let fraction = parts.next().unwrap_or("");
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        tokenize(text)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn lexes_symbols_numbers_and_comments() {
        use TokenKind::*;
        assert_eq!(
            kinds("(=> isLow ; comment\n (>= fee 0.75 12 |two words|))"),
            vec![
                Open,
                Symbol("=>".into()),
                Symbol("isLow".into()),
                Open,
                Symbol(">=".into()),
                Symbol("fee".into()),
                Decimal("0.75".into()),
                Numeral("12".into()),
                Symbol("two words".into()),
                Close,
                Close
            ]
        );
    }

    #[test]
    fn reports_position_of_bad_number() {
        let err = tokenize("(assert\n  (> x 1.2.3))").unwrap_err();
        assert_eq!(
            err.to_string(),
            "2:8: expected a number such as 12 or 0.75, found '1.2.3'"
        );
    }

    #[test]
    fn reports_unclosed_quoted_symbol() {
        let err = tokenize("(declare-const |abc Int)").unwrap_err();
        assert_eq!(err.position.column, 16);
        assert!(err.expected.contains("'|'"));
    }
}
