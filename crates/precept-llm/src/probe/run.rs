//! The whole probe: questions with proved answers (and their variants)
//! are asked concurrently, each on a plain thread that words it, asks the
//! chatbot, verifies the answer and follows up; the LLM clients keep each
//! profile under its own concurrency limit. Progress is reported as
//! plain-data events; replies are cached per profile, so a rerun after an
//! interruption asks only what was not answered yet.

use super::chatbot::Chatbot;
use super::follow_up::consequence;
use super::question::{ProbeQuestion, Relation, SourceSettings, source_questions};
use super::report::{FollowUpResult, ProbeReport, ProbeResult, RequestCount};
use super::variants::variants_of;
use super::verbalize::{Wording, verbalize};
use super::verdict::{Assessment, Stance, assess};
use super::wording::{WordingContext, follow_up_question};
use super::{Expected, ProbeKind, Verdict};
use crate::answer::{AnswerInput, AnswerVerifier};
use crate::explain::describe::source_sentence;
use crate::llm::Cancel;
use crate::llm::chat::Conversation;
use crate::llm::{LlmClient, LlmError};
use crate::model::{CompiledModel, PolicyModel};
use crate::smt::{Expr, SmtError};
use crate::solve::SolverWorker;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// What to ask and how.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeOptions {
    /// Source questions (variants and follow-ups come on top).
    pub questions: usize,
    /// The kinds to ask; `variant` and `follow-up` switch those on.
    pub kinds: Vec<ProbeKind>,
    pub follow_ups: bool,
    pub seed: u64,
    /// Ask only the templated English (no LLM wording, no round trip).
    pub templated: bool,
    /// Stop once this many requests went to the servers (both profiles).
    pub max_requests: Option<usize>,
    /// Questions in flight at once.
    pub concurrency: usize,
    /// Every n-th source question gets variants (1: all of them).
    pub variant_every: usize,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        ProbeOptions {
            questions: 20,
            kinds: ProbeKind::ALL.to_vec(),
            follow_ups: false,
            seed: 0,
            templated: false,
            max_requests: None,
            concurrency: 4,
            variant_every: 3,
        }
    }
}

/// What a probe runs on.
pub struct ProbeSetup<'a> {
    pub model: &'a PolicyModel,
    pub compiled: &'a CompiledModel,
    pub document: Option<&'a str>,
    /// With `compiled` loaded.
    pub worker: &'a SolverWorker,
    pub chatbot: &'a Chatbot,
    /// The answer verifier on the translator profile.
    pub verifier: &'a AnswerVerifier,
    /// The translator, for wording questions (None: templated only).
    pub translator: Option<&'a LlmClient>,
    pub translator_name: String,
    /// Set it to stop the run: no new question starts, the ones in flight
    /// finish, and the report says it was cancelled.
    pub cancel: Option<&'a Cancel>,
}

/// Progress of a probe.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeEvent {
    /// The questions are ready (variants included).
    Planned { questions: usize },
    /// A question's LLM wording failed the round trip.
    Discarded { id: String, reason: String },
    /// A question (with its follow-ups) is judged. A variant's verdict may
    /// still turn inconsistent once its question's answer is in (the
    /// report has the final one).
    Answered {
        result: Box<ProbeResult>,
        done: usize,
        total: usize,
    },
    /// The run stops early (the target failed, the request cap).
    Stopped { reason: String },
}

/// A question's outcome before the variants are compared.
struct Outcome {
    result: ProbeResult,
    stance: Option<Stance>,
    variant_of: Option<(String, Relation)>,
}

/// Why a probe stopped before every question was asked (the report's
/// `stopped`).
#[derive(Debug, thiserror::Error)]
pub enum ProbeStop {
    #[error("the probe was cancelled")]
    Cancelled,
    #[error("the cap of {0} requests (--max-requests) was reached")]
    RequestCap(usize),
    /// The chatbot under test failed; asking on would fail the same way.
    #[error("the chatbot under test (profile '{profile}') failed: {source}")]
    Chatbot { profile: String, source: LlmError },
    /// A planned question's formula does not check against the model (a
    /// bug: the plan is made from the model).
    #[error("internal: a question's formula {formula} does not check: {source}")]
    FormulaUnchecked { formula: String, source: SmtError },
}

