//! One whole verification: k translations run concurrently; each pair is
//! sent to the solver as soon as its translation arrives (so the findings
//! are computed while the other translations are still on their way); then
//! the distinct pairs and their confidences are decided, the findings
//! collected, feedback written and the aggregate formed. Progress is
//! reported as plain-data events and a cancel token stops everything.

use super::budget::Budget;
use super::cache::TranslationCache;
use super::confidence::SupportPlan;
use super::feedback::{FeedbackContext, answer_feedback, pair_feedback};
use super::report::{AnswerReport, PairReport, Timing, UntranslatedSpan, pair_kind, worst_pair};
use super::translate::{AnswerInput, Translation, TranslationStep, Translator, translate};
use super::untranslated::{untranslated_spans, whole_answer_untranslated};
use super::vocabulary::TranslationVocabulary;
use crate::llm::Cancel;
use crate::model::{CompiledModel, PolicyModel};
use crate::solve::{
    Defaults, FindingKind, FormulaReply, Reading, SolverReply, SolverWorker, Ticket,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tokio::sync::mpsc as async_mpsc;
use tokio::task::JoinSet;

/// How often a blocking wait looks at the cancel token.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Settings of a verification (k is the number of translators).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerifyOptions {
    /// The confidence a pair needs, as a share of k (1.0 is k/k).
    pub threshold: f64,
    pub budget: Budget,
    /// Assume nothing: without it, each pair is read by default (the
    /// exceptions its premise does not mention are assumed absent, and a
    /// finding lists those it needs; `solve/defaults.rs`).
    pub strict: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            threshold: 1.0,
            budget: Budget::default(),
            strict: false,
        }
    }
}

/// Progress of one verification, in the order things happen.
#[derive(Debug, Clone, PartialEq)]
pub enum VerifyEvent {
    /// The k translations were sent.
    Started { translations: usize },
    /// Translation `translation` (a number) goes back for its repair round.
    Retrying {
        translation: usize,
        errors: Vec<String>,
    },
    /// A translation arrived (translations arrive in any order).
    Translated { translation: Box<Translation> },
    /// Every translation is in; the solver decides `pairs` distinct pairs.
    Solving { pairs: usize },
}

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("no translator: at least one LLM profile and k ≥ 1 are needed")]
    NoTranslators,
    /// No translation could be made at all (server unreachable, not
    /// configured, unusable replies).
    #[error("every translation failed: {0}")]
    Translation(String),
    #[error("the verification was cancelled")]
    Cancelled,
    #[error("{0}")]
    Runtime(String),
}

/// Checks answers against one model with a fixed set of translators.
pub struct AnswerVerifier {
    compiled: CompiledModel,
    defaults: Defaults,
    vocabulary: Arc<TranslationVocabulary>,
    translators: Vec<Translator>,
    cache: Option<TranslationCache>,
    options: VerifyOptions,
}

/// A verify request sent for a pair, by the pair's text (premise, claim).
type PairTicket = ((String, String), Ticket);

/// What the translation phase produced.
struct Arrivals {
    translations: Vec<Translation>,
    /// Verify requests sent, one per distinct pair text.
    tickets: Vec<PairTicket>,
    over_budget: Option<String>,
}

enum Progress {
    Step(usize, TranslationStep),
    Done(Box<Translation>),
}

impl AnswerVerifier {
    /// A verifier for `compiled` (descriptions from `model`). The solver
    /// worker passed to [`verify`](Self::verify) must have `compiled` loaded.
    pub fn new(
        model: &PolicyModel,
        compiled: &CompiledModel,
        translators: Vec<Translator>,
        options: VerifyOptions,
    ) -> AnswerVerifier {
        AnswerVerifier {
            compiled: compiled.clone(),
            defaults: Defaults::of(compiled),
            vocabulary: Arc::new(TranslationVocabulary::new(model, compiled)),
            translators,
            cache: None,
            options,
        }
    }

    /// Keeps translations in `cache` (see `cache.rs` for when they are reused).
    pub fn with_cache(mut self, cache: TranslationCache) -> AnswerVerifier {
        self.cache = Some(cache);
        self
    }

    pub fn options(&self) -> &VerifyOptions {
        &self.options
    }

    /// How this verifier reads each pair.
    fn reading(&self) -> Reading {
        Reading::strict(self.options.strict)
    }

    pub fn k(&self) -> usize {
        self.translators.len()
    }

    pub fn vocabulary(&self) -> &TranslationVocabulary {
        &self.vocabulary
    }

