//! DMN names (`Years of Service`, `"Medium"`) as SMT-LIB symbols
//! (`yearsOfService`, `Medium`), unique within one model.

use std::collections::HashSet;

/// Words SMT-LIB or the fragment reserve.
const RESERVED: [&str; 22] = [
    "and", "or", "not", "xor", "ite", "distinct", "true", "false", "to_real", "to_int", "let",
    "forall", "exists", "match", "Bool", "Int", "Real", "as", "par", "assert", "div", "mod",
];

fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

fn lower_first(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// `Years of Service` → `yearsOfService`.
pub fn camel(name: &str) -> String {
    let words = words(name);
    let joined: String = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if i == 0 {
                lower_first(w)
            } else {
                capitalized(w)
            }
        })
        .collect();
    safe(joined, "value")
}

/// `risk category` → `RiskCategory`.
pub fn pascal(name: &str) -> String {
    let joined: String = words(name).iter().map(|w| capitalized(w)).collect();
    safe(joined, "Value")
}

/// An enum value as written (`Medium`, `very high` → `VeryHigh`).
pub fn value_symbol(value: &str) -> String {
    let words = words(value);
    if words.len() == 1 {
        safe(words[0].clone(), "Value")
    } else {
        pascal(value)
    }
}

fn safe(joined: String, empty: &str) -> String {
    if joined.is_empty() {
        empty.to_string()
    } else if joined.starts_with(|c: char| c.is_ascii_digit())
        || RESERVED.contains(&joined.as_str())
    {
        format!("{empty}{joined}")
    } else {
        joined
    }
}

/// The symbols a model already uses; hands out unused ones.
#[derive(Debug, Default)]
pub struct Symbols {
    used: HashSet<String>,
}

impl Symbols {
    /// `wanted` if unused, else `fallback`, else `fallback2`, `fallback3`…
    pub fn claim(&mut self, wanted: String, fallback: String) -> String {
        let mut candidate = wanted;
        if self.used.contains(&candidate) {
            candidate = fallback.clone();
        }
        let mut n = 2;
        while self.used.contains(&candidate) {
            candidate = format!("{fallback}{n}");
            n += 1;
        }
        self.used.insert(candidate.clone());
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_symbols() {
        assert_eq!(camel("Years of Service"), "yearsOfService");
        assert_eq!(camel("Extra days case 1"), "extraDaysCase1");
        assert_eq!(pascal("RiskCategory"), "RiskCategory");
        assert_eq!(value_symbol("Medium"), "Medium");
        assert_eq!(value_symbol("very high"), "VeryHigh");
        assert_eq!(value_symbol("1st"), "Value1st");
        assert_eq!(camel("and"), "valueand");
        let mut symbols = Symbols::default();
        assert_eq!(symbols.claim("Low".into(), "Risk_Low".into()), "Low");
        assert_eq!(symbols.claim("Low".into(), "Rate_Low".into()), "Rate_Low");
        assert_eq!(symbols.claim("Low".into(), "Rate_Low".into()), "Rate_Low2");
    }
}
