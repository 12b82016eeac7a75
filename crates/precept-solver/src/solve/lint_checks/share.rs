//! One lint run shared out over the workers of a pool. Each worker loads
//! the model into a fresh session of its own and takes groups of rules (the
//! islands that share no variables; a large group in the fixed parts of
//! `parts.rs`) from a common queue, largest first; the first worker also
//! checks the whole model's consistency before it takes groups. Each piece
//! of work keeps what it found, and the pieces are sent on in a fixed order
//! (the whole-model checks, then the groups by their first rule, each
//! group's parts in order) as soon as all before them are in, so the
//! diagnostics, the check counts and their order do not depend on how many
//! workers ran.
//!
//! A group's impossible-situation search has a budget in proportion to its
//! size, so it finds the same situations whichever worker checks it, and
//! whenever; with a memo (`memo.rs`), a group whose content an earlier run
//! checked is not checked again, and a large group's questions whose kept
//! answers still hold are not asked again (`answer_memo.rs`).

use super::answer_memo::AnswerBook;
use super::budget::{Unchecked, add_unchecked, budget_finding};
use super::linter::{LintEvent, Linter, SITUATION_CHECK_BUDGET, groups_note};
use super::memo::{LintMemo, Part, group_key};
use super::parts::{GroupPart, parts_of};
use crate::model::CompiledModel;
use crate::model::diagnostic::{Diagnostic, LintCode, Severity};
use crate::model::graph::RuleGraph;
use crate::smt::Sort;
use crate::solve::SolveError;
use crate::solve::check_gate::in_fresh_context;
use crate::solve::session::{Interruption, SolverSession};
use std::collections::{BTreeMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Merge {
    /// Pieces waiting for those before them: 0 is the whole model, 1 + u
    /// is unit u.
    waiting: BTreeMap<usize, Part>,
    /// The next piece to send on.
    next: usize,
    /// The rules are inconsistent: the groups' findings are dropped.
    skip_groups: bool,
    checks: usize,
    undecided: usize,
    situation_budget_ran_out: bool,
    unchecked: Vec<Unchecked>,
    workers_done: usize,
    /// The memo keys of the groups this run checked or found kept.
    keys: HashSet<String>,
    /// A piece failed (its answers may be missing).
    failed: bool,
}

/// A lint run over `workers` workers, reporting to one channel.
pub struct LintShare {
    model: CompiledModel,
    /// The islands of rules that share no variables, each in rule order,
    /// ordered by their first rule.
    groups: Vec<Vec<usize>>,
    /// The pieces of group work: each group, or each part of a large one,
    /// in the order they are sent on.
    units: Vec<(usize, GroupPart)>,
    workers: usize,
    /// The next position in the queue of units (largest group first).
    next_unit: AtomicUsize,
    /// Set when the rules contradict each other: no more groups are taken.
    stop: AtomicBool,
    merge: Mutex<Merge>,
    events: Mutex<Sender<LintEvent>>,
    memo: Option<Arc<LintMemo>>,
    /// The answers to large groups' questions, the last complete run's and
    /// this run's, with a memo.
    book: Option<AnswerBook>,
    /// The run's wall-clock budget and when it ends.
    budget: Option<(Duration, Instant)>,
    /// Whether a large group's questions are decided near them first
    /// (`near.rs`).
    near: bool,
}

impl LintShare {
    pub fn new(model: CompiledModel, workers: usize, events: Sender<LintEvent>) -> LintShare {
        let groups = groups_of(&model);
        let units = units_of(&groups, false);
        LintShare {
            groups,
            units,
            model,
            workers: workers.max(1),
            next_unit: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            merge: Mutex::new(Merge::default()),
            events: Mutex::new(events),
            memo: None,
            book: None,
            budget: None,
            near: true,
        }
    }

    /// Asks every question of the whole group, never near it first: the
    /// same findings, slower (for comparing the two).
    pub fn without_near_checks(mut self) -> LintShare {
        self.near = false;
        self
    }

    /// Stops the run cleanly after `budget` of wall-clock time (counted
    /// from now), reporting what it left unchecked.
    pub fn with_budget(mut self, budget: Duration) -> LintShare {
        self.budget = Some((budget, Instant::now() + budget));
        self
    }

    fn over_budget(&self) -> bool {
        self.budget.is_some_and(|(_, end)| Instant::now() >= end)
    }

    /// Keeps each group's findings in `memo` and takes those of groups
    /// whose content it already holds from there.
    pub fn with_memo(mut self, memo: Arc<LintMemo>) -> LintShare {
        let book = AnswerBook::new(memo.answers(), &self.model);
        if book.remembers() {
            self.units = units_of(&self.groups, true);
        }
        self.book = Some(book);
        self.memo = Some(memo);
        self
    }

    pub fn model(&self) -> &CompiledModel {
        &self.model
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    fn lock(&self) -> MutexGuard<'_, Merge> {
        self.merge.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn send(&self, event: LintEvent) {
        let events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        let _ = events.send(event);
    }

    /// The model could not be loaded on worker `role`: the first worker
    /// says so in place of the whole-model checks.
    pub fn load_failed(&self, role: usize, error: &str) {
        self.stop.store(true, Ordering::Relaxed);
        if role == 0 {
            let part = Part {
                found: vec![Diagnostic::new(
                    LintCode::NotDecided,
                    Severity::Error,
                    format!("the model could not be loaded into the solver: {error}"),
                )],
                ..Part::default()
            };
            self.deliver(0, part);
        }
    }

    /// Worker `role` has finished its share (or never started it); the
    /// last one to finish ends the run with `Finished`.
    pub fn worker_done(&self) {
        let mut merge = self.lock();
        merge.workers_done += 1;
        if merge.workers_done < self.workers {
            return;
        }
        if let Some(memo) = &self.memo {
            memo.retain(&merge.keys);
            // Only a run that went to its end replaces the last one's
            // answers: the next run compares its rules with this one's.
            let all_in = merge.next == self.units.len() + 1;
            if let Some(book) = &self.book
                && all_in
                && !merge.failed
                && merge.unchecked.is_empty()
            {
                memo.keep_answers(book.finish());
            }
        }
        if let Some((budget, _)) = self.budget
            && !merge.unchecked.is_empty()
            && !merge.skip_groups
        {
            self.send(LintEvent::Found(Box::new(budget_finding(
                budget,
                &merge.unchecked,
            ))));
        }
        if merge.situation_budget_ran_out && !merge.skip_groups {
            merge.undecided += 1;
            self.send(LintEvent::Found(Box::new(Diagnostic::new(
                LintCode::NotDecided,
                Severity::Info,
                format!(
                    "Not decided within the deadline: the search for impossible situations stopped after {SITUATION_CHECK_BUDGET} checks (shared among the groups of rules by size); some may not be reported. Treat it as unchecked, not as passed."
                ),
            ))));
        }
        let unchecked = match merge.skip_groups {
            true => Vec::new(),
            false => std::mem::take(&mut merge.unchecked),
        };
        self.send(LintEvent::Finished {
            checks: merge.checks,
            undecided: merge.undecided,
            unchecked,
        });
    }

    /// Keeps piece `index` and sends on every piece whose turn has come.
    fn deliver(&self, index: usize, part: Part) {
        let mut merge = self.lock();
        merge.waiting.insert(index, part);
        loop {
            let next = merge.next;
            let Some(part) = merge.waiting.remove(&next) else {
                break;
            };
            merge.next += 1;
            if next == 0 && !part.consistent {
                merge.skip_groups = true;
            }
            merge.failed |= !part.complete;
            if next > 0 && merge.skip_groups {
                continue;
            }
            merge.checks += part.checks;
            merge.undecided += part.undecided;
            merge.situation_budget_ran_out |= part.situation_budget_ran_out;
            add_unchecked(&mut merge.unchecked, &part.unchecked);
            for diagnostic in part.found {
                self.send(LintEvent::Found(Box::new(diagnostic)));
            }
            let units = self.units.len();
            if units > 1 && next > 0 {
                self.send(LintEvent::Progress {
                    done: next,
                    total: units,
                    stage: match units > self.groups.len() {
                        true => "parts of the groups of rules",
                        false => "groups of rules",
                    },
                });
            }
        }
    }
}

/// The pieces of work of `groups`: each group, or each part of a large
/// one (`parts.rs`), in the order they are sent on.
fn units_of(groups: &[Vec<usize>], recalling: bool) -> Vec<(usize, GroupPart)> {
    groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            parts_of(group.len(), recalling)
                .into_iter()
                .map(move |p| (g, p))
        })
        .collect()
}