    /// Verifies one question and answer (or statement). Blocks the calling
    /// thread (run it on a background thread in an interactive program);
    /// must not be called from inside an async runtime.
    pub fn verify(
        &self,
        worker: &SolverWorker,
        input: &AnswerInput,
        on_event: &mut dyn FnMut(VerifyEvent),
        cancel: &Cancel,
    ) -> Result<AnswerReport, VerifyError> {
        let started = Instant::now();
        if self.translators.is_empty() {
            return Err(VerifyError::NoTranslators);
        }
        if let Some(reason) = self
            .options
            .budget
            .text_excess(&input.question, &input.answer)
        {
            let timing = Timing {
                total_ms: millis(started.elapsed()),
                ..Timing::default()
            };
            return Ok(self.unchecked(
                input,
                FindingKind::TooComplex,
                reason,
                Vec::new(),
                Vec::new(),
                timing,
            ));
        }
        if cancel.is_cancelled() {
            return Err(VerifyError::Cancelled);
        }
        on_event(VerifyEvent::Started {
            translations: self.translators.len(),
        });
        let (replies_to, replies) = mpsc::channel();
        let arrivals = self.translate_all(worker, input, &replies_to, on_event, cancel);
        let withdraw = |tickets: &[PairTicket]| {
            for (_, ticket) in tickets {
                worker.cancel(*ticket);
            }
        };
        let arrivals = match arrivals {
            Ok(arrivals) => arrivals,
            Err((error, tickets)) => {
                withdraw(&tickets);
                return Err(error);
            }
        };
        let mut timing = Timing {
            translation_ms: millis(started.elapsed()),
            ..Timing::default()
        };
        let translations = arrivals.translations;
        let untranslated = untranslated_spans(input, &translations);
        if let Some(reason) = arrivals.over_budget {
            withdraw(&arrivals.tickets);
            timing.total_ms = millis(started.elapsed());
            return Ok(self.unchecked(
                input,
                FindingKind::TooComplex,
                reason,
                translations,
                untranslated,
                timing,
            ));
        }
        if translations.iter().all(|t| t.error.is_some()) {
            let errors: Vec<String> = translations
                .iter()
                .map(|t| {
                    format!(
                        "translation {}: {}",
                        t.number,
                        t.error.as_deref().unwrap_or("")
                    )
                })
                .collect();
            return Err(VerifyError::Translation(errors.join("; ")));
        }
        if translations.iter().all(|t| t.pairs.is_empty()) {
            let untranslated = if untranslated.is_empty() {
                whole_answer_untranslated(input, &translations)
            } else {
                untranslated
            };
            timing.total_ms = millis(started.elapsed());
            return Ok(self.unchecked(
                input,
                FindingKind::NoTranslations,
                "no translation found anything the policy's variables can express".into(),
                translations,
                untranslated,
                timing,
            ));
        }
        let result = self.decide(
            worker,
            input,
            translations,
            untranslated,
            &arrivals.tickets,
            &replies,
            on_event,
            cancel,
            started,
            timing,
        );
        if result.is_err() {
            withdraw(&arrivals.tickets);
        }
        result
    }

