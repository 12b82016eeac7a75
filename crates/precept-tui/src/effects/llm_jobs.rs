//! The workbench's LLM jobs, an adapter from the engine's (`engine::jobs`)
//! to messages: each runs under the scheduler's `spawn` with the request's
//! job id (so `Scheduler::cancel` stops it), and its progress and result
//! come back on a channel stamped with the request they answer.

use crate::state::job_error::JobError;
use crate::state::msg::{Msg, Redundancy};
use precept_engine::answer::AnswerInput;
use precept_engine::compose::record::FormalizationRecord;
use precept_engine::jobs::JobContext;
use precept_engine::jobs::answers::{AnswerSetup, check_answer, run_answer_tests};
use precept_engine::jobs::consolidation::consolidate;
use precept_engine::jobs::formalize::formalize_project;
use precept_engine::jobs::probe::{ProbeRequest, run_probe};
use precept_engine::jobs::repair::repair;
use precept_engine::model::{AnswerTest, CompiledModel, LogicTest, PolicyModel};
use precept_engine::scheduler::Scheduler;
use precept_engine::workspace::Stamp;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};

/// Runs `work` as the job of `stamp`; its messages arrive on the channel.
fn spawn(
    scheduler: &Scheduler,
    stamp: Stamp,
    work: impl FnOnce(&precept_engine::llm::Cancel, Sender<Msg>) + Send + 'static,
) -> Receiver<Msg> {
    let (send, receive) = mpsc::channel();
    scheduler.spawn(stamp.job, move |cancel| work(cancel, send));
    receive
}

/// Formalizes `document` with the project's formalize options, as
/// `precept formalize` does: a message per span's progress, then the
/// composed model.
pub fn formalize(
    scheduler: &Scheduler,
    context: JobContext,
    stamp: Stamp,
    document: String,
    document_name: String,
) -> Receiver<Msg> {
    spawn(scheduler, stamp, move |cancel, send| {
        let events = send.clone();
        let on_event = Arc::new(move |event| {
            let _ = events.send(Msg::Formalize { stamp, event });
        });
        let result = formalize_project(&context, &document, &document_name, cancel, on_event);
        let _ = send.send(Msg::FormalizeDone {
            stamp,
            result: result.map(Box::new).map_err(JobError::of),
        });
    })
}

/// Asks for a repair of `rules` from `feedback`; one message answers.
pub fn propose_repair(
    scheduler: &Scheduler,
    context: JobContext,
    stamp: Stamp,
    model: PolicyModel,
    rules: Vec<String>,
    feedback: String,
) -> Receiver<Msg> {
    spawn(scheduler, stamp, move |cancel, send| {
        let result = repair(&context, &model, &rules, &feedback, cancel).map_err(JobError::of);
        let _ = send.send(Msg::RepairProposed { stamp, result });
    })
}

/// The checked consolidation proposals for `model`; one message answers.
pub fn consolidation(
    scheduler: &Scheduler,
    context: JobContext,
    stamp: Stamp,
    model: PolicyModel,
    record: Option<FormalizationRecord>,
    tests: Vec<LogicTest>,
) -> Receiver<Msg> {
    spawn(scheduler, stamp, move |cancel, send| {
        let consolidation = consolidate(&context, &model, record.as_ref(), &tests, cancel);
        let _ = send.send(Msg::Consolidated {
            stamp,
            result: Ok(consolidation),
        });
    })
}

/// What an answer check or an answer-test run is checked against.
pub struct AnswerModel {
    pub model: PolicyModel,
    pub compiled: CompiledModel,
    pub redundancy: Redundancy,
}

impl AnswerModel {
    fn setup(&self) -> AnswerSetup<'_> {
        AnswerSetup {
            model: &self.model,
            compiled: &self.compiled,
            redundancy: self.redundancy,
        }
    }
}

/// Checks a question and answer: a message per translation as it
/// arrives, then the report.
pub fn check(
    scheduler: &Scheduler,
    context: JobContext,
    stamp: Stamp,
    input: AnswerInput,
    against: AnswerModel,
) -> Receiver<Msg> {
    spawn(scheduler, stamp, move |cancel, send| {
        let events = send.clone();
        let mut on_event = move |event| {
            let _ = events.send(Msg::AnswerProgress { stamp, event });
        };
        let result = check_answer(&context, &against.setup(), &input, cancel, &mut on_event)
            .map(Box::new)
            .map_err(JobError::of);
        let _ = send.send(Msg::AnswerChecked { stamp, result });
    })
}

/// Runs the natural-language tests in order: a message per test, then
/// one at the end.
pub fn answer_tests(
    scheduler: &Scheduler,
    context: JobContext,
    stamp: Stamp,
    tests: Vec<AnswerTest>,
    against: AnswerModel,
) -> Receiver<Msg> {
    spawn(scheduler, stamp, move |cancel, send| {
        run_answer_tests(&context, &against.setup(), &tests, cancel, &mut |outcome| {
            send.send(Msg::AnswerTestDone {
                stamp,
                outcome: Box::new(outcome),
            })
            .is_ok()
        });
        let _ = send.send(Msg::AnswerTestsFinished { stamp });
    })
}

/// Probes a chatbot: a message per question settled, then the report.
pub fn probe(
    scheduler: &Scheduler,
    context: JobContext,
    stamp: Stamp,
    request: ProbeRequest,
) -> Receiver<Msg> {
    spawn(scheduler, stamp, move |cancel, send| {
        let events = send.clone();
        let on_event = move |event| {
            let _ = events.send(Msg::Probed { stamp, event });
        };
        let result = run_probe(&context, &request, cancel, &on_event)
            .map(Box::new)
            .map_err(JobError::of);
        let _ = send.send(Msg::ProbeFinished { stamp, result });
    })
}

/// The profiles of `llm.toml` in the configuration folder, and the
/// translator's (the default one), for the Probe screen.
pub fn probe_targets(config_dir: Option<&Path>) -> Msg {
    let Some(dir) = config_dir else {
        return Msg::ProbeTargets {
            names: Vec::new(),
            translator: None,
            error: Some("there is no configuration folder".into()),
        };
    };
    match precept_engine::llm::config::profile_names(dir) {
        Ok((names, translator)) => Msg::ProbeTargets {
            names,
            translator,
            error: None,
        },
        Err(error) => Msg::ProbeTargets {
            names: Vec::new(),
            translator: None,
            error: Some(error.to_string()),
        },
    }
}
