//! The answers of a large group's lint questions, kept from one lint run to
//! the next, so that after an edit only what the edit may have changed is
//! asked again (`memo.rs` keeps whole groups, which on a densely connected
//! model every edit changes). A kept answer is used only while its evidence
//! still holds for the rules as they are now:
//!
//! - a refutation keeps the rules of its unsat core: it stands while each of
//!   them is unchanged and switched on (a subset of the rules that rules
//!   the formula out; the larger set does too);
//! - a formula that holds keeps the scenario that showed it (a value for
//!   every variable of the group): it stands while every rule switched on
//!   holds in it; each rule changed since, or not switched on when it was
//!   found, is checked by exact evaluation (a variable new to the group
//!   takes its value in the group's base model: only the changed rules
//!   mention it);
//! - a minimal set of refuting rules stands while each of its rules is
//!   unchanged (minimality is a property of the set alone);
//! - whether a formula can hold with no rule always stands.
//!
//! The scenarios of whole groups (base models) are kept too: one in which
//! every rule of a group holds by exact evaluation proves the group
//! consistent without a check, and becomes the group's next base model.
//!
//! So a lint after an edit finds what a lint from scratch finds, about the
//! same subjects; a finding's evidence (its scenario, its minimal set of
//! rules) can be another, equally valid one. Answers are kept only from a
//! run that went to its end: an interrupted run leaves the last complete
//! run's answers in place.
//!
//! A question is known by its kind, its formula and the rules it leaves
//! off. This file holds the data (the book, the keys, what recalling needs
//! about the group being checked); `recall.rs` does the recalling.

use super::scenario_repair::Rules;
use crate::model::CompiledModel;
use crate::model::evaluate::{Known, holds};
use crate::smt::Expr;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use z3::ast::Bool;

/// Kept scenarios that more rules than this break are not mended.
const MOST_BROKEN: usize = 8;

/// A scenario's values as exact evaluation reads them.
pub(super) type Values = HashMap<String, Known>;

/// A kept answer, naming rules by id.
#[derive(Clone)]
pub(super) enum Kept {
    /// The formula holds, with every rule of `group` on but those of
    /// `off`, in the scenario whose variables take the value of the first
    /// of `layers` that has one; the last layer has a value for every
    /// variable of `group`.
    Holds {
        layers: Vec<Arc<Values>>,
        group: Arc<HashSet<String>>,
        off: Vec<String>,
    },
    /// The rules of `core` rule the formula out (and, for a set of input
    /// facts, the formulas of the facts in its core, `facts`).
    Refuted {
        core: Vec<String>,
        facts: Vec<String>,
    },
    /// A minimal set of refuting rules.
    Minimal(Vec<String>),
    /// Whether the formula can hold with no rule.
    Alone(bool),
}

/// One complete run's answers and what its rules said.
#[derive(Default)]
pub(super) struct Answers {
    /// Each rule's signature: its formula and its variables' sorts.
    rules: HashMap<String, String>,
    /// Each variable's sort and each enumeration's values.
    declared: HashMap<String, String>,
    answers: HashMap<String, Kept>,
    /// Scenarios in which every rule of a group held.
    witnesses: Vec<Arc<Values>>,
}

/// The answers of the run under way, and the last complete run's.
pub(super) struct AnswerBook {
    last: Arc<Answers>,
    declared: HashMap<String, String>,
    /// The names of the enumerations' values.
    enum_values: Arc<HashSet<String>>,
    rules: HashMap<String, String>,
    answers: Mutex<HashMap<String, Kept>>,
    witnesses: Mutex<Vec<Arc<Values>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// What each rule of `model` says, with its variables' declarations: a
/// rule whose text is the same but whose variable changed sort has
/// changed.
fn signatures(model: &CompiledModel) -> HashMap<String, String> {
    let sorts: HashMap<&str, &crate::smt::Sort> = model
        .variables
        .iter()
        .map(|(n, s)| (n.as_str(), s))
        .collect();
    model
        .rules
        .iter()
        .map(|rule| {
            let mut signature = rule.formula.to_string();
            for symbol in rule.formula.symbols() {
                if let Some(sort) = sorts.get(symbol) {
                    signature.push_str(&format!(" {symbol}:{sort:?}"));
                }
            }
            (rule.id.clone(), signature)
        })
        .collect()
}

/// Each variable's sort and each enumeration's values, by name.
fn declarations(model: &CompiledModel) -> HashMap<String, String> {
    let variables = model
        .variables
        .iter()
        .map(|(name, sort)| (name.clone(), format!("{sort:?}")));
    let enums = model
        .enums
        .iter()
        .map(|(name, values)| (format!("enum {name}"), values.join(" ")));
    variables.chain(enums).collect()
}

impl AnswerBook {
    /// A run of `model` that may use `last`'s answers.
    pub(super) fn new(last: Arc<Answers>, model: &CompiledModel) -> AnswerBook {
        let declared = declarations(model);
        // A name declared again otherwise (a variable of another sort, an
        // enumeration with other values) can change what a formula whose
        // text is the same means: nothing is kept then.
        let redeclared = last
            .declared
            .iter()
            .any(|(name, was)| declared.get(name).is_some_and(|now| now != was));
        let last = match redeclared {
            true => Arc::new(Answers::default()),
            false => last,
        };
        AnswerBook {
            last,
            declared,
            enum_values: Arc::new(
                model
                    .enums
                    .iter()
                    .flat_map(|(_, v)| v.iter().cloned())
                    .collect(),
            ),
            rules: signatures(model),
            answers: Mutex::new(HashMap::new()),
            witnesses: Mutex::new(Vec::new()),
        }
    }

