//! The value a scenario prefers for each integer variable, where the rules
//! allow it. A preference never changes a finding (it is a soft guard,
//! dropped when the rules and the question refute it); it makes scenarios
//! read like real cases: a count is zero (nothing happens that need not),
//! and a measure such as an age takes a value the rules themselves use
//! (the middle one of the thresholds it is compared with) rather than 0.

use crate::core::smt::{Expr, ExprKind, Op};
use num_bigint::BigInt;
use std::collections::{BTreeSet, HashMap};

/// The integer constants each variable is compared with directly in
/// `formula`: `(>= riderAge 16)`, `(= units 3)`, `(< 24 riderAge)`.
pub fn compared_constants(formula: &Expr) -> Vec<(String, BigInt)> {
    let mut found = Vec::new();
    formula.visit(&mut |e| {
        if let ExprKind::App(op, args) = &e.kind
            && matches!(
                op,
                Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Distinct
            )
            && let [a, b] = args.as_slice()
        {
            match (&a.kind, &b.kind) {
                (ExprKind::Symbol(name), ExprKind::Int(value))
                | (ExprKind::Int(value), ExprKind::Symbol(name)) => {
                    found.push((name.clone(), value.clone()));
                }
                _ => {}
            }
        }
    });
    found
}

/// Whether a variable counts things (its count is best zero when nothing
/// requires more): its description starts "Number of" or "How many", or its
/// name says count.
pub fn counts_things(name: &str, description: &str) -> bool {
    let description = description.trim().to_lowercase();
    let name = name.to_lowercase();
    ["number of", "how many", "count of", "the number of"]
        .iter()
        .any(|p| description.starts_with(p))
        || name.starts_with("num")
        || name.starts_with("count")
        || name.ends_with("count")
}

/// The preferred value of each variable that has one other than zero: the
/// middle of the distinct constants the rules compare it with (the upper
/// one of two), for variables that do not count things.
pub fn preferred_values<'a>(
    rule_constants: impl IntoIterator<Item = &'a [(String, BigInt)]>,
    counts: &dyn Fn(&str) -> bool,
) -> HashMap<String, BigInt> {
    let mut constants: HashMap<&str, BTreeSet<&BigInt>> = HashMap::new();
    for rule in rule_constants {
        for (name, value) in rule {
            constants.entry(name).or_default().insert(value);
        }
    }
    constants
        .into_iter()
        .filter(|(name, _)| !counts(name))
        .filter_map(|(name, values)| {
            let middle = values.iter().nth(values.len() / 2)?;
            Some((name.to_string(), (*middle).clone()))
        })
        .filter(|(_, value)| *value != BigInt::from(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::smt::parse_expr;

    #[test]
    fn measures_prefer_the_middle_threshold_and_counts_zero() {
        let rules: Vec<Vec<(String, BigInt)>> = [
            "(=> (< riderAge 16) (not mayRide))",
            "(=> (and (>= riderAge 17) hasCar) exempt)",
            "(=> (>= 24 riderAge) needsTest)",
            "(=> (> passengers 2) bus)",
            "(= units 0)",
        ]
        .iter()
        .map(|r| compared_constants(&parse_expr(r).unwrap()))
        .collect();
        let counts = |name: &str| {
            counts_things(
                name,
                if name == "passengers" {
                    "Number of passengers"
                } else {
                    ""
                },
            )
        };
        let preferred = preferred_values(rules.iter().map(Vec::as_slice), &counts);
        assert_eq!(preferred.get("riderAge"), Some(&BigInt::from(17)));
        assert_eq!(preferred.get("passengers"), None);
        assert_eq!(preferred.get("units"), None);
        assert!(counts_things("numberOfDays", ""));
        assert!(counts_things(
            "creditUnits",
            "Number of 5-credit units the visitor uses"
        ));
        assert!(!counts_things("riderAge", "Age of the rider in years"));
    }
}
