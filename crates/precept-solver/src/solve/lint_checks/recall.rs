//! A large group's lint questions answered from the last complete run
//! (`answer_memo.rs`) when their evidence still holds for the rules as they
//! are now, and this run's answers kept for the next one. Only a group with
//! a base model recalls: its answers' scenarios are the base model changed
//! at a few variables.

use super::answer_memo::{Kept, Values, lookup_in};
use super::linter::Linter;
use super::near::Answer;
use crate::model::evaluate::{Known, holds};
use crate::smt::{Expr, ExprKind, Op, Sort};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use z3::ast::Bool;

/// What recalling needs about the group being checked.
pub(super) struct Recall {
    /// Each rule's position, by id.
    index_of: HashMap<String, usize>,
    /// The rules changed since the last complete run.
    changed: Vec<usize>,
    /// The group's rules: positions and ids.
    rules: Vec<(usize, String)>,
    /// The ids of the group's rules.
    group: Arc<HashSet<String>>,
    /// Whether each kept group (by address) holds every unchanged rule of
    /// this one.
    covers: HashMap<usize, bool>,
    /// The group's base model, as exact values.
    base: Arc<Values>,
    enum_values: Arc<HashSet<String>>,
}

/// The key of a question: its kind, its formula and the variables a
/// scenario of it shows.
pub(super) fn question_key(kind: &str, formula: &Bool, scope: Option<&HashSet<String>>) -> String {
    keyed(kind, formula, &scope_text(scope))
}

/// The same, with the scope as `scope_text` names it.
pub(super) fn keyed(kind: &str, formula: &Bool, scope: &str) -> String {
    format!("{kind} {formula} | {scope}")
}

/// The variables a scenario shows, as a question's key names them.
pub(super) fn scope_text(scope: Option<&HashSet<String>>) -> String {
    let mut scope: Vec<&str> = scope.into_iter().flatten().map(String::as_str).collect();
    scope.sort_unstable();
    scope.join(" ")
}

/// `name = value` as a formula of the model's language.
fn pin(name: &str, sort: &Sort, value: &Known) -> Expr {
    let value = match value {
        Known::Bool(b) => Expr::new(ExprKind::Bool(*b)),
        Known::Enum(e) => Expr::symbol(e),
        Known::Number(n) if *sort == Sort::Int && n.is_integer() => {
            Expr::new(ExprKind::Int(n.to_integer()))
        }
        Known::Number(n) => Expr::new(ExprKind::Decimal(n.clone())),
    };
    Expr::app(Op::Eq, vec![Expr::symbol(name), value])
}