    /// Runs the k translations; sends each new pair to the solver as soon
    /// as its translation arrives.
    fn translate_all(
        &self,
        worker: &SolverWorker,
        input: &AnswerInput,
        replies_to: &mpsc::Sender<SolverReply>,
        on_event: &mut dyn FnMut(VerifyEvent),
        cancel: &Cancel,
    ) -> Result<Arrivals, (VerifyError, Vec<PairTicket>)> {
        if crate::llm::runtime::inside_runtime() {
            return Err((
                VerifyError::Runtime(
                    "verify was called inside an async runtime; call it from a plain thread".into(),
                ),
                Vec::new(),
            ));
        }
        let runtime = crate::llm::runtime::blocking_runtime().map_err(|e| {
            (
                VerifyError::Runtime(format!("cannot start the translation runtime: {e}")),
                Vec::new(),
            )
        })?;
        let k = self.translators.len();
        let mut arrivals = Arrivals {
            translations: Vec::with_capacity(k),
            tickets: Vec::new(),
            over_budget: None,
        };
        let outcome = runtime.block_on(async {
            let (progress_to, mut progress) = async_mpsc::unbounded_channel();
            let mut jobs = JoinSet::new();
            for (index, translator) in self.translators.iter().cloned().enumerate() {
                let vocabulary = self.vocabulary.clone();
                let input = input.clone();
                let cache = self.cache.clone();
                let progress_to = progress_to.clone();
                jobs.spawn(async move {
                    let number = index + 1;
                    let steps = progress_to.clone();
                    let on_step = move |step: TranslationStep| {
                        let _ = steps.send(Progress::Step(number, step));
                    };
                    let translation = translate(
                        &vocabulary,
                        &input,
                        &translator,
                        number,
                        k,
                        cache.as_ref(),
                        &on_step,
                    )
                    .await;
                    let _ = progress_to.send(Progress::Done(Box::new(translation)));
                });
            }
            drop(progress_to);
            let mut cancelled = cancel.subscribe();
            while arrivals.translations.len() < k {
                let message = tokio::select! {
                    message = progress.recv() => message,
                    _ = cancelled.wait_for(|c| *c) => return Err(VerifyError::Cancelled),
                };
                let Some(message) = message else {
                    return Err(VerifyError::Runtime(
                        "a translation stopped without an answer".into(),
                    ));
                };
                match message {
                    Progress::Step(translation, TranslationStep::Retrying { errors }) => {
                        on_event(VerifyEvent::Retrying {
                            translation,
                            errors,
                        })
                    }
                    Progress::Done(translation) => {
                        self.arrived(worker, &translation, replies_to, &mut arrivals);
                        on_event(VerifyEvent::Translated {
                            translation: translation.clone(),
                        });
                        arrivals.translations.push(*translation);
                    }
                }
            }
            jobs.abort_all();
            Ok(())
        });
        // Requests still in flight (after a cancel) are dropped, not awaited.
        runtime.shutdown_background();
        match outcome {
            Ok(()) => {
                arrivals.translations.sort_by_key(|t| t.number);
                Ok(arrivals)
            }
            Err(error) => Err((error, arrivals.tickets)),
        }
    }

    /// Checks an arrived translation against the budget and sends its new
    /// pairs to the solver.
    fn arrived(
        &self,
        worker: &SolverWorker,
        translation: &Translation,
        replies_to: &mpsc::Sender<SolverReply>,
        arrivals: &mut Arrivals,
    ) {
        let excess = self.options.budget.translation_excess(
            translation.number,
            translation
                .pairs
                .iter()
                .map(|p| (p.premise.as_str(), p.claim.as_str())),
        );
        if let Some(excess) = excess {
            arrivals.over_budget.get_or_insert(excess);
        }
        if arrivals.over_budget.is_some() {
            return;
        }
        for pair in &translation.pairs {
            let key = (pair.premise.clone(), pair.claim.clone());
            if arrivals.tickets.iter().any(|(known, _)| known == &key) {
                continue;
            }
            let premise = &pair.checked.premise_formula;
            let claim = &pair.checked.claim_formula;
            let assumed = self.defaults.unmentioned(premise, claim, self.reading());
            let ticket = worker.submit(
                self.defaults.assumed_premise(premise, &assumed),
                pair.checked.claim_formula.clone(),
                replies_to.clone(),
            );
            arrivals.tickets.push((key, ticket));
        }
    }

