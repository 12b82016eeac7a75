//! The value a scenario prefers for each Int and Real variable, where the
//! rules allow it. A preference never changes a finding (it is a soft guard,
//! dropped when the rules and the question refute it); it makes scenarios
//! read like real cases: a count is zero (nothing happens that need not),
//! and a measure such as an age or a power output takes a value the rules
//! themselves use (the middle one of the thresholds it is compared with)
//! rather than 0. A Real the rules compare with no threshold (an amount of
//! money they compute, a fee they set) has no preference and keeps the value
//! the solver gives it.
//! Real preferences are dropped before Int ones (`preference_guards.rs`), so they
//! never cost a count or an age its realistic value.

use crate::smt::{Expr, ExprKind, Op};
use num_rational::BigRational;
use std::collections::{BTreeSet, HashMap};

/// A numeral as written in a rule: an integer, a decimal, or `to_real` of one.
fn numeral(e: &Expr) -> Option<BigRational> {
    match &e.kind {
        ExprKind::Int(n) => Some(BigRational::from_integer(n.clone())),
        ExprKind::Decimal(r) => Some(r.clone()),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => numeral(&args[0]),
        _ => None,
    }
}

/// The constants each variable is compared with directly in `formula`:
/// `(>= riderAge 16)`, `(= units 3)`, `(< 24 riderAge)`, `(<= powerKw 11.0)`.
pub fn compared_constants(formula: &Expr) -> Vec<(String, BigRational)> {
    comparisons(
        formula,
        &[Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Distinct],
    )
}