/// The islands of rules that share no variables (a rule without variables
/// is one of its own), each in rule order, ordered by their first rule.
fn groups_of(model: &CompiledModel) -> Vec<Vec<usize>> {
    let declared: std::collections::HashSet<&str> =
        model.variables.iter().map(|(n, _)| n.as_str()).collect();
    let variables: Vec<Vec<String>> = model
        .rules
        .iter()
        .map(|r| {
            let mut names: Vec<String> = r
                .formula
                .symbols()
                .into_iter()
                .filter(|s| declared.contains(s))
                .map(str::to_string)
                .collect();
            names.sort();
            names.dedup();
            names
        })
        .collect();
    let graph = RuleGraph::from_rule_variables(variables.iter().map(Vec::as_slice));
    let mut seen = vec![false; model.rules.len()];
    let mut groups = Vec::new();
    for rule in 0..model.rules.len() {
        if seen[rule] {
            continue;
        }
        let group = if variables[rule].is_empty() {
            vec![rule]
        } else {
            graph.rules_touching(variables[rule].iter().map(String::as_str))
        };
        for &member in &group {
            seen[member] = true;
        }
        groups.push(group);
    }
    groups
}

/// A group's share of the impossible-situation budget: in proportion to
/// its rules, but never less than `SITUATION_CHECKS_PER_RULE` a rule (up
/// to the whole budget), so that sharing the budget out never leaves the
/// search of a small model unfinished (on the 47-rule CBT page, shares in
/// proportion alone stopped a search that the whole budget completes).
/// On the 1,500-rule synthetic model the floor adds no check (11,861).
fn situation_budget(group: usize, rules: usize) -> usize {
    let share = (SITUATION_CHECK_BUDGET * group).div_ceil(rules.max(1));
    let floor = (SITUATION_CHECKS_PER_RULE * group).min(SITUATION_CHECK_BUDGET);
    share.max(floor).max(1)
}

