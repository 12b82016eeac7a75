//! The behaviour of a change, decided by Z3 over the shared vocabulary.
//! Model A allows a scenario (an assignment of every variable of either
//! model) when all of A's rules hold in it. A and B are equivalent when
//! they allow the same scenarios; A is strictly stronger when it allows
//! fewer. A distinguishing scenario for one direction (allowed by one model,
//! not the other) is minimized to the variables that matter: a smallest set
//! of its values (kept greedily, inputs last) under which the other model
//! allows nothing at all. Each rule changed in text is compared on its own:
//! equivalent alone means a rewrite, otherwise a change in meaning.

use crate::explain::inputs::inputs;
use crate::model::finding::{Scenario, Value};
use crate::model::{CompiledModel, PolicyModel, compile};
use crate::smt::{SmtError, Sort};
use crate::solve::{FormulaQuery, HeldFormula, Interruption, Satisfiability, SolverSession};
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};
use std::time::Duration;

/// How two models relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    Equivalent,
    /// A allows fewer scenarios than B.
    AStronger,
    /// B allows fewer scenarios than A.
    BStronger,
    DifferBothWays,
    /// The solver could not decide, or the models could not be compared.
    Unknown,
}

/// Whether one rule's edit changed what it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleMeaning {
    pub id: String,
    /// None when the solver could not decide.
    pub meaning_changed: Option<bool>,
}

/// The solver's view of a change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Behaviour {
    pub relation: Relation,
    /// Why the comparison is partial or missing (no shared vocabulary, a
    /// variable whose type changed, the solver out of time).
    pub notes: Vec<String>,
    pub a_allows_not_b: Option<Scenario>,
    pub b_allows_not_a: Option<Scenario>,
    pub rules: Vec<RuleMeaning>,
}

/// Stops nothing: the comparison's checks are bounded by Z3's own timeout.
struct Unbounded;

impl Interruption for Unbounded {
    fn reason(&self) -> Option<String> {
        None
    }
    fn limit_checks(&self, _budget: Option<Duration>) {}
    fn start_check(&self) {}
}

/// Compares A and B; `changed` are the ids of the rules whose text differs.
pub fn compare(a: &PolicyModel, b: &PolicyModel, changed: &[String], timeout_ms: u64) -> Behaviour {
    compare_with_progress(a, b, changed, timeout_ms, &|_| {})
}

/// [`compare`], telling `progress` what it is deciding as it goes.
pub fn compare_with_progress(
    a: &PolicyModel,
    b: &PolicyModel,
    changed: &[String],
    timeout_ms: u64,
    progress: &dyn Fn(&str),
) -> Behaviour {
    let mut behaviour = Behaviour {
        relation: Relation::Unknown,
        notes: Vec::new(),
        a_allows_not_b: None,
        b_allows_not_a: None,
        rules: Vec::new(),
    };
    let shared = a
        .variables
        .iter()
        .filter(|v| b.variables.iter().any(|w| w.name == v.name))
        .count();
    if shared == 0 && !(a.variables.is_empty() && b.variables.is_empty()) {
        behaviour.notes.push(
            "no shared vocabulary: the two models have no variable in common, so their behaviour is not compared"
                .into(),
        );
        return behaviour;
    }
    let union = match union_vocabulary(a, b) {
        Ok(union) => union,
        Err(conflict) => {
            behaviour.notes.push(conflict.to_string());
            return behaviour;
        }
    };
    progress("loading both models' vocabulary into the solver");
    let compiled = compile(&union);
    let session = match SolverSession::load(&compiled, timeout_ms) {
        Ok(session) => session,
        Err(e) => {
            behaviour
                .notes
                .push(format!("the solver cannot load the vocabulary: {e}"));
            return behaviour;
        }
    };
    let checker = Checker {
        compiled: &compiled,
        session: &session,
    };
    let all: Vec<String> = compiled.variables.iter().map(|(n, _)| n.clone()).collect();
    let a_all = conjunction(a.rules.iter().map(|r| r.expression.as_str()));
    let b_all = conjunction(b.rules.iter().map(|r| r.expression.as_str()));
    let order = minimization_order(a, b, changed);
    let mut decided = true;
    // Each side's rules held once, when a scenario first needs minimizing.
    let mut held: Option<Result<(HeldFormula, HeldFormula), CheckError>> = None;
    for (question, a_allows, slot) in [
        (
            "equivalence: a scenario A allows and B does not?",
            true,
            &mut behaviour.a_allows_not_b,
        ),
        (
            "equivalence: a scenario B allows and A does not?",
            false,
            &mut behaviour.b_allows_not_a,
        ),
    ] {
        progress(question);
        let (allowed, refused) = match a_allows {
            true => (&a_all, &b_all),
            false => (&b_all, &a_all),
        };
        match checker.check(&format!("(and {allowed} (not {refused}))"), &all) {
            Ok(Some(scenario)) => {
                let pair = held.get_or_insert_with(|| {
                    checker
                        .hold(&a_all)
                        .and_then(|a_held| Ok((a_held, checker.hold(&b_all)?)))
                });
                *slot = Some(match pair {
                    Ok((a_held, b_held)) => {
                        let (allowed, refused) = match a_allows {
                            true => (&*a_held, &*b_held),
                            false => (&*b_held, &*a_held),
                        };
                        checker
                            .single_fact(allowed, refused, &order)
                            .unwrap_or_else(|| checker.minimize(&scenario, refused, &order))
                    }
                    Err(reason) => {
                        behaviour
                            .notes
                            .push(format!("the scenario is not minimized: {reason}"));
                        scenario
                    }
                });
            }
            Ok(None) => {}
            Err(reason) => {
                decided = false;
                behaviour.notes.push(reason.to_string());
            }
        }
    }
    if decided {
        behaviour.relation = match (&behaviour.a_allows_not_b, &behaviour.b_allows_not_a) {
            (None, None) => Relation::Equivalent,
            (None, Some(_)) => Relation::AStronger,
            (Some(_), None) => Relation::BStronger,
            (Some(_), Some(_)) => Relation::DifferBothWays,
        };
    }
    for (done, id) in changed.iter().enumerate() {
        progress(&format!(
            "changed rules: {done}/{} checked for a change of meaning",
            changed.len()
        ));
        let expression = |m: &PolicyModel| {
            m.rules
                .iter()
                .find(|r| &r.id == id)
                .map(|r| r.expression.clone())
        };
        let meaning_changed = match (expression(a), expression(b)) {
            (Some(x), Some(y)) => match checker.check(&format!("(not (= {x} {y}))"), &[]) {
                Ok(found) => Some(found.is_some()),
                Err(reason) => {
                    behaviour.notes.push(format!("rule {id}: {reason}"));
                    None
                }
            },
            _ => None,
        };
        behaviour.rules.push(RuleMeaning {
            id: id.clone(),
            meaning_changed,
        });
    }
    behaviour
}

