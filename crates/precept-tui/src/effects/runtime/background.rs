//! The effects that start a background job answering as messages: the LLM
//! jobs (formalize, answer checks, answer tests, repairs, consolidation),
//! chatbot probes, each with what stops it;
//! and the tasks the update writes (`state/task.rs`), run as they are.

use super::Runtime;
use crate::state::msg::{Effect, Msg};

impl Runtime {
    /// Starts (or stops) a background job; its messages arrive through
    /// `poll`.
    pub(super) fn execute_background(&mut self, effect: Effect) -> Vec<Msg> {
        match effect {
            Effect::Background(task) => {
                let (send, messages) = std::sync::mpsc::channel();
                let context = crate::state::task::TaskContext {
                    project_dir: self.project_dir.clone(),
                    timeout: self.timeout,
                    solver_jobs: self.scheduler.len(),
                };
                std::thread::spawn(move || {
                    task.run(&context, &|message| {
                        let _ = send.send(message);
                    })
                });
                self.streams.push(messages);
                Vec::new()
            }
            Effect::Formalize {
                stamp,
                document,
                document_name,
            } => {
                if let Some(old) = self.formalize_cancel.take() {
                    old.cancel();
                }
                let (messages, cancel) = crate::effects::llm_jobs::start_formalize(
                    &self.project_dir,
                    self.timeout,
                    stamp,
                    document,
                    document_name,
                );
                self.formalize_cancel = cancel;
                self.streams.push(messages);
                Vec::new()
            }
            Effect::CheckAnswer {
                stamp,
                question,
                answer,
                model,
                compiled,
                redundancy,
            } => {
                if let Some(old) = self.answer_cancel.take() {
                    old.cancel();
                }
                let (messages, cancel) = crate::effects::llm_jobs::start_check_answer(
                    &self.project_dir,
                    stamp,
                    precept_engine::answer::AnswerInput::new(question, answer),
                    *model,
                    *compiled,
                    redundancy,
                    self.timeout,
                );
                self.answer_cancel = Some(cancel);
                self.streams.push(messages);
                Vec::new()
            }
            Effect::StartProbe {
                stamp,
                target,
                questions,
                model,
                compiled,
                document,
            } => {
                self.stop_probe();
                let job = crate::effects::probe_job::ProbeJob {
                    stamp,
                    target,
                    questions,
                    model: *model,
                    compiled: *compiled,
                    document,
                    timeout: self.timeout,
                };
                let (messages, cancel) =
                    crate::effects::probe_job::start_probe(&self.project_dir, job);
                self.probe_cancel = Some(cancel);
                self.streams.push(messages);
                Vec::new()
            }
            Effect::CancelProbe => {
                self.stop_probe();
                Vec::new()
            }
            Effect::ListProbeTargets => {
                vec![crate::effects::probe_job::targets(
                    self.config_dir.as_deref(),
                )]
            }
            Effect::RunAnswerTests {
                stamp,
                model,
                compiled,
                tests,
                redundancy,
            } => {
                if let Some(old) = self.nl_cancel.take() {
                    old.cancel();
                }
                let (messages, cancel) = crate::effects::llm_jobs::start_answer_tests(
                    &self.project_dir,
                    stamp,
                    *model,
                    *compiled,
                    tests,
                    redundancy,
                    self.timeout,
                );
                self.nl_cancel = Some(cancel);
                self.streams.push(messages);
                Vec::new()
            }
            Effect::CancelFormalize => {
                if let Some(cancel) = self.formalize_cancel.take() {
                    cancel.cancel();
                }
                Vec::new()
            }
            Effect::ProposeRepair {
                stamp,
                model,
                rules,
                feedback,
            } => {
                self.streams.push(crate::effects::llm_jobs::start_repair(
                    &self.project_dir,
                    stamp,
                    *model,
                    rules,
                    feedback,
                ));
                Vec::new()
            }
            Effect::Consolidate {
                stamp,
                model,
                record,
                tests,
            } => {
                self.streams
                    .push(crate::effects::llm_jobs::start_consolidation(
                        &self.project_dir,
                        stamp,
                        *model,
                        record.map(|r| *r),
                        tests,
                        self.timeout,
                    ));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}