/// The checks of the impossible-situation search a group of rules may
/// always spend per rule, whatever its share.
const SITUATION_CHECKS_PER_RULE: usize = 200;

/// Worker `role`'s part of `share`'s lint run, on the worker's thread:
/// the whole-model checks first when it is the first worker, then groups
/// from the common queue until none is left.
pub(crate) fn lint_share(
    share: &LintShare,
    role: usize,
    timeout_ms: u64,
    interruption: &dyn Interruption,
) {
    let model = share.model();
    let groups = &share.groups;
    if role == 0 {
        let part = prologue(share, timeout_ms, interruption);
        if !part.consistent {
            share.stop.store(true, Ordering::Relaxed);
        }
        share.deliver(0, part);
    }
    let units = &share.units;
    let mut queue: Vec<usize> = (0..units.len()).collect();
    queue.sort_by_key(|&u| std::cmp::Reverse(groups[units[u].0].len()));
    // Progress within a piece is passed on when the model is one group
    // and nothing else reports meanwhile (one piece, or one worker taking
    // the pieces in turn); otherwise the pieces delivered are the progress.
    let progress = groups.len() == 1 && (units.len() == 1 || share.workers == 1);
    loop {
        if share.stop.load(Ordering::Relaxed) || interruption.reason().is_some() {
            break;
        }
        let taken = share.next_unit.fetch_add(1, Ordering::Relaxed);
        let Some(&u) = queue.get(taken) else {
            break;
        };
        let (g, part) = units[u];
        let group = &groups[g];
        if share.over_budget() {
            let part = Part {
                unchecked: part.unchecked(group.len()),
                complete: true,
                ..Part::default()
            };
            share.deliver(1 + u, part);
            continue;
        }
        let budget = situation_budget(group.len(), model.rules.len());
        let key = share
            .memo
            .as_ref()
            .map(|_| format!("{part:?} {}", group_key(model, group, budget, timeout_ms)));
        if let Some(key) = &key {
            share.lock().keys.insert(key.clone());
            if let Some(part) = share.memo.as_ref().and_then(|memo| memo.get(key)) {
                share.deliver(1 + u, part);
                continue;
            }
        }
        let sub_model = with_rules(model, group);
        // A context of its own: what the piece finds does not depend on
        // which worker checks it, or after what.
        let found = in_fresh_context(|| {
            lint_part(share, progress, |report| {
                let mut session = load(&sub_model, timeout_ms)?;
                let all: Vec<usize> = (0..sub_model.rules.len()).collect();
                let mut linter = Linter::new(&mut session, &sub_model, interruption, report);
                linter.deadline = share.budget.map(|(_, end)| end);
                linter.near = share.near;
                linter.book = share.book.as_ref();
                linter.lint_group(&all, budget, part);
                Ok(Tally::of(&linter, true))
            })
        });
        if let (Some(memo), Some(key)) = (&share.memo, key)
            && found.complete
            && found.undecided == 0
            && found.unchecked.is_empty()
            && interruption.reason().is_none()
        {
            memo.keep(key, &found);
        }
        share.deliver(1 + u, found);
    }
}

