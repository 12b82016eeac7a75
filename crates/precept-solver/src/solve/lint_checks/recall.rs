//! A large group's lint questions answered from the last complete run
//! (`answer_memo.rs`) when their evidence still holds for the rules as they
//! are now, and this run's answers kept for the next one. Only a group with
//! a base model recalls: its answers' scenarios are the base model changed
//! at a few variables.

use super::answer_memo::{Kept, Recall, Shows, Values, lookup_in};
use super::linter::Linter;
use super::near::Answer;
use crate::model::evaluate::{Known, holds};
use crate::smt::{Expr, ExprKind, Op, Sort};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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
            complete: HashMap::new(),
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
    /// evidence still holds, showing the scenario `shows` asks for; it is
    /// kept for the next run too.
    pub(super) fn recalled(
        &mut self,
        key: &str,
        on: &[usize],
        off_now: &[String],
        shows: Shows,
    ) -> Option<Answer> {
        let book = self.book?;
        let kept = book.last(key)?.clone();
        let answer = match &kept {
            Kept::Refuted { core, .. } => Answer::Refuted {
                core: self.unchanged_rules(core, Some(on))?,
            },
            Kept::Holds { layers, group, off } => {
                if !self.holds_kept(on, layers, group, off) {
                    return None;
                }
                // The base model's values for the variables new to the
                // group, which the check above read from it.
                let mut layers = layers.clone();
                if !self.complete_for_group(&layers) {
                    layers.push(Arc::clone(&self.recall.as_ref()?.base));
                }
                let scenario = match shows {
                    Shows::Nothing => None,
                    Shows::Whole => Some(self.scenario_in(&layers, None)?),
                    Shows::Over(scope) => Some(self.scenario_in(&layers, Some(scope))?),
                };
                self.shown = Some(layers);
                let answer = Answer::Holds(scenario);
                self.remember(key.to_string(), off_now.to_vec(), &answer);
                return Some(answer);
            }
            Kept::Minimal(_) | Kept::Alone(_) => return None,
        };
        book.keep(key.to_string(), kept);
        Some(answer)
    }

    /// Whether the last of `layers` has a value for every variable of the
    /// group being checked.
    fn complete_for_group(&mut self, layers: &[Arc<Values>]) -> bool {
        let (Some(last), Some(recall)) = (layers.last(), self.recall.as_mut()) else {
            return false;
        };
        let variables = &self.model.variables;
        *recall
            .complete
            .entry(Arc::as_ptr(last) as usize)
            .or_insert_with(|| variables.iter().all(|(name, _)| last.contains_key(name)))
    }

    /// The scenario `layers` (then the base model) give, over `scope` or
    /// every variable; None when a variable has no exact value.
    fn scenario_in(
        &self,
        layers: &[Arc<Values>],
        scope: Option<&HashSet<String>>,
    ) -> Option<crate::model::finding::Scenario> {
        use crate::model::finding::Value;
        let recall = self.recall.as_ref()?;
        let values = self
            .model
            .variables
            .iter()
            .filter(|(name, _)| scope.is_none_or(|s| s.contains(name)))
            .map(|(name, sort)| {
                let known = layers
                    .iter()
                    .chain([&recall.base])
                    .find_map(|values| values.get(name))?;
                let value = match (known, sort) {
                    (Known::Bool(b), _) => Value::Bool(*b),
                    (Known::Enum(e), _) => Value::Enum(e.clone()),
                    (Known::Number(n), Sort::Int) if n.is_integer() => Value::Int(n.to_integer()),
                    (Known::Number(n), Sort::Real) => Value::Real(n.clone()),
                    _ => return None,
                };
                Some((name.clone(), value))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(crate::model::finding::Scenario { values })
    }

    /// The answer to the question of `key` (None: not recalling) asked
    /// with the rules `on`: the last run's when its evidence still holds,
    /// else `fresh`'s, kept for the next run.
    pub(super) fn recalled_or(
        &mut self,
        key: Option<String>,
        on: &[usize],
        shows: Shows,
        fresh: impl FnOnce(&mut Self) -> Answer,
    ) -> Answer {
        let Some(key) = key else {
            return fresh(self);
        };
        // The same formula is asked with different rules off (whether a
        // condition can hold without this rule, or that one): they are
        // different questions.
        let off = self.off_ids(on);
        let key = format!("{key} | off {}", off.join(" "));
        if let Some(answer) = self.recalled(&key, on, &off, shows) {
            return answer;
        }
        self.shown = None;
        let answer = fresh(self);
        self.remember(key, off, &answer);
        answer
    }

    /// The rules of the group being checked that are not among `on`.
    fn off_ids(&self, on: &[usize]) -> Vec<String> {
        let Some(recall) = &self.recall else {
            return Vec::new();
        };
        let mut switched_on = vec![false; self.session.rules.len()];
        for &r in on {
            switched_on[r] = true;
        }
        recall
            .rules
            .iter()
            .filter(|(r, _)| !switched_on[*r])
            .map(|(_, id)| id.clone())
            .collect()
    }

    /// The group's base model's values, while recalling.
    pub(super) fn recall_base(&self) -> Option<Arc<Values>> {
        self.recall.as_ref().map(|r| Arc::clone(&r.base))
    }

    /// Notes that the last fresh answer's formula holds in the base model.
    pub(super) fn shown_in_base(&mut self) {
        self.shown = self.recall.as_ref().map(|r| vec![Arc::clone(&r.base)]);
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

    /// Whether every rule of `on` holds in the scenario of `layers` (then
    /// the base model, for variables new to the group): those a kept answer
    /// had on and that are unchanged held when it was found; the rest are
    /// evaluated.
    fn holds_kept(
        &mut self,
        on: &[usize],
        layers: &[Arc<Values>],
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
        let all: Vec<&Values> = layers
            .iter()
            .chain([&recall.base])
            .map(|values| &**values)
            .collect();
        let enum_values = &recall.enum_values;
        let lookup = |name: &str| lookup_in(&all, enum_values, name);
        asked
            .into_iter()
            .filter(|r| on.contains(r))
            .all(|r| holds(&self.session.rules[r].expr, &lookup) == Some(true))
    }

    /// Keeps this run's answer to `key` (asked with the rules of the group
    /// but `off`) for the next run: a formula that holds with the values of
    /// its scenario (`shown`, noted by the check).
    pub(super) fn remember(&mut self, key: String, off: Vec<String>, answer: &Answer) {
        let (Some(book), Some(recall)) = (self.book, self.recall.as_ref()) else {
            return;
        };
        let kept = match answer {
            Answer::Holds(_) => {
                let Some(layers) = self.shown.take() else {
                    return;
                };
                Kept::Holds {
                    layers,
                    group: Arc::clone(&recall.group),
                    off,
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
pub(super) fn facts_key(texts: &[String], set: &[usize]) -> String {
    let facts: Vec<&str> = set.iter().map(|&i| texts[i].as_str()).collect();
    format!("{FACTS} {}", facts.join(" & "))
}

/// The kind of a question about a set of input facts.
const FACTS: &str = "facts";

/// The most scenarios the last run's impossible-situation search met that
/// a new search starts from (each holds a value for every variable of the
/// group), the first by key.
const MOST_SITUATIONS_KEPT: usize = 128;

impl Linter<'_> {
    /// The last run's answer to whether the input facts `set` (of
    /// `texts`, the facts written out) can hold together with every rule of `group` on: Some of
    /// None when they can (the kept scenario, whole, given to `met`), Some
    /// of the facts of the kept refutation's core when they cannot; None
    /// when no kept answer still holds.
    pub(super) fn recalled_facts(
        &mut self,
        key: &str,
        group: &[usize],
        texts: &[String],
        set: &[usize],
        met: &mut dyn FnMut(&crate::model::finding::Scenario),
    ) -> Option<Option<Vec<usize>>> {
        match self.recalled(key, group, &[], Shows::Whole)? {
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
                    .filter(|&i| facts.contains(&texts[i]))
                    .collect();
                core.sort_unstable();
                (!core.is_empty()).then_some(Some(core))
            }
            _ => None,
        }
    }

    /// Whole scenarios of every rule of `group` as it is now, among those
    /// the last run's impossible-situation search met (at most
    /// `MOST_SITUATIONS_KEPT`, the same ones whatever the order of the run):
    /// they settle the candidates they make true (possible) with no check,
    /// whichever candidates a changed rule made new. Each is kept for the
    /// next run too.
    pub(super) fn situations_met(
        &mut self,
        group: &[usize],
    ) -> Vec<crate::model::finding::Scenario> {
        let Some(book) = self.book else {
            return Vec::new();
        };
        let mut met = Vec::new();
        for (key, kept) in book
            .last_of_kind(FACTS)
            .into_iter()
            .take(MOST_SITUATIONS_KEPT)
        {
            let Kept::Holds {
                mut layers,
                group: was,
                off,
            } = kept
            else {
                continue;
            };
            if !self.holds_kept(group, &layers, &was, &off) {
                continue;
            }
            if !self.complete_for_group(&layers) {
                layers.extend(self.recall_base());
            }
            let Some(scenario) = self.scenario_in(&layers, None) else {
                continue;
            };
            self.shown = Some(layers);
            self.remember(key, Vec::new(), &Answer::Holds(None));
            met.push(scenario);
        }
        met
    }

    /// Keeps for the next run a scenario of every rule of the group in
    /// which the facts of `key` hold.
    pub(super) fn remember_facts_met(
        &mut self,
        key: String,
        scenario: &crate::model::finding::Scenario,
    ) {
        if self.recall.is_none() {
            return;
        }
        self.shown = Some(vec![Arc::new(super::scenario_repair::known_values(
            scenario,
        ))]);
        self.remember(key, Vec::new(), &Answer::Holds(Some(scenario.clone())));
    }

    /// Keeps for the next run that the rules `core` rule out the facts
    /// `facts` (of `texts`) together.
    pub(super) fn remember_facts_refuted(
        &self,
        key: String,
        core: &[usize],
        texts: &[String],
        facts: &[usize],
    ) {
        let core = core.iter().map(|&r| self.id(r)).collect();
        let facts = facts.iter().map(|&i| texts[i].clone()).collect();
        self.remember_plain(key, Kept::Refuted { core, facts });
    }
}
