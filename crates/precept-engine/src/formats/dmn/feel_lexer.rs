//! The words of the FEEL subset Precept reads: numbers, strings, names and
//! punctuation, each with its byte offset in the cell's text.

use num_bigint::BigInt;
use num_rational::BigRational;

/// A non-negative decimal number: its exact value and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number {
    pub value: BigRational,
    /// Digits as written, e.g. `18` or `0.5`.
    pub text: String,
}

impl Number {
    pub fn parse(text: &str) -> Option<Number> {
        let (whole, fraction) = match text.split_once('.') {
            Some((w, f)) => (w, f),
            None => (text, ""),
        };
        let digits_only = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty())
            || !digits_only(whole)
            || !digits_only(fraction)
        {
            return None;
        }
        let whole_value: BigInt = if whole.is_empty() {
            BigInt::from(0)
        } else {
            whole.parse().ok()?
        };
        let mut value = BigRational::from_integer(whole_value);
        if !fraction.is_empty() {
            let numerator: BigInt = fraction.parse().ok()?;
            let denominator = num_traits_pow10(fraction.len());
            value += BigRational::new(numerator, denominator);
        }
        let text = format!(
            "{}{}",
            if whole.is_empty() { "0" } else { whole },
            if fraction.is_empty() {
                String::new()
            } else {
                format!(".{fraction}")
            }
        );
        Some(Number { value, text })
    }

    pub fn is_integer(&self) -> bool {
        self.value.is_integer()
    }
}

fn num_traits_pow10(exponent: usize) -> BigInt {
    let mut power = BigInt::from(1);
    for _ in 0..exponent {
        power *= 10;
    }
    power
}

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Number(Number),
    Text(String),
    Word(String),
    /// `( ) [ ] , .. < <= > >= = != - + * / .`
    Punct(&'static str),
}

impl Token {
    pub fn describe(&self) -> String {
        match self {
            Token::Number(n) => n.text.clone(),
            Token::Text(s) => format!("\"{s}\""),
            Token::Word(w) => w.clone(),
            Token::Punct(p) => p.to_string(),
        }
    }
}

/// A lexing error: the byte offset and what was found there.
#[derive(Debug, Clone, PartialEq)]
pub struct LexError {
    pub offset: usize,
    pub message: String,
}

const PUNCTS: [&str; 16] = [
    "..", "<=", ">=", "!=", "(", ")", "[", "]", ",", "<", ">", "=", "-", "+", "*", "/",
];

/// Splits `text` into tokens with their byte offsets.
pub fn tokens(text: &str) -> Result<Vec<(usize, Token)>, LexError> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        if c.is_ascii_digit() || (c == '.' && bytes.get(i + 1).is_some_and(|b| b.is_ascii_digit()))
        {
            let mut end = i;
            let mut seen_dot = false;
            while end < text.len() {
                let b = bytes[end];
                if b.is_ascii_digit() {
                    end += 1;
                } else if b == b'.'
                    && !seen_dot
                    && bytes.get(end + 1).is_some_and(|n| n.is_ascii_digit())
                {
                    seen_dot = true;
                    end += 1;
                } else {
                    break;
                }
            }
            let number = Number::parse(&text[start..end]).ok_or_else(|| LexError {
                offset: start,
                message: format!("a number, found '{}'", &text[start..end]),
            })?;
            out.push((start, Token::Number(number)));
            i = end;
        } else if c == '"' {
            let mut value = String::new();
            let mut chars = rest.char_indices().skip(1);
            let mut closed = None;
            while let Some((j, ch)) = chars.next() {
                match ch {
                    '"' => {
                        closed = Some(j);
                        break;
                    }
                    '\\' => match chars.next() {
                        Some((_, escaped)) => value.push(escaped),
                        None => break,
                    },
                    other => value.push(other),
                }
            }
            let Some(j) = closed else {
                return Err(LexError {
                    offset: start,
                    message: "a closing '\"' for this string".into(),
                });
            };
            out.push((start, Token::Text(value)));
            i += j + 1;
        } else if c.is_alphabetic() || c == '_' || c == '?' {
            let end = rest
                .char_indices()
                .find(|(_, ch)| !(ch.is_alphanumeric() || *ch == '_' || *ch == '?' || *ch == '\''))
                .map(|(j, _)| i + j)
                .unwrap_or(text.len());
            out.push((start, Token::Word(text[start..end].to_string())));
            i = end;
        } else if let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) {
            out.push((start, Token::Punct(p)));
            i += p.len();
        } else if c == '.' {
            out.push((start, Token::Punct(".")));
            i += 1;
        } else {
            return Err(LexError {
                offset: start,
                message: format!("a FEEL token, found '{c}'"),
            });
        }
    }
    Ok(out)
}