    /// Confidence, findings, feedback and the aggregate.
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &self,
        worker: &SolverWorker,
        input: &AnswerInput,
        translations: Vec<Translation>,
        untranslated: Vec<UntranslatedSpan>,
        tickets: &[PairTicket],
        replies: &Receiver<SolverReply>,
        on_event: &mut dyn FnMut(VerifyEvent),
        cancel: &Cancel,
        started: Instant,
        mut timing: Timing,
    ) -> Result<AnswerReport, VerifyError> {
        on_event(VerifyEvent::Solving {
            pairs: tickets.len(),
        });
        let plan = SupportPlan::new(&translations);
        let (formulas_to, formula_replies) = mpsc::channel::<FormulaReply>();
        let formula_ticket = worker.submit_formulas(plan.queries().to_vec(), formulas_to);
        let formula_reply = match wait_one(&formula_replies, cancel) {
            Ok(reply) => reply,
            Err(error) => {
                worker.cancel(formula_ticket);
                return Err(error);
            }
        };
        let mut solver_time = formula_reply.elapsed;
        let assessed = plan.conclude(&translations, &formula_reply.results);

        // The representatives' tickets; equivalent variants are withdrawn.
        let needed: Vec<Ticket> = assessed
            .iter()
            .filter_map(|pair| {
                let (t, p) = pair.first;
                let written = &translations[t].pairs[p];
                let key = (written.premise.clone(), written.claim.clone());
                tickets.iter().find(|(k, _)| *k == key).map(|(_, t)| *t)
            })
            .collect();
        for (_, ticket) in tickets {
            if !needed.contains(ticket) {
                worker.cancel(*ticket);
            }
        }
        let mut findings: HashMap<Ticket, SolverReply> = HashMap::new();
        while needed.iter().any(|t| !findings.contains_key(t)) {
            let reply = wait_one(replies, cancel)?;
            if needed.contains(&reply.ticket) {
                solver_time += reply.elapsed;
            }
            findings.insert(reply.ticket, reply);
        }

        let context = FeedbackContext {
            compiled: &self.compiled,
            worker,
            translations: &translations,
        };
        let mut pairs = Vec::with_capacity(assessed.len());
        for (pair, ticket) in assessed.into_iter().zip(&needed) {
            if cancel.is_cancelled() {
                return Err(VerifyError::Cancelled);
            }
            let Some(reply) = findings.remove(ticket) else {
                return Err(VerifyError::Runtime(
                    "the solver did not answer for a pair".into(),
                ));
            };
            let (t, p) = pair.first;
            let written = &translations[t].pairs[p];
            let (premise, claim) = (
                &written.checked.premise_formula,
                &written.checked.claim_formula,
            );
            let assumed = self.defaults.unmentioned(premise, claim, self.reading());
            let evidence = match assumed.is_empty() {
                true => reply.finding,
                false => {
                    let started = Instant::now();
                    let settled =
                        self.defaults
                            .settle(worker, premise, claim, assumed, reply.finding);
                    solver_time += started.elapsed();
                    settled
                }
            };
            let finding = pair_kind(
                pair.undecided.is_some(),
                pair.confidence,
                self.options.threshold,
                &evidence,
            );
            let mut report = PairReport {
                finding,
                premise: written.premise.clone(),
                claim: written.claim.clone(),
                source: written.source.clone(),
                confidence: pair.confidence,
                supporting_translations: pair.supporters,
                written_as: pair.written_as,
                evidence,
                disagreement: pair.disagreement,
                undecided: pair.undecided,
                feedback: String::new(),
            };
            let (feedback, spent) = pair_feedback(
                &context,
                &report,
                &written.checked.premise_formula,
                &written.checked.claim_formula,
            );
            solver_time += spent;
            report.feedback = feedback;
            pairs.push(report);
        }
        let (deciding_pair, finding) = match worst_pair(&pairs) {
            Some((index, kind)) => (Some(index), kind),
            None => (None, FindingKind::NoTranslations),
        };
        timing.solver_ms = millis(solver_time);
        timing.total_ms = millis(started.elapsed());
        let mut report = AnswerReport {
            finding,
            question: input.question.clone(),
            answer: input.answer.clone(),
            k: self.translators.len(),
            threshold: self.options.threshold,
            reason: None,
            deciding_pair,
            pairs,
            untranslated,
            translations,
            feedback: String::new(),
            timing,
        };
        report.feedback = answer_feedback(&report);
        Ok(report)
    }

    /// A report without pairs (TOO_COMPLEX before solving, NO_TRANSLATIONS).
    fn unchecked(
        &self,
        input: &AnswerInput,
        finding: FindingKind,
        reason: String,
        translations: Vec<Translation>,
        untranslated: Vec<UntranslatedSpan>,
        timing: Timing,
    ) -> AnswerReport {
        let mut report = AnswerReport {
            finding,
            question: input.question.clone(),
            answer: input.answer.clone(),
            k: self.translators.len(),
            threshold: self.options.threshold,
            reason: Some(reason),
            deciding_pair: None,
            pairs: Vec::new(),
            untranslated,
            translations,
            feedback: String::new(),
            timing,
        };
        report.feedback = answer_feedback(&report);
        report
    }
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

/// Waits for one message, looking at the cancel token meanwhile.
fn wait_one<T>(receiver: &Receiver<T>, cancel: &Cancel) -> Result<T, VerifyError> {
    loop {
        if cancel.is_cancelled() {
            return Err(VerifyError::Cancelled);
        }
        match receiver.recv_timeout(CANCEL_POLL) {
            Ok(message) => return Ok(message),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(VerifyError::Runtime("the solver thread stopped".into()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crosses_threads<T: Send + Sync>() {}

    #[test]
    fn a_verification_can_run_on_a_background_thread() {
        crosses_threads::<AnswerVerifier>();
        crosses_threads::<Cancel>();
        crosses_threads::<VerifyEvent>();
        crosses_threads::<AnswerReport>();
        crosses_threads::<VerifyError>();
    }
}
