//! A scenario of a group changed at a few variables, then mended: each rule
//! the change breaks gets its conclusion made true (a comparison's variable
//! set to the value that satisfies it), and the rules of every variable
//! that changed are evaluated in turn, until all hold or the mending gives
//! up. Only the rules that mention a changed variable can break, so when
//! they all hold by exact evaluation the mended scenario satisfies every
//! rule of the group. Nothing here asks the solver.

use crate::model::evaluate::{Known, evaluate, holds};
use crate::smt::{Expr, ExprKind, Op, Sort};
use num_rational::BigRational;
use num_traits::One;
use std::collections::{HashMap, HashSet};

/// A scenario's values as exact evaluation reads them (an irrational
/// value left out: unknown).
pub(super) fn known_values(scenario: &crate::solve::Scenario) -> HashMap<String, Known> {
    scenario
        .values
        .iter()
        .filter_map(|(name, value)| Some((name.clone(), Known::of(value)?)))
        .collect()
}

/// The most rules mended in one repair (a longer chain goes to the solver).
const MOST_MENDED: usize = 24;

/// What a repair reads: the rules that mention each variable, each
/// variable's sort, and the enumerations' values.
pub(super) struct Rules<'a> {
    pub(super) touching: HashMap<String, Vec<&'a Expr>>,
    pub(super) sorts: HashMap<&'a str, &'a Sort>,
    pub(super) enum_values: HashSet<&'a str>,
}

