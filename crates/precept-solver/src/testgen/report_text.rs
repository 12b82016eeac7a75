//! How coverage and mutation figures are written, the same in the CLI, the
//! status line and the Coverage pane: percentages with one decimal, counts
//! with thousands separated.

/// A percentage (0–100) as shown everywhere: one decimal, "9.4%".
pub fn percent_text(percent: f64) -> String {
    format!("{percent:.1}%")
}

/// A score (a fraction, 0–1) as shown everywhere: "9.4%", or "n/a" when
/// there is none.
pub fn score_text(score: Option<f64>) -> String {
    score.map_or_else(|| "n/a".to_string(), |s| percent_text(s * 100.0))
}

/// A count with thousands separated by commas: 6000 → "6,000".
pub fn thousands(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(300), "300");
        assert_eq!(thousands(6000), "6,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn scores_and_percentages_have_one_decimal() {
        assert_eq!(score_text(Some(17.0 / 181.0)), "9.4%");
        assert_eq!(score_text(Some(1.0)), "100.0%");
        assert_eq!(score_text(None), "n/a");
        assert_eq!(percent_text(66.66), "66.7%");
    }
}
