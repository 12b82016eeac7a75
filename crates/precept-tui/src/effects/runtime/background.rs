//! The effects that start a background job answering as messages: the LLM
//! jobs (formalize, answer checks, answer tests, repairs, consolidation,
//! chatbot probes), each under the scheduler with its request's job id, a
//! newer one of a kind stopping the older; and the tasks the update writes
//! (`state/task.rs`), run as they are.

use super::{LlmJob, Runtime};
use crate::effects::llm_jobs;
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
                self.scheduler.spawn(task.stamp.job, move |_| {
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
                self.replace_llm_job(LlmJob::Formalize, stamp.job);
                let messages = llm_jobs::formalize(
                    &self.scheduler,
                    self.context(),
                    stamp,
                    document,
                    document_name,
                );
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
                self.replace_llm_job(LlmJob::CheckAnswer, stamp.job);
                let against = llm_jobs::AnswerModel {
                    model: *model,
                    compiled: *compiled,
                    redundancy,
                };
                let input = precept_engine::answer::AnswerInput::new(question, answer);
                let messages =
                    llm_jobs::check(&self.scheduler, self.context(), stamp, input, against);
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
                self.replace_llm_job(LlmJob::Probe, stamp.job);
                let request = precept_engine::jobs::probe::ProbeRequest {
                    target,
                    questions,
                    model: *model,
                    compiled: *compiled,
                    document,
                };
                let messages = llm_jobs::probe(&self.scheduler, self.context(), stamp, request);
                self.streams.push(messages);
                Vec::new()
            }
            Effect::CancelProbe => {
                self.stop_llm_job(LlmJob::Probe);
                Vec::new()
            }
            Effect::ListProbeTargets => {
                vec![llm_jobs::probe_targets(self.config_dir.as_deref())]
            }
            Effect::RunAnswerTests {
                stamp,
                model,
                compiled,
                tests,
                redundancy,
            } => {
                self.replace_llm_job(LlmJob::AnswerTests, stamp.job);
                let against = llm_jobs::AnswerModel {
                    model: *model,
                    compiled: *compiled,
                    redundancy,
                };
                let messages =
                    llm_jobs::answer_tests(&self.scheduler, self.context(), stamp, tests, against);
                self.streams.push(messages);
                Vec::new()
            }
            Effect::CancelFormalize => {
                self.stop_llm_job(LlmJob::Formalize);
                Vec::new()
            }
            Effect::ProposeRepair {
                stamp,
                model,
                rules,
                feedback,
            } => {
                self.replace_llm_job(LlmJob::Repair, stamp.job);
                self.streams.push(llm_jobs::propose_repair(
                    &self.scheduler,
                    self.context(),
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
                self.replace_llm_job(LlmJob::Consolidate, stamp.job);
                self.streams.push(llm_jobs::consolidation(
                    &self.scheduler,
                    self.context(),
                    stamp,
                    *model,
                    record.map(|r| *r),
                    tests,
                ));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}