impl Rules<'_> {
    /// The values that change when `base` (a scenario of every rule) takes
    /// `start` and is mended, none of `pinned` changing after `start`;
    /// None when the mending gives up.
    pub(super) fn mend(
        &self,
        base: &HashMap<String, Known>,
        start: Vec<(String, Known)>,
        pinned: &HashSet<&str>,
    ) -> Option<HashMap<String, Known>> {
        self.mend_all_but(base, start, pinned, None)
    }

    /// Whether `base` can be changed into a scenario of every rule but
    /// `rule` (`condition` ⇒ `conclusion`) in which `rule` is false: its
    /// condition made true and its conclusion false, then the rest mended
    /// without changing `rule`'s variables. True only when the result
    /// holds by exact evaluation: then `rule` does not follow from the
    /// others.
    pub(super) fn breaks(
        &self,
        base: &HashMap<String, Known>,
        rule: &Expr,
        condition: &Expr,
        conclusion: &Expr,
        variables: &HashSet<&str>,
    ) -> bool {
        let none = HashSet::new();
        let mut start = Vec::new();
        let lookup = |name: &str| self.value(base, &HashMap::new(), name);
        if self
            .make_true(condition, &lookup, &none, &mut start)
            .is_none()
        {
            return false;
        }
        let applied: HashMap<String, Known> = start.iter().cloned().collect();
        let lookup = |name: &str| self.value(base, &applied, name);
        let denied = crate::model::orientation::negation_of(conclusion);
        if self
            .make_true(&denied, &lookup, &none, &mut start)
            .is_none()
        {
            return false;
        }
        let Some(changed) = self.mend_all_but(base, start, variables, Some(rule)) else {
            return false;
        };
        let lookup = |name: &str| self.value(base, &changed, name);
        holds(rule, &lookup) == Some(false)
    }

    /// What mending a scenario of `model`'s rules at `rules` reads.
    pub(super) fn of_rules<'m>(
        model: &'m crate::model::CompiledModel,
        rules: &[usize],
    ) -> Rules<'m> {
        let sorts: HashMap<&str, &Sort> = model
            .variables
            .iter()
            .map(|(n, s)| (n.as_str(), s))
            .collect();
        let mut touching: HashMap<String, Vec<&Expr>> = HashMap::new();
        for &r in rules {
            let formula = &model.rules[r].formula;
            let mut variables = formula.symbols();
            variables.sort_unstable();
            variables.dedup();
            for variable in variables.into_iter().filter(|v| sorts.contains_key(v)) {
                touching
                    .entry(variable.to_string())
                    .or_default()
                    .push(formula);
            }
        }
        Rules {
            touching,
            sorts,
            enum_values: model
                .enums
                .iter()
                .flat_map(|(_, values)| values.iter().map(String::as_str))
                .collect(),
        }
    }

    /// The values that change when `base` is mended so that each rule of
    /// `broken` holds: its conclusion made true, then the rules of every
    /// variable that changed in turn; None when the mending gives up.
    pub(super) fn mend_broken(
        &self,
        base: &HashMap<String, Known>,
        broken: &[&Expr],
    ) -> Option<HashMap<String, Known>> {
        let none = HashSet::new();
        let mut start = Vec::new();
        let lookup = |name: &str| self.value(base, &HashMap::new(), name);
        for rule in broken {
            let conclusion = conclusion_of(rule);
            self.make_true(conclusion, &lookup, &none, &mut start)?;
        }
        self.mend(base, start, &none)
    }

    /// The same as `mend`, leaving `skip` (one of the rules) unmended.
    fn mend_all_but(
        &self,
        base: &HashMap<String, Known>,
        start: Vec<(String, Known)>,
        pinned: &HashSet<&str>,
        skip: Option<&Expr>,
    ) -> Option<HashMap<String, Known>> {
        let mut changed: HashMap<String, Known> = HashMap::new();
        let mut work: Vec<String> = Vec::new();
        for (name, value) in start {
            work.push(name.clone());
            changed.insert(name, value);
        }
        let mut mended = 0;
        while let Some(variable) = work.pop() {
            for &rule in self.touching.get(&variable).into_iter().flatten() {
                if skip.is_some_and(|skip| std::ptr::eq(skip, rule)) {
                    continue;
                }
                let lookup = |name: &str| self.value(base, &changed, name);
                if holds(rule, &lookup) == Some(true) {
                    continue;
                }
                mended += 1;
                if mended > MOST_MENDED {
                    return None;
                }
                let conclusion = conclusion_of(rule);
                let mut fixes = Vec::new();
                self.make_true(conclusion, &lookup, pinned, &mut fixes)?;
                for (name, value) in fixes {
                    work.push(name.clone());
                    changed.insert(name, value);
                }
                let lookup = |name: &str| self.value(base, &changed, name);
                if holds(rule, &lookup) != Some(true) {
                    return None;
                }
            }
        }
        Some(changed)
    }

    fn value(
        &self,
        base: &HashMap<String, Known>,
        changed: &HashMap<String, Known>,
        name: &str,
    ) -> Option<Known> {
        changed
            .get(name)
            .or_else(|| base.get(name))
            .cloned()
            .or_else(|| {
                self.enum_values
                    .contains(name)
                    .then(|| Known::Enum(name.to_string()))
            })
    }

    /// The changes that make `expr` true: a Boolean variable or its
    /// negation, a conjunction of such, an equality or a comparison of one
    /// variable with something of known value.
    fn make_true(
        &self,
        expr: &Expr,
        lookup: &dyn Fn(&str) -> Option<Known>,
        pinned: &HashSet<&str>,
        fixes: &mut Vec<(String, Known)>,
    ) -> Option<()> {
        if holds(expr, lookup) == Some(true) {
            return Some(());
        }
        let free = |name: &str| self.sorts.contains_key(name) && !pinned.contains(name);
        match &expr.kind {
            ExprKind::Symbol(name) if free(name) => {
                fixes.push((name.clone(), Known::Bool(true)));
                Some(())
            }
            ExprKind::App(Op::Not, args) => match &args[..] {
                [
                    Expr {
                        kind: ExprKind::Symbol(name),
                        ..
                    },
                ] if free(name) => {
                    fixes.push((name.clone(), Known::Bool(false)));
                    Some(())
                }
                _ => None,
            },
            ExprKind::App(Op::And, args) => {
                for arg in args {
                    self.make_true(arg, lookup, pinned, fixes)?;
                }
                Some(())
            }
            ExprKind::App(op @ (Op::Eq | Op::Le | Op::Lt | Op::Ge | Op::Gt), args)
                if args.len() == 2 =>
            {
                let sides = [
                    (&args[0], &args[1], *op),
                    (&args[1], &args[0], mirrored(*op)),
                ];
                for (side, other, op) in sides {
                    let Some(name) = variable_of(side).filter(|n| free(n)) else {
                        continue;
                    };
                    let Some(target) = evaluate(other, lookup) else {
                        continue;
                    };
                    let value = self.satisfying(name, op, target)?;
                    fixes.push((name.to_string(), value));
                    return Some(());
                }
                None
            }
            _ => None,
        }
    }

    /// A value of variable `name` for which `name op target` holds.
    fn satisfying(&self, name: &str, op: Op, target: Known) -> Option<Known> {
        let Known::Number(n) = target else {
            return (op == Op::Eq).then_some(target);
        };
        let integer = matches!(self.sorts.get(name), Some(Sort::Int));
        let one = BigRational::one();
        let value = match (op, integer) {
            (Op::Eq, true) if !n.is_integer() => return None,
            (Op::Eq | Op::Le | Op::Ge, false) => n,
            (Op::Eq, true) => n,
            (Op::Le, true) => n.floor(),
            (Op::Ge, true) => n.ceil(),
            (Op::Lt, true) => n.ceil() - one,
            (Op::Gt, true) => n.floor() + one,
            (Op::Lt, false) => n - one,
            (Op::Gt, false) => n + one,
            _ => return None,
        };
        Some(Known::Number(value))
    }
}

