//! The scenarios an impossible-situation search (L210) has met, kept as the
//! input facts each makes true. Every scenario satisfies every rule of the
//! group (the solver found it with all of them switched on), so a set of
//! facts that one of them makes true is possible: the search needs no
//! solver check to say so. Nearly every candidate of a large group is
//! answered here, directly or after a repair (on the dense bench model all
//! but about 60 of 6,468).
//!
//! A set that no kept scenario makes true may be a few facts away from a
//! recent one: the pool sets those facts' variables and mends what that
//! breaks (`scenario_repair.rs`); the mended scenario satisfies every rule
//! of the group by exact evaluation of those its changes touch.
//!
//! A fact counts as true only when the scenario's value makes it so by
//! exact comparison; a value that cannot be compared (an irrational number)
//! makes no fact true, and the question goes to the solver.

use super::input_facts::{Fact, FactValue};
use super::scenario_repair::{Rules, known_values};
use crate::model::evaluate::Known;
use crate::solve::Scenario;
use num_rational::BigRational;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// The most recent whole scenarios kept for repairs.
const BASES: usize = 4;

/// The most facts a repair sets.
const MOST_REPAIRED: usize = 3;

/// The facts each kept scenario makes true, one bit per fact, and the
/// latest whole scenarios.
pub(super) struct SituationPool<'a> {
    facts: &'a [Fact],
    words: usize,
    kept: Vec<Vec<u64>>,
    /// Whole scenarios (every variable of the group) with their bits.
    bases: Vec<(Vec<u64>, HashMap<String, Known>)>,
    /// The group's rules, for mending a scenario.
    rules: Rules<'a>,
    /// The facts about each variable.
    facts_of: HashMap<&'a str, Vec<usize>>,
}

