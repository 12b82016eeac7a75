//! Carries out effects: atomic saves, the solver worker, and turning solver
//! replies back into messages. One pending run at a time: a newer run
//! cancels whatever the older one still has queued.

use crate::state::msg::{Effect, Msg};
use precept_engine::model::LogicTest;
use precept_engine::scheduler::{JobId, Scheduler};
use precept_engine::smt::{Expr, ExprKind};
use precept_engine::solve::{
    FindingKind, QuestionClock, Reading, SolverReply, Ticket, verify_on_two,
};
use precept_engine::test_runner::TestOutcome;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

mod background;
mod files;

/// A lint run in progress: its events arrive on their own channel.
struct LintRun {
    stamp: precept_engine::workspace::Stamp,
    events: Receiver<precept_engine::solve::lint_checks::LintEvent>,
}

/// The kinds of LLM job; one of each runs at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum LlmJob {
    Formalize,
    CheckAnswer,
    AnswerTests,
    Probe,
    Repair,
    Consolidate,
}

enum Pending {
    Test {
        stamp: precept_engine::workspace::Stamp,
        test: Box<LogicTest>,
    },
    ConsistencyCheck {
        stamp: precept_engine::workspace::Stamp,
    },
}

pub struct Runtime {
    project_dir: PathBuf,
    config_dir: Option<PathBuf>,
    scheduler: Scheduler,
    /// The test run in progress, if any.
    tests_job: Option<JobId>,
    reply: Sender<SolverReply>,
    replies: Receiver<SolverReply>,
    pending: HashMap<Ticket, Pending>,
    lint: Option<LintRun>,
    /// Background jobs (coverage, test generation), each answering once.
    background: Vec<Receiver<Msg>>,
    /// Jobs that answer several times (LLM work), read until they hang up.
    streams: Vec<Receiver<Msg>>,
    /// The running LLM job of each kind (a newer one replaces it).
    llm_jobs: HashMap<LlmJob, JobId>,
    timeout: Duration,
    /// Why-requests and consultant requests on the shared solver.
    explain: crate::effects::explain_jobs::ExplainJobs,
}

impl Runtime {
    /// A runtime with one solver worker per core.
    pub fn new(project_dir: PathBuf, config_dir: Option<PathBuf>, timeout: Duration) -> Runtime {
        let jobs = Scheduler::default_jobs();
        Runtime::with_solver_jobs(project_dir, config_dir, timeout, jobs)
    }

    /// A runtime with `jobs` solver workers sharing lint and test runs.
    pub fn with_solver_jobs(
        project_dir: PathBuf,
        config_dir: Option<PathBuf>,
        timeout: Duration,
        jobs: usize,
    ) -> Runtime {
        let (reply, replies) = mpsc::channel();
        Runtime {
            project_dir,
            config_dir,
            scheduler: Scheduler::new(jobs, timeout),
            tests_job: None,
            reply,
            replies,
            pending: HashMap::new(),
            lint: None,
            background: Vec::new(),
            streams: Vec::new(),
            llm_jobs: HashMap::new(),
            timeout,
            explain: Default::default(),
        }
    }

    /// After a save of the draft's files: the error, or where the draft
    /// now stands against its versions (for the status line).
    fn saved(&self, result: Result<(), crate::state::job_error::JobError>) -> Vec<Msg> {
        match result {
            Ok(()) => vec![Msg::DraftVersion(
                crate::state::version_diff::DraftVersion::read(&self.project_dir),
            )],
            Err(error) => vec![Msg::IoFailed {
                error: error.to_string(),
            }],
        }
    }