/// What a rule makes true when it applies: an implication's conclusion,
/// else the whole rule.
fn conclusion_of(rule: &Expr) -> &Expr {
    match &rule.kind {
        ExprKind::App(Op::Implies, args) if args.len() == 2 => &args[1],
        _ => rule,
    }
}

/// The variable an expression is, perhaps converted to a real.
fn variable_of(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Symbol(name) => Some(name),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => variable_of(&args[0]),
        _ => None,
    }
}

/// The comparison with its sides swapped.
fn mirrored(op: Op) -> Op {
    match op {
        Op::Le => Op::Ge,
        Op::Lt => Op::Gt,
        Op::Ge => Op::Le,
        Op::Gt => Op::Lt,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parser::parse_expr;

    #[test]
    fn a_broken_rule_gets_its_conclusion_and_the_chain_holds_after() {
        let rules = [
            parse_expr("(=> b (>= n 41))").unwrap(),
            parse_expr("(=> (> n 40) (= e red))").unwrap(),
        ];
        let (bool_sort, int_sort, enum_sort) = (Sort::Bool, Sort::Int, Sort::Enum("E".into()));
        let mut touching: HashMap<String, Vec<&Expr>> = HashMap::new();
        touching.entry("b".into()).or_default().push(&rules[0]);
        touching.entry("n".into()).or_default().push(&rules[0]);
        touching.entry("n".into()).or_default().push(&rules[1]);
        touching.entry("e".into()).or_default().push(&rules[1]);
        let repair = Rules {
            touching,
            sorts: HashMap::from([("b", &bool_sort), ("n", &int_sort), ("e", &enum_sort)]),
            enum_values: HashSet::from(["red", "blue"]),
        };
        let base = HashMap::from([
            ("b".to_string(), Known::Bool(false)),
            (
                "n".to_string(),
                Known::Number(BigRational::from_integer(3.into())),
            ),
            ("e".to_string(), Known::Enum("blue".into())),
        ]);
        let changed = repair
            .mend(
                &base,
                vec![("b".into(), Known::Bool(true))],
                &HashSet::from(["b"]),
            )
            .expect("mended");
        assert_eq!(
            changed.get("n"),
            Some(&Known::Number(BigRational::from_integer(41.into())))
        );
        assert_eq!(changed.get("e"), Some(&Known::Enum("red".into())));
        // (=> b (>= n 41)) does not follow from the other rule: b true and
        // n at 40 break it alone.
        assert!(repair.breaks(
            &base,
            &rules[0],
            &parse_expr("b").unwrap(),
            &parse_expr("(>= n 41)").unwrap(),
            &HashSet::from(["b", "n"]),
        ));
        // (=> b (>= n 30)) follows from it: b true and n at 29 break the
        // other rule, which cannot be mended without n.
        let follows = parse_expr("(=> b (>= n 30))").unwrap();
        assert!(!repair.breaks(
            &base,
            &follows,
            &parse_expr("b").unwrap(),
            &parse_expr("(>= n 30)").unwrap(),
            &HashSet::from(["b", "n"]),
        ));
        // With the enum pinned the chain cannot be mended.
        assert!(
            repair
                .mend(
                    &base,
                    vec![("b".into(), Known::Bool(true))],
                    &HashSet::from(["b", "e"])
                )
                .is_none()
        );
    }
}