/// Whether a rule's new text `new` means what its old text `old` meant, over
/// `model`'s types and variables and without the other rules: the per-rule
/// question of the semantic diff, asked when the expert edits an approved
/// rule. Some(true): proved the same (a pure rewrite); Some(false): some
/// scenario tells them apart; None: the solver could not decide, or a text
/// does not check against the vocabulary.
pub fn same_meaning(model: &PolicyModel, old: &str, new: &str, timeout_ms: u64) -> Option<bool> {
    if old == new {
        return Some(true);
    }
    let vocabulary = PolicyModel {
        rules: Vec::new(),
        ..model.clone()
    };
    let compiled = compile(&vocabulary);
    let session = SolverSession::load(&compiled, timeout_ms).ok()?;
    let checker = Checker {
        compiled: &compiled,
        session: &session,
    };
    checker
        .check(&format!("(not (= {old} {new}))"), &[])
        .ok()
        .map(|found| found.is_none())
}

/// A name the two models type differently: their behaviour is not compared.
#[derive(Debug, thiserror::Error)]
enum VocabularyConflict {
    /// An enumeration with other values in B (A's and B's, in order).
    #[error(
        "type {name} has other values in B ({} instead of {}): the behaviour is not compared",
        b_values.join(" "),
        a_values.join(" ")
    )]
    TypeValues {
        name: String,
        a_values: Vec<String>,
        b_values: Vec<String>,
    },
    #[error("variable {name} is {a_sort} in A and {b_sort} in B: the behaviour is not compared")]
    VariableSort {
        name: String,
        a_sort: String,
        b_sort: String,
    },
}

/// The types and variables of both models, without rules; a name typed
/// differently on the two sides is a conflict, reported in words.
fn union_vocabulary(a: &PolicyModel, b: &PolicyModel) -> Result<PolicyModel, VocabularyConflict> {
    let mut union = PolicyModel {
        rules: Vec::new(),
        ..a.clone()
    };
    for def in &b.types {
        match a.types.iter().find(|t| t.name == def.name) {
            None => union.types.push(def.clone()),
            Some(old) => {
                let values = |t: &crate::model::TypeDef| {
                    t.values.iter().map(|v| v.value.clone()).collect::<Vec<_>>()
                };
                if values(old) != values(def) {
                    return Err(VocabularyConflict::TypeValues {
                        name: def.name.clone(),
                        a_values: values(old),
                        b_values: values(def),
                    });
                }
            }
        }
    }
    for variable in &b.variables {
        match a.variables.iter().find(|v| v.name == variable.name) {
            None => union.variables.push(variable.clone()),
            Some(old) if old.sort != variable.sort => {
                return Err(VocabularyConflict::VariableSort {
                    name: variable.name.clone(),
                    a_sort: old.sort.clone(),
                    b_sort: variable.sort.clone(),
                });
            }
            Some(_) => {}
        }
    }
    Ok(union)
}