impl<'a> SituationPool<'a> {
    /// A pool for the search over `facts` in a group of `rules`.
    pub(super) fn new(facts: &'a [Fact], rules: Rules<'a>) -> SituationPool<'a> {
        let mut facts_of: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, fact) in facts.iter().enumerate() {
            facts_of.entry(fact.variable.as_str()).or_default().push(i);
        }
        SituationPool {
            facts,
            facts_of,
            words: facts.len().div_ceil(64),
            kept: Vec::new(),
            bases: Vec::new(),
            rules,
        }
    }

    /// Keeps a whole scenario of the group (every variable), for repairs
    /// too.
    pub(super) fn keep_whole(&mut self, scenario: &Scenario) {
        let values = known_values(scenario);
        let bits = self.bits(&values);
        self.kept.push(bits.clone());
        if self.bases.len() == BASES {
            self.bases.remove(0);
        }
        self.bases.push((bits, values));
    }

    /// The facts `values` make true.
    fn bits(&self, values: &HashMap<String, Known>) -> Vec<u64> {
        let mut bits = vec![0u64; self.words];
        for (i, fact) in self.facts.iter().enumerate() {
            if values
                .get(fact.variable.as_str())
                .is_some_and(|value| known_holds(fact, value))
            {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        bits
    }

    /// Whether `set` is possible: a kept scenario makes all its facts
    /// true, or a repair of a recent one does (then it is kept).
    pub(super) fn settles(&mut self, set: &[usize]) -> bool {
        if self.possible(set) {
            return true;
        }
        let wanted = self.wanted(set);
        for b in (0..self.bases.len()).rev() {
            let missing: Vec<usize> = set
                .iter()
                .copied()
                .filter(|&i| self.bases[b].0[i / 64] & (1 << (i % 64)) == 0)
                .collect();
            if missing.len() > MOST_REPAIRED {
                continue;
            }
            if let Some(bits) = self.repaired(b, &missing, set)
                && covers(&bits, &wanted)
            {
                self.kept.push(bits);
                return true;
            }
        }
        false
    }

    /// The facts true in base `b` with the facts `missing` made true (each
    /// variable at the fact's own value: a bound's threshold or the step
    /// past it) and what that breaks mended, no variable of `set`'s facts
    /// changing in the mending.
    fn repaired(&self, b: usize, missing: &[usize], set: &[usize]) -> Option<Vec<u64>> {
        let (bits, base) = &self.bases[b];
        let start = missing
            .iter()
            .map(|&i| {
                let fact = &self.facts[i];
                Some((fact.variable.clone(), Known::of(&fact.value())?))
            })
            .collect::<Option<Vec<_>>>()?;
        let pinned: HashSet<&str> = set
            .iter()
            .map(|&i| self.facts[i].variable.as_str())
            .collect();
        let changed = self.rules.mend(base, start, &pinned)?;
        let mut bits = bits.clone();
        for (variable, value) in &changed {
            for &i in self.facts_of.get(variable.as_str()).into_iter().flatten() {
                match known_holds(&self.facts[i], value) {
                    true => bits[i / 64] |= 1 << (i % 64),
                    false => bits[i / 64] &= !(1 << (i % 64)),
                }
            }
        }
        Some(bits)
    }

    fn wanted(&self, set: &[usize]) -> Vec<u64> {
        let mut wanted = vec![0u64; self.words];
        for &i in set {
            wanted[i / 64] |= 1 << (i % 64);
        }
        wanted
    }

    /// Whether a kept scenario makes every fact of `set` true.
    fn possible(&self, set: &[usize]) -> bool {
        let wanted = self.wanted(set);
        self.kept.iter().any(|bits| covers(bits, &wanted))
    }
}

fn covers(bits: &[u64], wanted: &[u64]) -> bool {
    bits.iter()
        .zip(wanted)
        .all(|(have, want)| want & !have == 0)
}

/// Whether `value` of the fact's variable makes the fact true.
fn known_holds(fact: &Fact, value: &Known) -> bool {
    match (&fact.value, value) {
        (FactValue::Bool(b), Known::Bool(v)) => b == v,
        (FactValue::Enum(e), Known::Enum(v)) => e == v,
        (FactValue::Bound { .. }, Known::Number(n)) => bound_holds(fact, n),
        _ => false,
    }
}

fn bound_holds(fact: &Fact, number: &BigRational) -> bool {
    let Some((relation, bound)) = fact.value.bound() else {
        return false;
    };
    let order = number.cmp(bound);
    match relation {
        super::input_facts::Relation::AtMost => order != Ordering::Greater,
        super::input_facts::Relation::Under => order == Ordering::Less,
        super::input_facts::Relation::AtLeast => order != Ordering::Less,
        super::input_facts::Relation::Over => order == Ordering::Greater,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::finding::Value;
    use crate::smt::Sort;
    use crate::solve::lint_checks::input_facts::Relation;

    fn fact(variable: &str, value: FactValue) -> Fact {
        Fact {
            variable: variable.into(),
            value,
        }
    }

    const SORTS: [Sort; 3] = [Sort::Bool, Sort::Int, Sort::Bool];

    /// One rule over `variables` (b Bool, n Int, e the enum E).
    fn rules<'a>(rule: &'a crate::smt::Expr, variables: &[&str]) -> Rules<'a> {
        static ENUM: std::sync::OnceLock<Sort> = std::sync::OnceLock::new();
        let enum_sort = ENUM.get_or_init(|| Sort::Enum("E".into()));
        Rules {
            touching: variables
                .iter()
                .map(|v| (v.to_string(), vec![rule]))
                .collect(),
            sorts: HashMap::from([("b", &SORTS[0]), ("n", &SORTS[1]), ("e", enum_sort)]),
            enum_values: HashSet::from(["red", "blue"]),
        }
    }

    fn scenario(values: &[(&str, Value)]) -> Scenario {
        Scenario {
            values: values
                .iter()
                .map(|(name, value)| (name.to_string(), value.clone()))
                .collect(),
        }
    }

    fn at_most_40(holds: bool) -> FactValue {
        FactValue::Bound {
            relation: Relation::AtMost,
            bound: BigRational::from_integer(40.into()),
            integer: true,
            holds,
        }
    }

    #[test]
    fn a_set_is_possible_when_one_scenario_makes_all_its_facts_true() {
        let facts = vec![
            fact("b", FactValue::Bool(true)),
            fact("b", FactValue::Bool(false)),
            fact("n", at_most_40(true)),
            fact("n", at_most_40(false)),
            fact("e", FactValue::Enum("red".into())),
        ];
        // A rule over every variable: no repair can hold.
        let rule = crate::smt::parser::parse_expr("(or b (not b) (= n 7) (= e red))").unwrap();
        let mut pool = SituationPool::new(&facts, rules(&rule, &["b", "n", "e"]));
        assert!(!pool.settles(&[0]));
        pool.keep_whole(&scenario(&[
            ("b", Value::Bool(true)),
            ("n", Value::Int(40.into())),
            ("e", Value::Enum("blue".into())),
        ]));
        pool.keep_whole(&scenario(&[
            ("b", Value::Bool(false)),
            ("n", Value::Int(41.into())),
            ("e", Value::Enum("red".into())),
        ]));
        assert!(pool.possible(&[0, 2]));
        assert!(pool.possible(&[1, 3, 4]));
        // Each is true in some scenario, never together; the rule holds
        // whatever the values, so a repair settles them.
        assert!(!pool.possible(&[0, 4]));
        assert!(pool.settles(&[0, 4]));
    }

    #[test]
    fn a_repair_holds_only_when_the_rules_of_its_changed_variables_do() {
        let facts = vec![
            fact("b", FactValue::Bool(true)),
            fact("n", at_most_40(true)),
            fact("e", FactValue::Enum("red".into())),
            fact("e", FactValue::Enum("blue".into())),
        ];
        // b forces e = red; n is free.
        let rule = crate::smt::parser::parse_expr("(=> b (= e red))").unwrap();
        let mut pool = SituationPool::new(&facts, rules(&rule, &["b", "e"]));
        pool.keep_whole(&scenario(&[
            ("b", Value::Bool(false)),
            ("n", Value::Int(90.into())),
            ("e", Value::Enum("blue".into())),
        ]));
        // n at most 40: no rule mentions n.
        assert!(pool.settles(&[1]));
        // b breaks the rule, mended by e = red; not when e must stay blue.
        assert!(pool.settles(&[0]));
        assert!(!pool.settles(&[0, 3]));
        assert!(pool.settles(&[0, 1, 2]));
    }
}