/// The whole-model checks: the note on the groups of rules (L208) and the
/// rules' consistency (L201). The rules are consistent when every group is,
/// as groups share no variables. So with a memo, the groups an earlier run
/// found consistent (their content unchanged) are not asked again: only
/// the others are loaded and checked, together (after a one-rule edit, one
/// group instead of the whole model). When those are not consistent, the
/// whole model is checked as without a memo, so what is reported never
/// depends on the memo.
fn prologue(share: &LintShare, timeout_ms: u64, interruption: &dyn Interruption) -> Part {
    let (model, groups) = (share.model(), &share.groups);
    let whole = || {
        lint_part(share, false, |report| {
            let mut session = load(model, timeout_ms)?;
            let mut linter = Linter::new(&mut session, model, interruption, report);
            let consistent = linter.prologue(groups);
            Ok(Tally::of(&linter, consistent))
        })
    };
    let Some(memo) = &share.memo else {
        return whole();
    };
    let keys: Vec<String> = groups
        .iter()
        .map(|group| format!("consistent {}", group_key(model, group, 0, timeout_ms)))
        .collect();
    share.lock().keys.extend(keys.iter().cloned());
    let mut unknown: Vec<usize> = groups
        .iter()
        .zip(&keys)
        .filter(|(_, key)| !memo.known_consistent(key))
        .flat_map(|(group, _)| group.iter().copied())
        .collect();
    unknown.sort_unstable();
    // A scenario the last run kept in which every rule not known to be
    // consistent holds by exact evaluation proves them consistent.
    let witnessed = !unknown.is_empty()
        && share
            .book
            .as_ref()
            .is_some_and(|book| book.witness(model, &unknown).is_some());
    let part = match unknown.len() == model.rules.len() {
        _ if witnessed => Part {
            found: groups_note(model, groups).into_iter().collect(),
            consistent: true,
            complete: true,
            ..Part::default()
        },
        true => whole(),
        false => {
            let rest = with_rules(model, &unknown);
            let mut part = match rest.rules.is_empty() {
                true => Part {
                    consistent: true,
                    complete: true,
                    ..Part::default()
                },
                false => lint_part(share, false, |report| {
                    let mut session = load(&rest, timeout_ms)?;
                    let mut linter = Linter::new(&mut session, &rest, interruption, report);
                    let consistent = linter.consistency();
                    Ok(Tally::of(&linter, consistent))
                }),
            };
            match part.consistent && part.complete && part.undecided == 0 {
                true => {
                    part.found.splice(0..0, groups_note(model, groups));
                    part
                }
                false => whole(),
            }
        }
    };
    if part.consistent && part.complete && part.undecided == 0 {
        for key in keys {
            memo.keep_consistent(key);
        }
    }
    part
}