/// The order in which minimization tries to drop a scenario's values: the
/// variables no differing rule mentions go first (as one block, see
/// `Checker::minimize`), then values rules define, then inputs.
struct Order {
    untouched: Vec<String>,
    one_by_one: Vec<String>,
    /// The inputs of finite domain (Bool, enumerations) the differing
    /// rules mention, in declaration order.
    finite_inputs: Vec<String>,
}

fn minimization_order(a: &PolicyModel, b: &PolicyModel, changed: &[String]) -> Order {
    let differing: Vec<&str> = a
        .rules
        .iter()
        .chain(&b.rules)
        .filter(|r| {
            changed.contains(&r.id)
                || !a.rules.iter().any(|x| x.id == r.id)
                || !b.rules.iter().any(|x| x.id == r.id)
        })
        .map(|r| r.expression.as_str())
        .collect();
    let mentioned: HashSet<String> = differing
        .iter()
        .flat_map(|text| crate::smt::parse_expr(text).ok())
        .flat_map(|e| {
            e.symbols()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let inputs_of =
        |m: &PolicyModel| -> BTreeSet<String> { inputs(&compile(m)).into_iter().collect() };
    let (a_inputs, b_inputs) = (inputs_of(a), inputs_of(b));
    let names: Vec<String> = a
        .variables
        .iter()
        .chain(&b.variables)
        .map(|v| v.name.clone())
        .collect::<Vec<_>>();
    let mut seen = HashSet::new();
    let names: Vec<String> = names
        .into_iter()
        .filter(|n| seen.insert(n.clone()))
        .collect();
    let is_input = |n: &String| a_inputs.contains(n) || b_inputs.contains(n);
    let untouched = names
        .iter()
        .filter(|n| !mentioned.contains(*n))
        .cloned()
        .collect();
    let mut one_by_one: Vec<String> = names
        .iter()
        .filter(|n| mentioned.contains(*n) && !is_input(n))
        .cloned()
        .collect();
    one_by_one.extend(
        names
            .iter()
            .filter(|n| mentioned.contains(*n) && is_input(n))
            .cloned(),
    );
    let finite: HashSet<&str> = a
        .variables
        .iter()
        .chain(&b.variables)
        .filter(|v| v.sort != "Int" && v.sort != "Real")
        .map(|v| v.name.as_str())
        .collect();
    let finite_inputs = names
        .iter()
        .filter(|n| mentioned.contains(*n) && is_input(n) && finite.contains(n.as_str()))
        .cloned()
        .collect();
    Order {
        untouched,
        one_by_one,
        finite_inputs,
    }
}

/// Why a check of the comparison has no answer.
#[derive(Debug, thiserror::Error)]
enum CheckError {
    #[error("a rule does not check against the shared vocabulary: {0}")]
    Unchecked(SmtError),
    /// The solver's reason, in plain words.
    #[error("the solver could not decide: {0}")]
    Undecided(String),
    #[error("the solver gave no answer")]
    NoAnswer,
}

struct Checker<'a> {
    compiled: &'a CompiledModel,
    session: &'a SolverSession,
}

impl Checker<'_> {
    /// `formula` (SMT-LIB text over the shared vocabulary, a model's
    /// rules) held for many questions.
    fn hold(&self, formula: &str) -> Result<HeldFormula, CheckError> {
        let (_, elaborated) = self
            .compiled
            .check_formula(formula)
            .map_err(CheckError::Unchecked)?;
        self.session
            .hold(&elaborated)
            .map_err(CheckError::Undecided)
    }

    /// A scenario of `formula` (showing `show`), None when unsatisfiable,
    /// or why the solver could not say.
    fn check(&self, formula: &str, show: &[String]) -> Result<Option<Scenario>, CheckError> {
        let query = self.query(formula, show)?;
        answer(self.session.check_formulas(&[query], &Unbounded).pop())
    }

    /// The same, of `formula` with the `held` one.
    fn check_on(
        &self,
        held: &HeldFormula,
        formula: &str,
        show: &[String],
    ) -> Result<Option<Scenario>, CheckError> {
        let query = self.query(formula, show)?;
        answer(Some(self.session.check_with(held, &query, &Unbounded)))
    }

    fn query(&self, formula: &str, show: &[String]) -> Result<FormulaQuery, CheckError> {
        let (_, elaborated) = self
            .compiled
            .check_formula(formula)
            .map_err(CheckError::Unchecked)?;
        Ok(FormulaQuery {
            formula: elaborated,
            show: show.to_vec(),
        })
    }

    /// A scenario of one value: a Bool or enumeration input that the
    /// differing rules mention, fixed to a value under which `allowed`
    /// allows something and `refused` nothing (the smallest scenario there
    /// can be; tried before minimizing the solver's first scenario).
    fn single_fact(
        &self,
        allowed: &HeldFormula,
        refused: &HeldFormula,
        order: &Order,
    ) -> Option<Scenario> {
        for name in &order.finite_inputs {
            let values: Vec<Value> = match self.compiled.variables.iter().find(|(n, _)| n == name) {
                Some((_, Sort::Bool)) => vec![Value::Bool(true), Value::Bool(false)],
                Some((_, Sort::Enum(sort))) => self
                    .compiled
                    .enums
                    .iter()
                    .find(|(e, _)| e == sort)
                    .map(|(_, values)| values.iter().cloned().map(Value::Enum).collect())
                    .unwrap_or_default(),
                _ => continue,
            };
            for value in values {
                let Some(fact) = literal(name, &value) else {
                    continue;
                };
                let refused_nothing = matches!(self.check_on(refused, &fact, &[]), Ok(None));
                if refused_nothing && matches!(self.check_on(allowed, &fact, &[]), Ok(Some(_))) {
                    return Some(Scenario {
                        values: vec![(name.clone(), value)],
                    });
                }
            }
        }
        None
    }

    /// Keeps the fewest values of `scenario` under which `refused` still
    /// allows nothing. A value that cannot be written back as a literal
    /// (an irrational number) is kept.
    fn minimize(&self, scenario: &Scenario, refused: &HeldFormula, order: &Order) -> Scenario {
        let mut kept: Vec<(String, Value)> = scenario.values.clone();
        let still_refused = |values: &[(String, Value)]| -> bool {
            let literals: Vec<String> = values.iter().filter_map(|(n, v)| literal(n, v)).collect();
            let facts = conjunction(literals.iter().map(String::as_str));
            matches!(self.check_on(refused, &facts, &[]), Ok(None))
        };
        let without = |values: &[(String, Value)], drop: &[String]| -> Vec<(String, Value)> {
            values
                .iter()
                .filter(|(n, _)| !drop.contains(n))
                .cloned()
                .collect()
        };
        if !order.untouched.is_empty() {
            let candidate = without(&kept, &order.untouched);
            if candidate.len() < kept.len() && still_refused(&candidate) {
                kept = candidate;
            }
        }
        let rest: Vec<String> = order
            .untouched
            .iter()
            .chain(&order.one_by_one)
            .filter(|n| kept.iter().any(|(k, _)| k == *n))
            .cloned()
            .collect();
        for name in rest {
            let candidate = without(&kept, std::slice::from_ref(&name));
            if still_refused(&candidate) {
                kept = candidate;
            }
        }
        Scenario { values: kept }
    }
}