/// Shared counters and the stop flag.
#[derive(Default)]
struct Tally {
    target_sent: AtomicUsize,
    target_cached: AtomicUsize,
    translator_sent: AtomicUsize,
    translator_cached: AtomicUsize,
    discarded: AtomicUsize,
    done: AtomicUsize,
    solver_us: AtomicUsize,
    stop: AtomicBool,
    reason: Mutex<Option<String>>,
    notes: Mutex<Vec<String>>,
}

impl Tally {
    fn sent(&self) -> usize {
        self.target_sent.load(Ordering::SeqCst) + self.translator_sent.load(Ordering::SeqCst)
    }

    fn stop(&self, reason: &ProbeStop) -> bool {
        let mut slot = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        self.stop.store(true, Ordering::SeqCst);
        if slot.is_none() {
            *slot = Some(reason.to_string());
            return true;
        }
        false
    }

    fn over_cap(&self, cap: Option<usize>) -> Option<ProbeStop> {
        let cap = cap?;
        (self.sent() >= cap).then_some(ProbeStop::RequestCap(cap))
    }

    fn solver<T>(&self, work: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let out = work();
        self.solver_us
            .fetch_add(started.elapsed().as_micros() as usize, Ordering::Relaxed);
        out
    }
}

/// Runs a probe. Blocks; call it from a plain thread (not inside an async
/// runtime). The report holds every answer judged, also when the run
/// stopped early (`stopped` says why).
pub fn probe(
    setup: &ProbeSetup,
    options: &ProbeOptions,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) -> ProbeReport {
    let tally = Tally::default();
    let words = WordingContext::new(setup.model, setup.compiled);
    let questions = tally.solver(|| {
        plan(
            setup.worker,
            &SourceSettings {
                model: setup.model,
                compiled: setup.compiled,
                document: setup.document,
                max: options.questions,
                seed: options.seed,
                kinds: &options.kinds,
            },
            options.variant_every,
        )
    });
    on_event(ProbeEvent::Planned {
        questions: questions.len(),
    });
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    let threads = options.concurrency.clamp(1, 64).min(questions.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    if tally.stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(question) = questions.get(index) else {
                        return;
                    };
                    let cancelled = setup.cancel.is_some_and(Cancel::is_cancelled);
                    let stop = match cancelled {
                        true => Some(ProbeStop::Cancelled),
                        false => tally.over_cap(options.max_requests),
                    };
                    if let Some(reason) = stop {
                        if tally.stop(&reason) {
                            on_event(ProbeEvent::Stopped {
                                reason: reason.to_string(),
                            });
                        }
                        return;
                    }
                    match ask_one(setup, options, &words, &tally, question, on_event) {
                        Ok(Some(outcome)) => {
                            let done = tally.done.fetch_add(1, Ordering::SeqCst) + 1;
                            on_event(ProbeEvent::Answered {
                                result: Box::new(outcome.result.clone()),
                                done,
                                total: questions.len(),
                            });
                            outcomes
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push((index, outcome));
                        }
                        Ok(None) => {}
                        Err(reason) => {
                            if tally.stop(&reason) {
                                on_event(ProbeEvent::Stopped {
                                    reason: reason.to_string(),
                                });
                            }
                            return;
                        }
                    }
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    outcomes.sort_by_key(|(index, _)| *index);
    let results = compare_variants(outcomes.into_iter().map(|(_, o)| o).collect());
    let mut report = ProbeReport::new(results, tally.discarded.load(Ordering::SeqCst));
    report.requests = vec![
        RequestCount {
            role: "target".into(),
            profile: setup.chatbot.profile_name().to_string(),
            sent: tally.target_sent.load(Ordering::SeqCst),
            cached: tally.target_cached.load(Ordering::SeqCst),
        },
        RequestCount {
            role: "translator".into(),
            profile: setup.translator_name.clone(),
            sent: tally.translator_sent.load(Ordering::SeqCst),
            cached: tally.translator_cached.load(Ordering::SeqCst),
        },
    ];
    report.solver_ms = tally.solver_us.load(Ordering::SeqCst) as f64 / 1000.0;
    report.stopped = tally
        .reason
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    report.verbalization_notes = tally.notes.into_inner().unwrap_or_else(|e| e.into_inner());
    report
}

/// What a probe asks, in order: the source questions, then for every
/// `variant_every`-th of them its variants (when variants are wanted; not
/// those worded exactly like a question already asked).
/// Deterministic for a model, settings and seed.
pub fn plan(
    worker: &SolverWorker,
    settings: &SourceSettings,
    variant_every: usize,
) -> Vec<ProbeQuestion> {
    let words = WordingContext::new(settings.model, settings.compiled);
    let sources = source_questions(worker, settings);
    let mut all = sources.clone();
    if settings.kinds.contains(&ProbeKind::Variant) {
        for question in sources.iter().step_by(variant_every.max(1)) {
            for variant in variants_of(worker, &words, question) {
                // A variant that is already a question of its own adds nothing.
                if !all.iter().any(|q| q.text == variant.text) {
                    all.push(variant);
                }
            }
        }
    }
    all
}

/// Asks one question (with its follow-up). `Ok(None)`: the question was
/// discarded by the round trip; `Err`: the run must stop (the target failed).
fn ask_one(
    setup: &ProbeSetup,
    options: &ProbeOptions,
    words: &WordingContext,
    tally: &Tally,
    question: &ProbeQuestion,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) -> Result<Option<Outcome>, ProbeStop> {
    let mut text = question.text.clone();
    // Source questions and paraphrases are worded by the translator; the
    // other variants keep their exact templated change.
    let worded = matches!(question.variant_of, None | Some((_, Relation::Paraphrase)));
    if let (false, true, Some(translator)) = (options.templated, worded, setup.translator) {
        let verbalized = verbalize(translator, setup.verifier, setup.worker, words, question);
        tally
            .translator_sent
            .fetch_add(verbalized.sent, Ordering::SeqCst);
        tally
            .translator_cached
            .fetch_add(verbalized.cached, Ordering::SeqCst);
        match verbalized.wording {
            Wording::Faithful(wording) => text = wording,
            Wording::Discarded { reason, .. } => {
                tally.discarded.fetch_add(1, Ordering::SeqCst);
                on_event(ProbeEvent::Discarded {
                    id: question.id.clone(),
                    reason: reason.clone(),
                });
                push_note(tally, reason);
                return Ok(None);
            }
            Wording::Fallback { reason } => push_note(tally, reason),
        }
    }
    let mut conversation = setup.chatbot.start();
    let answer = chat(setup, options, tally, &mut conversation, &text)?;
    let facts = parse(setup.compiled, &question.facts)?;
    let claim = parse(setup.compiled, &question.claim)?;
    let judged = judge(
        setup,
        tally,
        &text,
        &answer,
        &facts,
        &claim,
        &question.expected,
    );
    let mut follow_ups = Vec::new();
    if options.follow_ups
        && options.kinds.contains(&ProbeKind::FollowUp)
        && judged.verdict == Verdict::Correct
        && let Some(next) = tally.solver(|| {
            consequence(
                setup.worker,
                setup.compiled,
                &facts,
                &claim,
                &judged.commitments,
            )
        })
    {
        let asked = follow_up_question(words, &next.claim);
        let reply = chat(setup, options, tally, &mut conversation, &asked)?;
        let context = format!("{text}\n{answer}\n{asked}");
        let mut verdict = judge(
            setup,
            tally,
            &context,
            &reply,
            &next.given,
            &next.claim,
            &Expected::Yes,
        );
        if matches!(verdict.verdict, Verdict::Hallucination) {
            verdict.verdict = Verdict::Inconsistent;
            verdict.detail = format!(
                "the reply contradicts the first answer or the model: {}",
                verdict.detail
            );
        }
        follow_ups.push(FollowUpResult {
            question: asked,
            expected: format!("yes ({} = {})", next.variable, next.value),
            answer: reply,
            finding: verdict.finding,
            verdict: verdict.verdict,
            detail: verdict.detail,
        });
    }
    let sources = source_sentences(setup, question);
    Ok(Some(Outcome {
        result: ProbeResult {
            id: question.id.clone(),
            kind: question.kind,
            question: text,
            expected: question.expected.to_string(),
            answer,
            finding: judged.finding,
            verdict: judged.verdict,
            rules: question.rules.clone(),
            follow_ups,
            detail: judged.detail,
            chain: question.chain.clone(),
            sources,
        },
        stance: judged.stance,
        variant_of: question.variant_of.clone(),
    }))
}

fn push_note(tally: &Tally, note: String) {
    tally
        .notes
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(note);
}

fn parse(compiled: &CompiledModel, formula: &str) -> Result<Expr, ProbeStop> {
    compiled
        .check_formula(formula)
        .map(|(_, e)| e)
        .map_err(|source| ProbeStop::FormulaUnchecked {
            formula: formula.to_string(),
            source,
        })
}

/// Asks the chatbot, counting the request; a failure stops the run.
fn chat(
    setup: &ProbeSetup,
    options: &ProbeOptions,
    tally: &Tally,
    conversation: &mut Conversation,
    text: &str,
) -> Result<String, ProbeStop> {
    if let Some(reason) = tally.over_cap(options.max_requests) {
        return Err(reason);
    }
    let reply = setup
        .chatbot
        .ask(conversation, text)
        .map_err(|source| ProbeStop::Chatbot {
            profile: setup.chatbot.profile_name().to_string(),
            source,
        })?;
    let counter = if reply.from_cache {
        &tally.target_cached
    } else {
        &tally.target_sent
    };
    counter.fetch_add(1, Ordering::SeqCst);
    Ok(reply.text)
}

/// Verifies an answer and judges it. Never fails: what cannot be verified
/// is untranslatable, with the reason.
fn judge(
    setup: &ProbeSetup,
    tally: &Tally,
    question: &str,
    answer: &str,
    facts: &Expr,
    claim: &Expr,
    expected: &Expected,
) -> Assessment {
    if answer.trim().is_empty() {
        return Assessment::untranslatable("NO_TRANSLATIONS", "the answer is empty");
    }
    let input = AnswerInput::new(question, answer);
    let report = match setup
        .verifier
        .verify(setup.worker, &input, &mut |_| {}, &Cancel::new())
    {
        Ok(report) => report,
        Err(error) => return Assessment::untranslatable("NO_TRANSLATIONS", error.to_string()),
    };
    for translation in &report.translations {
        tally
            .translator_sent
            .fetch_add(translation.rounds as usize, Ordering::SeqCst);
        tally
            .translator_cached
            .fetch_add(usize::from(translation.from_cache), Ordering::SeqCst);
    }
    tally.solver_us.fetch_add(
        (report.timing.solver_ms * 1000.0) as usize,
        Ordering::Relaxed,
    );
    tally.solver(|| {
        assess(
            setup.worker,
            setup.compiled,
            facts,
            claim,
            expected,
            &report,
        )
    })
}

/// The document sentences of the question's rules, each once.
fn source_sentences(setup: &ProbeSetup, question: &ProbeQuestion) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for rule in &question.rules {
        if let Some(sentence) = source_sentence(rule, setup.model, setup.document)
            && !out.contains(&sentence)
        {
            out.push(sentence);
        }
    }
    out
}

/// Variants whose answers disagree with their question's answer become
/// inconsistent, whatever the model says.
fn compare_variants(outcomes: Vec<Outcome>) -> Vec<ProbeResult> {
    let stances: Vec<(String, Option<Stance>)> = outcomes
        .iter()
        .map(|o| (o.result.id.clone(), o.stance))
        .collect();
    outcomes
        .into_iter()
        .map(|mut outcome| {
            if let Some((of, relation)) = &outcome.variant_of
                && let Some((_, Some(original))) = stances.iter().find(|(id, _)| id == of)
                && let Some(stance) = outcome.stance
            {
                let wanted = match relation {
                    Relation::Negated => original.opposite(),
                    Relation::IrrelevantFact | Relation::Paraphrase => *original,
                };
                if stance != wanted {
                    outcome.result.verdict = Verdict::Inconsistent;
                    outcome.result.detail = format!(
                        "its answer disagrees with the answer to {of} ({relation:?} variant)"
                    );
                }
            }
            outcome.result
        })
        .collect()
}