impl Linter<'_> {
    /// Starts recalling for `group`, whose base model has `base`'s values.
    pub(super) fn start_recall(&mut self, group: &[usize], base: Arc<Values>) {
        let Some(book) = self.book else {
            return;
        };
        book.keep_witness(&base);
        let ids: Vec<String> = group.iter().map(|&r| self.id(r)).collect();
        self.recall = Some(Recall {
            changed: group
                .iter()
                .zip(&ids)
                .filter(|(_, id)| !book.unchanged(id))
                .map(|(&r, _)| r)
                .collect(),
            index_of: ids.iter().cloned().zip(group.iter().copied()).collect(),
            group: Arc::new(ids.iter().cloned().collect()),
            rules: group.iter().copied().zip(ids).collect(),
            covers: HashMap::new(),
            base,
            enum_values: book.enum_values(),
        });
    }

    /// A model of `group` with every variable at its value in `values`
    /// (a scenario in which every rule of the group holds; a variable it
    /// has no value for is free): a check that needs no search, in place of
    /// finding a base model again.
    pub(super) fn pinned_model(&mut self, group: &[usize], values: &Values) -> Option<z3::Model> {
        let plain = self.plain_solver(group);
        // A variable the scenario has no value for (new to the group) is
        // left free: every rule held without it.
        for (name, sort) in &self.model.variables {
            if let Some(value) = values.get(name) {
                plain.assert(&self.encode(&pin(name, sort, value))?);
            }
        }
        let group_solver = std::mem::replace(&mut self.session.solver, plain);
        let outcome = self.check(&[]);
        let model = match outcome {
            z3::SatResult::Sat => self.session.solver.get_model(),
            _ => None,
        };
        self.session.solver = group_solver;
        model
    }

    /// The last run's answer to `key`, asked with the rules `on`, when its
    /// evidence still holds (a scenario only when `scenario` is wanted and
    /// kept); it is kept for the next run too.
    pub(super) fn recalled(&mut self, key: &str, on: &[usize], scenario: bool) -> Option<Answer> {
        let book = self.book?;
        let kept = book.last(key)?.clone();
        let answer = match &kept {
            Kept::Refuted { core, .. } => Answer::Refuted {
                core: self.unchanged_rules(core, Some(on))?,
            },
            Kept::Holds {
                base,
                own,
                group,
                off,
                scenario: shown,
            } => {
                if scenario && shown.is_none() {
                    return None;
                }
                if !self.holds_kept(on, [own, base], group, off) {
                    return None;
                }
                self.shown = Some(Arc::clone(own));
                let answer = Answer::Holds(shown.clone().filter(|_| scenario));
                self.remember(key.to_string(), on, &answer);
                return Some(answer);
            }
            Kept::Minimal(_) | Kept::Alone(_) => return None,
        };
        book.keep(key.to_string(), kept);
        Some(answer)
    }

    /// The answer to the question of `key` (None: not recalling) asked
    /// with the rules `on`: the last run's when its evidence still holds,
    /// else `fresh`'s, kept for the next run.
    pub(super) fn recalled_or(
        &mut self,
        key: Option<String>,
        on: &[usize],
        scenario: bool,
        fresh: impl FnOnce(&mut Self) -> Answer,
    ) -> Answer {
        let Some(key) = key else {
            return fresh(self);
        };
        if let Some(answer) = self.recalled(&key, on, scenario) {
            return answer;
        }
        self.shown = None;
        let answer = fresh(self);
        self.remember(key, on, &answer);
        answer
    }

    /// Notes that the last fresh answer's formula holds in the base model.
    pub(super) fn shown_in_base(&mut self) {
        self.shown = self.recall.as_ref().map(|r| Arc::clone(&r.base));
    }

    /// The rules `ids` at their positions, each unchanged (and among `on`,
    /// when given); None when one is not.
    pub(super) fn unchanged_rules(
        &self,
        ids: &[String],
        on: Option<&[usize]>,
    ) -> Option<Vec<usize>> {
        let (book, recall) = (self.book?, self.recall.as_ref()?);
        let mut rules = ids
            .iter()
            .map(|id| {
                let r = *recall.index_of.get(id)?;
                let switched_on = on.is_none_or(|on| on.contains(&r));
                (book.unchanged(id) && switched_on).then_some(r)
            })
            .collect::<Option<Vec<usize>>>()?;
        rules.sort_unstable();
        Some(rules)
    }

    /// Whether every rule of `on` holds in `layers` (the first that has a
    /// variable gives its value): those a kept answer had on and that are
    /// unchanged held when it was found; the rest are evaluated.
    fn holds_kept(
        &mut self,
        on: &[usize],
        layers: [&Arc<Values>; 2],
        group: &Arc<HashSet<String>>,
        off: &[String],
    ) -> bool {
        let (Some(book), Some(recall)) = (self.book, self.recall.as_mut()) else {
            return false;
        };
        let covered = *recall
            .covers
            .entry(Arc::as_ptr(group) as usize)
            .or_insert_with(|| {
                recall
                    .group
                    .iter()
                    .all(|id| group.contains(id) || !book.unchanged(id))
            });
        if !covered {
            return false;
        }
        let mut asked: Vec<usize> = recall.changed.clone();
        asked.extend(off.iter().filter_map(|id| recall.index_of.get(id).copied()));
        let layers: [&Values; 2] = [layers[0], layers[1]];
        let enum_values = &recall.enum_values;
        let lookup = |name: &str| lookup_in(&layers, enum_values, name);
        asked
            .into_iter()
            .filter(|r| on.contains(r))
            .all(|r| holds(&self.session.rules[r].expr, &lookup) == Some(true))
    }

    /// Keeps this run's answer to `key` (asked with the rules `on`) for
    /// the next run: a formula that holds with the values of its scenario
    /// (`shown`, noted by the check).
    pub(super) fn remember(&mut self, key: String, on: &[usize], answer: &Answer) {
        let (Some(book), Some(recall)) = (self.book, self.recall.as_ref()) else {
            return;
        };
        let kept = match answer {
            Answer::Holds(scenario) => {
                let Some(own) = self.shown.take() else {
                    return;
                };
                let mut switched_on = vec![false; self.session.rules.len()];
                for &r in on {
                    switched_on[r] = true;
                }
                Kept::Holds {
                    base: Arc::clone(&recall.base),
                    own,
                    group: Arc::clone(&recall.group),
                    off: recall
                        .rules
                        .iter()
                        .filter(|(r, _)| !switched_on[*r])
                        .map(|(_, id)| id.clone())
                        .collect(),
                    scenario: scenario.clone(),
                }
            }
            Answer::Refuted { core } => Kept::Refuted {
                core: core.iter().map(|&r| self.id(r)).collect(),
                facts: Vec::new(),
            },
            Answer::Undecided => return,
        };
        book.keep(key, kept);
    }

    /// The last run's answer to a question that asks no rule, or to a
    /// minimal set of refuting rules (`Kept::Alone`, `Kept::Minimal`).
    pub(super) fn recalled_plain(&mut self, key: &str) -> Option<Kept> {
        self.recall.as_ref()?;
        let book = self.book?;
        let kept = book.last(key)?.clone();
        if let Kept::Minimal(rules) = &kept {
            self.unchanged_rules(rules, None)?;
        }
        book.keep(key.to_string(), kept.clone());
        Some(kept)
    }

    /// Keeps an answer that needs no scenario for the next run.
    pub(super) fn remember_plain(&self, key: String, kept: Kept) {
        if self.recall.is_some()
            && let Some(book) = self.book
        {
            book.keep(key, kept);
        }
    }
}