/// The variables `formula` compares with a constant by an inequality (a
/// threshold: `(<= powerKw 11.0)`), not only sets to one (`(= fee 10.0)`).
/// A Real the rules only set is an output they decide; it gets no
/// preference, which would only add a guard to the solver.
pub fn thresholded_variables(formula: &Expr) -> Vec<String> {
    comparisons(formula, &[Op::Lt, Op::Le, Op::Gt, Op::Ge])
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

fn comparisons(formula: &Expr, ops: &[Op]) -> Vec<(String, BigRational)> {
    let mut found = Vec::new();
    formula.visit(&mut |e| {
        if let ExprKind::App(op, args) = &e.kind
            && ops.contains(op)
            && let [a, b] = args.as_slice()
        {
            let compared = match (&a.kind, &b.kind) {
                (ExprKind::Symbol(name), _) => numeral(b).map(|value| (name, value)),
                (_, ExprKind::Symbol(name)) => numeral(a).map(|value| (name, value)),
                _ => None,
            };
            if let Some((name, value)) = compared {
                found.push((name.clone(), value));
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
/// one of two), for variables that do not count things. An Int variable
/// uses it only when it is a whole number.
pub fn preferred_values<'a>(
    rule_constants: impl IntoIterator<Item = &'a [(String, BigRational)]>,
    counts: &dyn Fn(&str) -> bool,
) -> HashMap<String, BigRational> {
    let mut constants: HashMap<&str, BTreeSet<&BigRational>> = HashMap::new();
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
        .filter(|(_, value)| *value != BigRational::from_integer(0.into()))
        .collect()
}

/// Whether `formula` rules out `name = value` on its face: one of its
/// top-level conjuncts compares `name` alone with a constant, and `value`
/// fails that comparison (`(= days 34)` rules out 17, `(not (> units 26))`
/// does not rule out 0). Such a preference is not offered for a check the
/// formula is part of: the solver would refute it anyway, and every
/// refutation costs a check.
pub fn rules_out(formula: &Expr, name: &str, value: &BigRational) -> bool {
    match &formula.kind {
        ExprKind::App(Op::And, conjuncts) => conjuncts.iter().any(|c| rules_out(c, name, value)),
        ExprKind::App(Op::Not, args) if args.len() == 1 => {
            compares(&args[0], name, value).is_some_and(|holds| holds)
        }
        _ => compares(formula, name, value).is_some_and(|holds| !holds),
    }
}

/// Whether `name = value` satisfies `atom` when it compares `name` with a
/// constant; `None` for any other formula.
fn compares(atom: &Expr, name: &str, value: &BigRational) -> Option<bool> {
    let ExprKind::App(op, args) = &atom.kind else {
        return None;
    };
    let [a, b] = args.as_slice() else {
        return None;
    };
    let is_name = |e: &Expr| matches!(&e.kind, ExprKind::Symbol(s) if s == name);
    let (left, right) = match (is_name(a), is_name(b)) {
        (true, false) => (value.clone(), numeral(b)?),
        (false, true) => (numeral(a)?, value.clone()),
        _ => return None,
    };
    Some(match op {
        Op::Lt => left < right,
        Op::Le => left <= right,
        Op::Gt => left > right,
        Op::Ge => left >= right,
        Op::Eq => left == right,
        Op::Distinct => left != right,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    fn constants_of(rules: &[&str]) -> Vec<Vec<(String, BigRational)>> {
        rules
            .iter()
            .map(|r| compared_constants(&parse_expr(r).unwrap()))
            .collect()
    }

    fn whole(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    #[test]
    fn measures_prefer_the_middle_threshold_and_counts_zero() {
        let rules = constants_of(&[
            "(=> (< riderAge 16) (not mayRide))",
            "(=> (and (>= riderAge 17) hasCar) exempt)",
            "(=> (>= 24 riderAge) needsTest)",
            "(=> (> passengers 2) bus)",
            "(= units 0)",
        ]);
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
        assert_eq!(preferred.get("riderAge"), Some(&whole(17)));
        assert_eq!(preferred.get("passengers"), None);
        assert_eq!(preferred.get("units"), None);
        assert!(counts_things("numberOfDays", ""));
        assert!(counts_things(
            "creditUnits",
            "Number of 5-credit units the visitor uses"
        ));
        assert!(!counts_things("riderAge", "Age of the rider in years"));
    }

    #[test]
    fn a_real_prefers_the_middle_decimal_it_is_compared_with() {
        let rules = constants_of(&[
            "(=> canRide (<= powerKw 11.0))",
            "(=> (> powerKw 35.5) needsFullLicence)",
            "(=> (and fast (>= 2.5 powerKw)) moped)",
            "(= fee (* 0.75 baseFee))",
            "(=> (>= (+ fee 1.0) 50.0) expensive)",
            "(=> (<= (to_real riderAge) 3.0) child)",
        ]);
        let preferred = preferred_values(rules.iter().map(Vec::as_slice), &|_| false);
        // 2.5, 11 and 35.5 are compared with the power output: the middle one.
        assert_eq!(preferred.get("powerKw"), Some(&whole(11)));
        // Amounts the rules compute, and sums, are compared with no constant
        // directly: no preference, the solver's value stays.
        assert_eq!(preferred.get("fee"), None);
        assert_eq!(preferred.get("baseFee"), None);
        assert_eq!(preferred.get("riderAge"), None);
        let thresholded = |rule: &str| thresholded_variables(&parse_expr(rule).unwrap());
        assert_eq!(thresholded("(=> (> powerKw 11.0) bike)"), ["powerKw"]);
        assert!(thresholded("(=> (> rate 0.0) (= processingFee 10.0))") == ["rate"]);
    }

    #[test]
    fn a_question_rules_out_the_values_it_pins_on_its_face() {
        let rules_out = |formula: &str, value: i64| {
            super::rules_out(&parse_expr(formula).unwrap(), "days", &whole(value))
        };
        assert!(rules_out("(and (= tier GOLD) (= days 34))", 17));
        assert!(!rules_out("(and (= tier GOLD) (= days 34))", 34));
        assert!(rules_out("(> days 26)", 0));
        assert!(!rules_out("(not (> days 26))", 0));
        assert!(rules_out("(not (>= 10 days))", 3));
        assert!(rules_out("(<= (to_real 30) days)", 17));
        // A disjunction, or a comparison of several variables, pins nothing.
        assert!(!rules_out("(or (= days 34) hasDocs)", 17));
        assert!(!rules_out("(> days other)", 0));
        assert!(!rules_out("(> other 26)", 0));
    }

    #[test]
    fn a_fractional_threshold_is_kept_exactly() {
        let rules = constants_of(&["(=> (< 37.45 bodyTemperature) fever)"]);
        let preferred = preferred_values(rules.iter().map(Vec::as_slice), &|_| false);
        assert_eq!(
            preferred.get("bodyTemperature"),
            Some(&BigRational::new(3745.into(), 100.into()))
        );
        let zero = constants_of(&["(=> (> balance 0.0) inCredit)"]);
        let preferred = preferred_values(zero.iter().map(Vec::as_slice), &|_| false);
        assert_eq!(preferred.get("balance"), None);
    }
}