    /// Carries out one effect; messages that result at once are returned.
    pub fn execute(&mut self, effect: Effect) -> Vec<Msg> {
        match effect {
            Effect::LoadSolver(model) => {
                self.cancel_runs();
                self.scheduler.load_in_background(*model);
                Vec::new()
            }
            Effect::ReplaceRule { id, formula } => {
                self.scheduler.replace_rule(&id, formula);
                Vec::new()
            }
            Effect::RunTests {
                stamp,
                jobs,
                check_consistency,
                shared_out,
            } => {
                self.cancel_runs();
                let mut messages = Vec::new();
                let mut runnable = Vec::new();
                for job in jobs {
                    match job.formulas.clone() {
                        Ok((premise, claim)) => {
                            runnable.push((premise, claim, job.known, Box::new(job.test)))
                        }
                        Err(error) => messages.push(Msg::TestFinished {
                            stamp,
                            outcome: Box::new(TestOutcome {
                                id: job.test.id,
                                name: job.test.name,
                                expected: job.test.expected,
                                finding: None,
                                error: Some(error.to_string()),
                                passed: false,
                                elapsed: Duration::ZERO,
                            }),
                        }),
                    }
                }
                let tickets =
                    self.scheduler
                        .run_tests(stamp.job, runnable, shared_out, &self.reply);
                for (ticket, test) in tickets {
                    self.pending.insert(ticket, Pending::Test { stamp, test });
                }
                self.tests_job = Some(stamp.job);
                // After the main worker's tests: its first test has asked
                // whether the edited rules hold together, so the probe then
                // costs next to nothing and holds no test back.
                if check_consistency {
                    let truth = Expr::new(ExprKind::Bool(true));
                    let ticket =
                        self.scheduler
                            .ask_main(stamp.job, truth.clone(), truth, &self.reply);
                    self.pending
                        .insert(ticket, Pending::ConsistencyCheck { stamp });
                }
                messages
            }
            Effect::Verify {
                stamp,
                premise,
                claim,
                defaults,
            } => {
                // On a thread of its own: by default with its assumptions
                // settled (`solve/defaults.rs`), else one side on each of
                // two workers (`solve/split_verify.rs`), timed by solver
                // time as the expert's runs keep the workers busy.
                let main = self.scheduler.worker(0).expect("a scheduler has a worker");
                let second = self.scheduler.worker(1);
                let (done, finding) = mpsc::channel();
                std::thread::spawn(move || {
                    let finding = match (defaults, second) {
                        (Some(crate::state::msg::Assuming(defaults)), _) => {
                            defaults.verify(&main, &premise, &claim, Reading::Default)
                        }
                        (None, Some(second)) => {
                            verify_on_two(&main, &second, premise, claim, QuestionClock::SolverTime)
                        }
                        (None, None) => main.verify(premise, claim),
                    };
                    let _ = done.send(Msg::VerifyFinished {
                        stamp,
                        finding: Box::new(finding),
                    });
                });
                self.background.push(finding);
                Vec::new()
            }
            Effect::Lint { stamp, model } => {
                if let Some(old) = self.lint.take() {
                    self.scheduler.cancel(old.stamp.job);
                }
                let (events, received) = mpsc::channel();
                self.scheduler.lint(stamp.job, *model, events);
                self.lint = Some(LintRun {
                    stamp,
                    events: received,
                });
                Vec::new()
            }
            Effect::ExplainTest { .. }
            | Effect::Consult { .. }
            | Effect::ChainForValue { .. }
            | Effect::CancelExplain => self.execute_explain(effect),
            Effect::Quit => {
                for (_, job) in self.llm_jobs.drain() {
                    self.scheduler.cancel(job);
                }
                Vec::new()
            }
            Effect::SaveModel(_)
            | Effect::SaveTests(_)
            | Effect::SaveDrafts(_)
            | Effect::SaveThemeChoice(_)
            | Effect::RemoveRecord
            | Effect::SaveNotPolicy(_)
            | Effect::SaveRecord(_)
            | Effect::Export { .. }
            | Effect::WriteProjectFile { .. } => self.execute_file(effect),
            Effect::Background(_)
            | Effect::Formalize { .. }
            | Effect::CheckAnswer { .. }
            | Effect::StartProbe { .. }
            | Effect::CancelProbe
            | Effect::ListProbeTargets
            | Effect::RunAnswerTests { .. }
            | Effect::CancelFormalize
            | Effect::ProposeRepair { .. }
            | Effect::Consolidate { .. } => self.execute_background(effect),
        }
    }

    /// Carries out the explanation effects.
    fn execute_explain(&mut self, effect: Effect) -> Vec<Msg> {
        use crate::effects::explain_jobs::{self as jobs, Kind};
        match effect {
            Effect::ExplainTest {
                stamp,
                premise,
                claim,
                inputs,
                locate_parting,
            } => self.explain.start(
                self.scheduler.main(),
                Kind::Why,
                jobs::explain_test(stamp, premise, claim, inputs, locate_parting),
            ),
            Effect::Consult {
                stamp,
                premise,
                claim,
                inputs,
            } => self.explain.start(
                self.scheduler.main(),
                Kind::Consultant,
                jobs::consult(stamp, premise, claim, inputs),
            ),
            Effect::ChainForValue {
                stamp,
                premise,
                propagation,
                variable,
            } => self.explain.start(
                self.scheduler.main(),
                Kind::Why,
                jobs::value_chain(stamp, premise, *propagation, variable),
            ),
            Effect::CancelExplain => self.explain.cancel(self.scheduler.main(), Kind::Why),
            _ => {}
        }
        Vec::new()
    }

    /// Cancels the tests and probes still queued or running.
    fn cancel_runs(&mut self) {
        if let Some(job) = self.tests_job.take() {
            self.scheduler.cancel(job);
        }
    }