/// `model` with only the rules at `rules`, and only the variables they
/// mention and the enumerations those need declared: on the sectioned
/// bench model a group of 75 rules loaded in 9 ms with all 1,600
/// declarations.
fn with_rules(model: &CompiledModel, rules: &[usize]) -> CompiledModel {
    let rules: Vec<_> = rules.iter().map(|&r| model.rules[r].clone()).collect();
    let used: HashSet<&str> = rules.iter().flat_map(|r| r.formula.symbols()).collect();
    let variables: Vec<(String, Sort)> = model
        .variables
        .iter()
        .filter(|(name, _)| used.contains(name.as_str()))
        .cloned()
        .collect();
    let types: HashSet<&str> = variables
        .iter()
        .filter_map(|(_, sort)| match sort {
            Sort::Enum(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let enums = model
        .enums
        .iter()
        .filter(|(name, values)| {
            types.contains(name.as_str()) || values.iter().any(|v| used.contains(v.as_str()))
        })
        .cloned()
        .collect();
    CompiledModel {
        vocabulary: model.vocabulary.clone(),
        glossary: model.glossary.clone(),
        rules,
        issues: Vec::new(),
        enums,
        variables,
        tables: model.tables.clone(),
        exceptions: model.exceptions.clone(),
    }
}

/// Why a piece of the lint could not run (a diagnostic says so).
#[derive(Debug, thiserror::Error)]
enum LintPartError {
    #[error("the model could not be loaded into the solver: {0}")]
    Load(SolveError),
    #[error("the solver failed internally while linting")]
    Panicked,
}

fn load(model: &CompiledModel, timeout_ms: u64) -> Result<SolverSession, LintPartError> {
    SolverSession::load(model, timeout_ms).map_err(LintPartError::Load)
}

/// What a piece of work counted.
struct Tally {
    consistent: bool,
    checks: usize,
    undecided: usize,
    situation_budget_ran_out: bool,
    unchecked: Vec<Unchecked>,
}

impl Tally {
    fn of(linter: &Linter<'_>, consistent: bool) -> Tally {
        Tally {
            consistent,
            checks: linter.checks,
            undecided: linter.undecided,
            situation_budget_ran_out: linter.situation_budget_ran_out,
            unchecked: linter.unchecked.clone(),
        }
    }
}

/// Runs `work` with a report that keeps what it finds; a failure (an
/// error, or a panic inside the solver) becomes a diagnostic saying so.
/// Progress is passed on only when `progress` (one group: nothing else
/// reports meanwhile).
fn lint_part(
    share: &LintShare,
    progress: bool,
    work: impl FnOnce(&mut dyn FnMut(LintEvent)) -> Result<Tally, LintPartError>,
) -> Part {
    let mut found = Vec::new();
    let ran = {
        let mut sink = |event: LintEvent| match event {
            LintEvent::Found(diagnostic) => found.push(*diagnostic),
            LintEvent::Progress { .. } if progress => share.send(event),
            _ => {}
        };
        catch_unwind(AssertUnwindSafe(|| work(&mut sink)))
    };
    let failure = match ran {
        Ok(Ok(tally)) => {
            return Part {
                found,
                checks: tally.checks,
                undecided: tally.undecided,
                situation_budget_ran_out: tally.situation_budget_ran_out,
                consistent: tally.consistent,
                complete: true,
                unchecked: tally.unchecked,
            };
        }
        Ok(Err(error)) => error,
        Err(_) => LintPartError::Panicked,
    };
    found.push(Diagnostic::new(
        LintCode::NotDecided,
        Severity::Error,
        failure.to_string(),
    ));
    Part {
        found,
        ..Part::default()
    }
}
