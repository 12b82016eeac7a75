//! Open values shown without the solver. In a model of the cone's rules and
//! the premise, one variable is given another value; each rule that mentions
//! a changed variable and no longer holds is repaired, when it defines a
//! variable (`(=> cond (= out expr))`, `(= out expr)`, `(=> cond out)`,
//! `(=> cond (not out))`), by giving `out` the value the rule demands, which
//! may break further rules in turn (forward chaining). When every rule that
//! mentions a changed variable, and the premise, then hold by exact
//! evaluation (`evaluate.rs`), the changed assignment is a second model, and
//! each variable it changed is open. Most values of a large model are shown
//! open this way; only the rest go to the solver's joint check.

use crate::model::evaluate::{Known, evaluate, holds, integer};
use crate::model::finding::{Scenario, Value};
use crate::smt::{Expr, ExprKind, Op};
use crate::solve::SessionQuery;
use num_rational::BigRational;
use std::collections::{HashMap, HashSet};

/// How many variables one move may change before it is given up.
const MOST_CHANGES: usize = 64;

struct Moves<'a, 'p> {
    query: &'a SessionQuery<'p>,
    premise: &'a Expr,
    in_premise: HashSet<&'a str>,
    known: HashMap<&'a str, Known>,
    rules_of: HashMap<String, Vec<usize>>,
}

/// The variables of `model` (a model of the query's cone and `premise`,
/// showing every variable they mention) that a move shows open.
pub fn open_by_moves(
    query: &SessionQuery<'_>,
    premise: &Expr,
    model: &Scenario,
) -> HashSet<String> {
    let mut rules_of: HashMap<String, Vec<usize>> = HashMap::new();
    for rule in query.rules() {
        for variable in rule.variables {
            rules_of.entry(variable).or_default().push(rule.position);
        }
    }
    let moves = Moves {
        query,
        premise,
        in_premise: premise.symbols().into_iter().collect(),
        known: model
            .values
            .iter()
            .filter_map(|(name, value)| Some((name.as_str(), Known::of(value)?)))
            .collect(),
        rules_of,
    };
    let mut open = HashSet::new();
    for (variable, value) in &model.values {
        if open.contains(variable) {
            continue;
        }
        for other in alternatives(query, variable, value) {
            if let Some(changed) = moves.second_model(variable, other) {
                open.extend(changed);
                break;
            }
        }
    }
    open
}

impl Moves<'_, '_> {
    /// The value of `name` with `changed` over the model.
    fn value(&self, changed: &HashMap<String, Known>, name: &str) -> Option<Known> {
        if let Some(value) = changed.get(name) {
            Some(value.clone())
        } else if let Some(value) = self.known.get(name) {
            Some(value.clone())
        } else if self.query.is_variable(name) {
            None
        } else {
            // An enumeration value names itself.
            Some(Known::Enum(name.to_string()))
        }
    }

    /// Gives `variable` the value `other` and repairs the rules that break;
    /// the variables whose value then differs, when the result is a model.
    fn second_model(&self, variable: &str, other: Known) -> Option<Vec<String>> {
        let mut changed: HashMap<String, Known> = HashMap::new();
        changed.insert(variable.to_string(), other);
        let mut queue = vec![variable.to_string()];
        while let Some(name) = queue.pop() {
            for &rule in self.rules_of.get(&name).map(Vec::as_slice).unwrap_or(&[]) {
                let formula = self.query.rule_formula(rule);
                let lookup = |n: &str| self.value(&changed, n);
                if holds(formula, &lookup) == Some(true) {
                    continue;
                }
                let (out, value) = self.repair(formula, &lookup, &changed)?;
                if self.in_premise.contains(out.as_str()) || changed.len() >= MOST_CHANGES {
                    return None;
                }
                changed.insert(out.clone(), value);
                queue.push(out);
            }
        }
        // Every rule that mentions a changed variable holds, and the premise.
        let lookup = |n: &str| self.value(&changed, n);
        let premise_touched = changed.keys().any(|n| self.in_premise.contains(n.as_str()));
        if premise_touched && holds(self.premise, &lookup) != Some(true) {
            return None;
        }
        for name in changed.keys() {
            for &rule in self.rules_of.get(name).map(Vec::as_slice).unwrap_or(&[]) {
                if holds(self.query.rule_formula(rule), &lookup) != Some(true) {
                    return None;
                }
            }
        }
        Some(
            changed
                .into_iter()
                .filter(|(name, value)| self.known.get(name.as_str()) != Some(value))
                .map(|(name, _)| name)
                .collect(),
        )
    }

    /// For a broken rule that defines a variable not yet changed, that variable
    /// and the value the rule demands of it.
    fn repair(
        &self,
        formula: &Expr,
        lookup: &dyn Fn(&str) -> Option<Known>,
        changed: &HashMap<String, Known>,
    ) -> Option<(String, Known)> {
        let conclusion = match &formula.kind {
            ExprKind::App(Op::Implies, parts) => {
                let (conclusion, conditions) = parts.split_last()?;
                for condition in conditions {
                    if holds(condition, lookup) != Some(true) {
                        return None;
                    }
                }
                conclusion
            }
            _ => formula,
        };
        let free = |e: &Expr| match &e.kind {
            ExprKind::Symbol(name)
                if self.query.is_variable(name)
                    && !changed.contains_key(name)
                    && self.known.contains_key(name.as_str()) =>
            {
                Some(name.clone())
            }
            _ => None,
        };
        match &conclusion.kind {
            ExprKind::Symbol(_) => Some((free(conclusion)?, Known::Bool(true))),
            ExprKind::App(Op::Not, inner) if inner.len() == 1 => {
                Some((free(&inner[0])?, Known::Bool(false)))
            }
            ExprKind::App(Op::Eq, sides) if sides.len() == 2 => {
                let (out, expr) = match (free(&sides[0]), free(&sides[1])) {
                    (Some(out), _) => (out, &sides[1]),
                    (None, Some(out)) => (out, &sides[0]),
                    (None, None) => return None,
                };
                Some((out, evaluate(expr, lookup)?))
            }
            _ => None,
        }
    }
}

/// Other values to try for `variable`, now `value`: the other truth value,
/// the enumeration's other values, a number one (or, for a Real, a half and
/// a hundredth) above and below.
fn alternatives(query: &SessionQuery<'_>, variable: &str, value: &Value) -> Vec<Known> {
    let steps = |n: &BigRational, fine: bool| {
        let mut deltas = vec![integer(1)];
        if fine {
            deltas.push(BigRational::new(1.into(), 2.into()));
            deltas.push(BigRational::new(1.into(), 100.into()));
        }
        deltas
            .into_iter()
            .flat_map(|d| [n + &d, n - &d])
            .map(Known::Number)
            .collect()
    };
    match value {
        Value::Bool(b) => vec![Known::Bool(!b)],
        Value::Enum(current) => query
            .enum_values(variable)
            .unwrap_or(&[])
            .iter()
            .filter(|v| *v != current)
            .map(|v| Known::Enum(v.clone()))
            .collect(),
        Value::Int(i) => steps(&BigRational::from_integer(i.clone()), false),
        Value::Real(r) => steps(r, true),
        Value::Algebraic(_) => Vec::new(),
    }
}