/// The key of a set of input facts: their formulas.
pub(super) fn facts_key(encoded: &[Bool], set: &[usize]) -> String {
    let facts: Vec<String> = set.iter().map(|&i| encoded[i].to_string()).collect();
    format!("facts {}", facts.join(" & "))
}

impl Linter<'_> {
    /// The last run's answer to whether the input facts `set` (of
    /// `encoded`) can hold together with every rule of `group` on: Some of
    /// None when they can (the kept scenario, whole, given to `met`), Some
    /// of the facts of the kept refutation's core when they cannot; None
    /// when no kept answer still holds.
    pub(super) fn recalled_facts(
        &mut self,
        key: &str,
        group: &[usize],
        encoded: &[Bool],
        set: &[usize],
        met: &mut dyn FnMut(&crate::model::finding::Scenario),
    ) -> Option<Option<Vec<usize>>> {
        match self.recalled(key, group, true)? {
            Answer::Holds(Some(scenario)) => {
                met(&scenario);
                Some(None)
            }
            Answer::Refuted { .. } => {
                let Kept::Refuted { facts, .. } = self.book?.last(key)? else {
                    return None;
                };
                // Sorted, as a fresh refutation's core is.
                let mut core: Vec<usize> = set
                    .iter()
                    .copied()
                    .filter(|&i| facts.contains(&encoded[i].to_string()))
                    .collect();
                core.sort_unstable();
                (!core.is_empty()).then_some(Some(core))
            }
            _ => None,
        }
    }

    /// Keeps for the next run a scenario of every rule of `group` in
    /// which the facts of `key` hold.
    pub(super) fn remember_facts_met(
        &mut self,
        key: String,
        group: &[usize],
        scenario: &crate::model::finding::Scenario,
    ) {
        if self.recall.is_none() {
            return;
        }
        self.shown = Some(Arc::new(super::scenario_repair::known_values(scenario)));
        self.remember(key, group, &Answer::Holds(Some(scenario.clone())));
    }

    /// Keeps for the next run that the rules `core` rule out the facts
    /// `facts` (of `encoded`) together.
    pub(super) fn remember_facts_refuted(
        &self,
        key: String,
        core: &[usize],
        encoded: &[Bool],
        facts: &[usize],
    ) {
        let core = core.iter().map(|&r| self.id(r)).collect();
        let facts = facts.iter().map(|&i| encoded[i].to_string()).collect();
        self.remember_plain(key, Kept::Refuted { core, facts });
    }
}