    /// `job` is now the running LLM job of its `kind`: the older one stops.
    fn replace_llm_job(&mut self, kind: LlmJob, job: JobId) {
        if let Some(old) = self.llm_jobs.insert(kind, job) {
            self.scheduler.cancel(old);
        }
    }

    /// Stops the running LLM job of `kind`, if any.
    fn stop_llm_job(&mut self, kind: LlmJob) {
        if let Some(job) = self.llm_jobs.remove(&kind) {
            self.scheduler.cancel(job);
        }
    }

    /// What an LLM job reads of the project.
    fn context(&self) -> precept_engine::jobs::JobContext {
        precept_engine::jobs::JobContext::new(&self.project_dir, self.timeout)
    }

    /// Solver replies that have arrived, as messages.
    pub fn poll(&mut self) -> Vec<Msg> {
        let mut messages = self.explain.poll();
        self.background.retain(|job| match job.try_recv() {
            Ok(message) => {
                messages.push(message);
                false
            }
            Err(mpsc::TryRecvError::Disconnected) => {
                messages.push(Msg::IoFailed {
                    error: "a background job stopped: the model did not load into the solver"
                        .into(),
                });
                false
            }
            Err(mpsc::TryRecvError::Empty) => true,
        });
        self.streams.retain(|stream| {
            loop {
                match stream.try_recv() {
                    Ok(message) => messages.push(message),
                    Err(mpsc::TryRecvError::Empty) => break true,
                    Err(mpsc::TryRecvError::Disconnected) => break false,
                }
            }
        });
        if let Some(run) = &self.lint {
            use precept_engine::solve::lint_checks::LintEvent;
            let mut finished = false;
            // Of the progress that arrived together only the last counts
            // (a remembered group's findings come all at once, each group
            // with its progress step, and each step triages the pane).
            let mut progress = None;
            while let Ok(event) = run.events.try_recv() {
                if matches!(event, LintEvent::Progress { .. }) {
                    progress = Some(event);
                    continue;
                }
                if matches!(event, LintEvent::Finished { .. }) {
                    finished = true;
                    if let Some(progress) = progress.take() {
                        messages.push(Msg::Lint {
                            stamp: run.stamp,
                            event: progress,
                        });
                    }
                }
                messages.push(Msg::Lint {
                    stamp: run.stamp,
                    event,
                });
            }
            if let Some(event) = progress {
                messages.push(Msg::Lint {
                    stamp: run.stamp,
                    event,
                });
            }
            if finished {
                self.scheduler.finished(run.stamp.job);
                self.lint = None;
            }
        }
        while let Ok(reply) = self.replies.try_recv() {
            let Some(pending) = self.pending.remove(&reply.ticket) else {
                continue;
            };
            if reply.answered_elsewhere {
                // Its copy on another worker brings the finding.
                continue;
            }
            messages.push(match pending {
                Pending::Test { stamp, test } => {
                    let passed = reply.finding.kind == test.expected;
                    Msg::TestFinished {
                        stamp,
                        outcome: Box::new(TestOutcome {
                            id: test.id,
                            name: test.name,
                            expected: test.expected,
                            finding: Some(reply.finding),
                            error: None,
                            passed,
                            elapsed: reply.elapsed,
                        }),
                    }
                }
                Pending::ConsistencyCheck { stamp } => Msg::ConsistencyChecked {
                    stamp,
                    consistent: reply.finding.kind != FindingKind::Impossible,
                },
            });
        }
        messages
    }

    /// Blocks until a solver reply arrives or `timeout` passes (for tests and benches).
    pub fn wait(&mut self, timeout: Duration) -> Vec<Msg> {
        if !self.background.is_empty() {
            // Sides and background jobs answer on channels of their own:
            // looked at every millisecond.
            let deadline = std::time::Instant::now() + timeout;
            loop {
                let messages = self.poll();
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                if !messages.is_empty() || left.is_zero() {
                    return messages;
                }
                std::thread::sleep(left.min(Duration::from_millis(1)));
            }
        }
        match self.replies.recv_timeout(timeout) {
            Ok(reply) => {
                // Put it back through the same path as `poll`.
                let (tx, rx) = mpsc::channel();
                let _ = tx.send(reply);
                let original = std::mem::replace(&mut self.replies, rx);
                let mut messages = self.poll();
                self.replies = original;
                messages.extend(self.poll());
                messages
            }
            Err(_) => Vec::new(),
        }
    }

    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
            || self.lint.is_some()
            || !self.background.is_empty()
            || !self.streams.is_empty()
            || self.explain.is_busy()
    }
}