    pub(super) fn enum_values(&self) -> Arc<HashSet<String>> {
        Arc::clone(&self.enum_values)
    }

    /// Whether rule `id` says what it said in the last complete run.
    pub(super) fn unchanged(&self, id: &str) -> bool {
        match (self.rules.get(id), self.last.rules.get(id)) {
            (Some(now), Some(then)) => now == then,
            _ => false,
        }
    }

    /// Whether the last complete run kept any answer.
    pub(super) fn remembers(&self) -> bool {
        !self.last.answers.is_empty()
    }

    /// The last run's answers whose key starts with `kind`, by key.
    pub(super) fn last_of_kind(&self, kind: &str) -> Vec<(String, Kept)> {
        let mut found: Vec<(String, Kept)> = self
            .last
            .answers
            .iter()
            .filter(|(key, _)| key.starts_with(kind))
            .map(|(key, kept)| (key.clone(), kept.clone()))
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    /// The last run's answer to `key`, if any.
    pub(super) fn last(&self, key: &str) -> Option<&Kept> {
        self.last.answers.get(key)
    }

    pub(super) fn keep(&self, key: String, kept: Kept) {
        lock(&self.answers).insert(key, kept);
    }

    /// A scenario kept from the last run (or found in this one) in which
    /// every rule of `model` at `rules` holds by exact evaluation; else one
    /// mended from a kept scenario that a few of them (the edited ones,
    /// mostly) break, kept too.
    pub(super) fn witness(&self, model: &CompiledModel, rules: &[usize]) -> Option<Arc<Values>> {
        let mut kept: Vec<Arc<Values>> = self.last.witnesses.clone();
        kept.extend(lock(&self.witnesses).iter().cloned());
        if kept.is_empty() {
            return None;
        }
        let broken_in = |values: &Values| -> Vec<&Expr> {
            let lookup = |name: &str| lookup_in(&[values], &self.enum_values, name);
            rules
                .iter()
                .map(|&r| &model.rules[r].formula)
                .filter(|rule| holds(rule, &lookup) != Some(true))
                .collect()
        };
        let mut broken: Vec<(Arc<Values>, Vec<&Expr>)> = Vec::new();
        for values in kept {
            let breaks = broken_in(&values);
            if breaks.is_empty() {
                return Some(values);
            }
            broken.push((values, breaks));
        }
        let repair = Rules::of_rules(model, rules);
        broken.into_iter().find_map(|(values, breaks)| {
            if breaks.len() > MOST_BROKEN {
                return None;
            }
            let changed = repair.mend_broken(&values, &breaks)?;
            let mut mended = (*values).clone();
            mended.extend(changed);
            if !broken_in(&mended).is_empty() {
                return None;
            }
            let mended = Arc::new(mended);
            self.keep_witness(&mended);
            Some(mended)
        })
    }

    pub(super) fn keep_witness(&self, values: &Arc<Values>) {
        let mut witnesses = lock(&self.witnesses);
        if !witnesses.iter().any(|w| Arc::ptr_eq(w, values)) {
            witnesses.push(Arc::clone(values));
        }
    }

    /// This run's answers, for the next run.
    pub(super) fn finish(&self) -> Answers {
        Answers {
            rules: self.rules.clone(),
            declared: self.declared.clone(),
            answers: std::mem::take(&mut *lock(&self.answers)),
            witnesses: std::mem::take(&mut *lock(&self.witnesses)),
        }
    }
}

/// A name's value in the first of `layers` that has it (an enum value's
/// name is itself).
pub(super) fn lookup_in(
    layers: &[&Values],
    enum_values: &HashSet<String>,
    name: &str,
) -> Option<Known> {
    layers
        .iter()
        .find_map(|values| values.get(name).cloned())
        .or_else(|| {
            enum_values
                .contains(name)
                .then(|| Known::Enum(name.to_string()))
        })
}

/// What recalling needs about the group being checked.
pub(super) struct Recall {
    /// Each rule's position, by id.
    pub(super) index_of: HashMap<String, usize>,
    /// The rules changed since the last complete run.
    pub(super) changed: Vec<usize>,
    /// The group's rules: positions and ids.
    pub(super) rules: Vec<(usize, String)>,
    /// The ids of the group's rules.
    pub(super) group: Arc<HashSet<String>>,
    /// Whether each kept group (by address) holds every unchanged rule of
    /// this one.
    pub(super) covers: HashMap<usize, bool>,
    /// Whether each kept scenario (by the address of its last layer) has
    /// a value for every variable of this group.
    pub(super) complete: HashMap<usize, bool>,
    /// The group's base model, as exact values.
    pub(super) base: Arc<Values>,
    pub(super) enum_values: Arc<HashSet<String>>,
}

/// Which scenario an answer that holds shows.
#[derive(Clone, Copy)]
pub(super) enum Shows<'s> {
    Nothing,
    Whole,
    Over(&'s HashSet<String>),
}

impl<'s> Shows<'s> {
    pub(super) fn over(scope: Option<&'s HashSet<String>>) -> Shows<'s> {
        scope.map_or(Shows::Nothing, Shows::Over)
    }
}

/// The key of a question: its kind and its formula (what a scenario of it
/// shows is read from the kept values).
pub(super) fn question_key(kind: &str, formula: &Bool) -> String {
    format!("{kind} {formula}")
}
