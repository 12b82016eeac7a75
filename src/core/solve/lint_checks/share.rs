//! One lint run shared out over the workers of a pool. Each worker loads
//! the model into a fresh session of its own and takes groups of rules (the
//! islands that share no variables) from a common queue, largest first; the
//! first worker also checks the whole model's consistency before it takes
//! groups. Each piece of work keeps what it found, and the pieces are sent
//! on in a fixed order (the whole-model checks, then the groups by their
//! first rule) as soon as all before them are in, so the diagnostics, the
//! check counts and their order do not depend on how many workers ran.
//!
//! A group's impossible-situation search has a budget in proportion to its
//! size, so it finds the same situations whichever worker checks it, and
//! whenever.

use super::linter::{LintEvent, Linter, SITUATION_CHECK_BUDGET};
use crate::core::model::CompiledModel;
use crate::core::model::diagnostic::{Diagnostic, LintCode, Severity};
use crate::core::solve::session::{Interruption, SolverSession};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Mutex, MutexGuard};

/// What one piece of the run (the whole-model checks, or one group) found.
#[derive(Default)]
struct Part {
    found: Vec<Diagnostic>,
    checks: usize,
    undecided: usize,
    situation_budget_ran_out: bool,
    /// The whole-model checks only: the rules are consistent.
    consistent: bool,
}

#[derive(Default)]
struct Merge {
    /// How many groups the model has (known once a worker has loaded it).
    groups: Option<usize>,
    /// Pieces waiting for those before them: 0 is the whole model, 1 + g
    /// is group g.
    waiting: BTreeMap<usize, Part>,
    /// The next piece to send on.
    next: usize,
    /// The rules are inconsistent: the groups' findings are dropped.
    skip_groups: bool,
    checks: usize,
    undecided: usize,
    situation_budget_ran_out: bool,
    workers_done: usize,
}

/// A lint run over `workers` workers, reporting to one channel.
pub struct LintShare {
    model: CompiledModel,
    workers: usize,
    /// The next position in the queue of groups (largest first).
    next_group: AtomicUsize,
    /// Set when the rules contradict each other: no more groups are taken.
    stop: AtomicBool,
    merge: Mutex<Merge>,
    events: Mutex<Sender<LintEvent>>,
}

impl LintShare {
    pub fn new(model: CompiledModel, workers: usize, events: Sender<LintEvent>) -> LintShare {
        LintShare {
            model,
            workers: workers.max(1),
            next_group: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            merge: Mutex::new(Merge::default()),
            events: Mutex::new(events),
        }
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
        self.send(LintEvent::Finished {
            checks: merge.checks,
            undecided: merge.undecided,
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
            if next > 0 && merge.skip_groups {
                continue;
            }
            merge.checks += part.checks;
            merge.undecided += part.undecided;
            merge.situation_budget_ran_out |= part.situation_budget_ran_out;
            for diagnostic in part.found {
                self.send(LintEvent::Found(Box::new(diagnostic)));
            }
            if let Some(groups) = merge.groups
                && groups > 1
                && next > 0
            {
                self.send(LintEvent::Progress {
                    done: next,
                    total: groups,
                    stage: "groups of rules",
                });
            }
        }
    }
}

/// A group's share of the impossible-situation budget: in proportion to
/// its rules, at least one check.
fn situation_budget(group: usize, rules: usize) -> usize {
    (SITUATION_CHECK_BUDGET * group)
        .div_ceil(rules.max(1))
        .max(1)
}

impl SolverSession {
    /// Does worker `role`'s share of `share`'s lint run on this session (a
    /// fresh one holding exactly the model's rules, in order).
    pub fn lint_share(&mut self, share: &LintShare, role: usize, interruption: &dyn Interruption) {
        let model = share.model();
        let mut sink = |_: LintEvent| {};
        let groups = Linter::new(self, model, interruption, &mut sink).group_list();
        let single_group = groups.len() == 1;
        share.lock().groups.get_or_insert(groups.len());
        if role == 0 {
            let part = self.lint_part(share, interruption, false, |linter| {
                linter.prologue(&groups)
            });
            if !part.consistent {
                share.stop.store(true, Ordering::Relaxed);
            }
            share.deliver(0, part);
        }
        let mut queue: Vec<usize> = (0..groups.len()).collect();
        queue.sort_by_key(|&g| std::cmp::Reverse(groups[g].len()));
        let rules = model.rules.len();
        loop {
            if share.stop.load(Ordering::Relaxed) || interruption.reason().is_some() {
                break;
            }
            let taken = share.next_group.fetch_add(1, Ordering::Relaxed);
            let Some(&g) = queue.get(taken) else {
                break;
            };
            let group = &groups[g];
            let budget = situation_budget(group.len(), rules);
            let part = self.lint_part(share, interruption, single_group, |linter| {
                linter.lint_group(group, budget);
                true
            });
            share.deliver(1 + g, part);
        }
    }

    /// Runs `work` on a linter that keeps what it finds; a failure inside
    /// the solver becomes a diagnostic saying so. Progress is passed on
    /// only when `progress` (one group: nothing else reports meanwhile).
    fn lint_part(
        &mut self,
        share: &LintShare,
        interruption: &dyn Interruption,
        progress: bool,
        work: impl FnOnce(&mut Linter<'_>) -> bool,
    ) -> Part {
        let model = share.model();
        let mut found = Vec::new();
        let mut sink = |event: LintEvent| match event {
            LintEvent::Found(diagnostic) => found.push(*diagnostic),
            LintEvent::Progress { .. } if progress => share.send(event),
            _ => {}
        };
        let mut part = Part::default();
        let ran = catch_unwind(AssertUnwindSafe(|| {
            let mut linter = Linter::new(self, model, interruption, &mut sink);
            let consistent = work(&mut linter);
            (
                consistent,
                linter.checks,
                linter.undecided,
                linter.situation_budget_ran_out,
            )
        }));
        match ran {
            Ok((consistent, checks, undecided, ran_out)) => {
                part.consistent = consistent;
                part.checks = checks;
                part.undecided = undecided;
                part.situation_budget_ran_out = ran_out;
            }
            Err(_) => found.push(Diagnostic::new(
                LintCode::NotDecided,
                Severity::Error,
                "the solver failed internally while linting",
            )),
        }
        part.found = found;
        part
    }
}