/// What the solver made of one query.
fn answer(result: Option<Satisfiability>) -> Result<Option<Scenario>, CheckError> {
    match result {
        Some(Satisfiability::Satisfiable(scenario)) => Ok(Some(scenario)),
        Some(Satisfiability::Unsatisfiable) => Ok(None),
        Some(Satisfiability::Unknown(reason)) => Err(CheckError::Undecided(reason)),
        None => Err(CheckError::NoAnswer),
    }
}

/// `(and …)` of SMT-LIB texts (`true` for none).
fn conjunction<'x>(parts: impl Iterator<Item = &'x str>) -> String {
    let parts: Vec<&str> = parts.collect();
    match parts.len() {
        0 => "true".into(),
        1 => parts[0].to_string(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

/// The SMT-LIB literal fixing `name` to `value`.
fn literal(name: &str, value: &Value) -> Option<String> {
    Some(match value {
        Value::Bool(true) => name.to_string(),
        Value::Bool(false) => format!("(not {name})"),
        Value::Int(i) if i.sign() == num_bigint::Sign::Minus => format!("(= {name} (- {}))", -i),
        Value::Int(i) => format!("(= {name} {i})"),
        Value::Real(r) => {
            let magnitude = format!("(/ {}.0 {}.0)", r.numer().magnitude(), r.denom());
            if r.numer().sign() == num_bigint::Sign::Minus {
                format!("(= {name} (- {magnitude}))")
            } else {
                format!("(= {name} {magnitude})")
            }
        }
        Value::Enum(v) => format!("(= {name} {v})"),
        Value::Algebraic(_) => return None,
    })
}
