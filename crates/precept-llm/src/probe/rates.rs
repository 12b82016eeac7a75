//! Rates with 95% Wilson score intervals, and the breakdowns of verdicts by
//! rule and by kind.

use super::Verdict;
use serde::Serialize;
use std::collections::BTreeMap;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A share of the answers with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub count: usize,
    pub of: usize,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// `count` of `of`; with nothing asked the rate is 0 and the interval
    /// is all of [0, 1].
    pub fn new(count: usize, of: usize) -> Rate {
        let (low, high) = wilson(count, of);
        Rate {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }
}

/// The 95% Wilson score interval of `successes` in `trials`.
pub fn wilson(successes: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The three failure rates of a set of answers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rates {
    pub hallucination: Rate,
    pub incomplete: Rate,
    pub inconsistent: Rate,
}

impl Rates {
    pub fn of(verdicts: &[Verdict]) -> Rates {
        let n = verdicts.len();
        let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
        Rates {
            hallucination: Rate::new(count(Verdict::Hallucination), n),
            incomplete: Rate::new(count(Verdict::Incomplete), n),
            inconsistent: Rate::new(count(Verdict::Inconsistent), n),
        }
    }
}

/// The rates of the answers in one group (a rule, a kind).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Breakdown {
    pub asked: usize,
    pub hallucination: Rate,
    pub incomplete: Rate,
    pub inconsistent: Rate,
}

/// Groups verdicts by key and gives each group its rates.
pub fn breakdown(
    items: impl IntoIterator<Item = (Vec<String>, Verdict)>,
) -> BTreeMap<String, Breakdown> {
    let mut groups: BTreeMap<String, Vec<Verdict>> = BTreeMap::new();
    for (keys, verdict) in items {
        for key in keys {
            groups.entry(key).or_default().push(verdict);
        }
    }
    groups
        .into_iter()
        .map(|(key, verdicts)| {
            let rates = Rates::of(&verdicts);
            (
                key,
                Breakdown {
                    asked: verdicts.len(),
                    hallucination: rates.hallucination,
                    incomplete: rates.incomplete,
                    inconsistent: rates.inconsistent,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 5 of 10: about [0.2366, 0.7634].
        let (low, high) = wilson(5, 10);
        assert!((low - 0.2366).abs() < 1e-4, "{low}");
        assert!((high - 0.7634).abs() < 1e-4, "{high}");
        // 0 of 20: [0, about 0.1611].
        let (low, high) = wilson(0, 20);
        assert_eq!(low, 0.0);
        assert!((high - 0.1611).abs() < 1e-4, "{high}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn rates_count_each_verdict() {
        let rates = Rates::of(&[
            Verdict::Correct,
            Verdict::Hallucination,
            Verdict::Hallucination,
            Verdict::Inconsistent,
        ]);
        assert_eq!(rates.hallucination.count, 2);
        assert_eq!(rates.hallucination.rate, 0.5);
        assert_eq!(rates.inconsistent.count, 1);
        assert_eq!(rates.incomplete.count, 0);
        let by = breakdown([
            (
                vec!["R1".to_string(), "R2".to_string()],
                Verdict::Hallucination,
            ),
            (vec!["R1".to_string()], Verdict::Correct),
        ]);
        assert_eq!(by["R1"].asked, 2);
        assert_eq!(by["R2"].hallucination.count, 1);
    }
}
