//! Natural-language tests in the semantic diff, decided again on each side
//! without an LLM. A test's premise/claim pairs are the translations
//! `precept test` stored in the project's `.cache/translations/` (a version
//! `DIR@N` shares the project's cache), keyed by the prompt, the
//! translator (the LLM profile and the sample number), the question and the
//! answer. When every one of the k translations a side's settings ask for
//! is stored and not affected by that side's vocabulary, the test is
//! decided there by the solver exactly as `precept test` decides it (the
//! same verifier, judging and threshold). Otherwise the diff says why it
//! could not compare the test and how to make it comparable. The LLM is
//! never asked: the translators' client only replays, from no cache at all.

use super::side::Side;
use crate::answer::translate::{StoredMiss, stored_translation};
use crate::answer::{
    AnswerInput, AnswerVerifier, TranslationCache, VerifyOptions, run_answer_tests, samples_of,
};
use crate::llm::Cancel;
use crate::llm::config::{process_env, user_config_dir};
use crate::llm::{ClientOptions, LlmClient, LlmError, Mode, Profile, resolve_profile};
use crate::model::AnswerTest;
use crate::solve::{FindingKind, SolverWorker};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A natural-language test decided on both sides with different findings
/// (the test as B has it, or as A has it when B has no such test).
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerTestFlip {
    pub test: AnswerTest,
    pub a: FindingKind,
    pub b: FindingKind,
}

/// The natural-language tests compared: those that flip, and notes naming
/// those that could not be decided on a side, with why.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnswerTestComparison {
    pub flipped: Vec<AnswerTestFlip>,
    pub notes: Vec<String>,
}

/// A test on one side: its finding, or why it could not be decided.
#[derive(Debug, Clone, PartialEq)]
enum OnSide {
    Decided(FindingKind),
    Undecided(String),
}

/// The profile whose stored translations are looked up: the one
/// `precept test` would use (`wanted`, else `llm.toml`'s default, the
/// environment, or a local Ollama, which is assumed rather than probed:
/// only its name is needed).
pub fn translator_profile(wanted: Option<&str>) -> Result<Profile, LlmError> {
    let config_dir = user_config_dir().unwrap_or_else(|| PathBuf::from("."));
    resolve_profile(&config_dir, wanted, &process_env, &|_| true).map(|resolved| resolved.profile)
}

/// Compares the natural-language tests of `a` and `b` (a test of one side
/// only is decided on both, like the logic tests), with the stored
/// translations of the LLM profile `profile` (None: the default one).
pub fn compare_answer_tests(
    a: &Side,
    b: &Side,
    profile: Option<&str>,
    timeout_ms: u64,
) -> AnswerTestComparison {
    let tests = paired(a, b);
    if tests.is_empty() {
        return AnswerTestComparison::default();
    }
    let client = match translator_profile(profile).and_then(replay_only) {
        Ok(client) => client,
        Err(reason) => {
            let ids: Vec<&str> = tests.iter().map(|(_, t)| t.id.as_str()).collect();
            return AnswerTestComparison {
                flipped: Vec::new(),
                notes: vec![format!(
                    "natural-language test(s) {} not compared: no LLM profile to find their \
                     stored translations by ({reason})",
                    ids.join(", ")
                )],
            };
        }
    };
    let on_a = decide(a, "A", &tests_of(&tests, true), &client, timeout_ms);
    let on_b = decide(b, "B", &tests_of(&tests, false), &client, timeout_ms);
    let mut flipped = Vec::new();
    // Reason → the tests it holds for, in test order.
    let mut undecided: BTreeMap<String, (usize, Vec<String>)> = BTreeMap::new();
    for (index, ((_, test), (x, y))) in tests.iter().zip(on_a.into_iter().zip(on_b)).enumerate() {
        match (x, y) {
            (OnSide::Decided(x), OnSide::Decided(y)) => {
                if x != y {
                    flipped.push(AnswerTestFlip {
                        test: test.clone(),
                        a: x,
                        b: y,
                    });
                }
            }
            (x, y) => {
                let reasons: Vec<String> = [x, y]
                    .into_iter()
                    .filter_map(|side| match side {
                        OnSide::Undecided(reason) => Some(reason),
                        OnSide::Decided(_) => None,
                    })
                    .collect();
                let entry = undecided
                    .entry(reasons.join("; "))
                    .or_insert((index, Vec::new()));
                entry.1.push(test.id.clone());
            }
        }
    }
    let mut notes: Vec<(usize, String)> = undecided
        .into_iter()
        .map(|(reason, (first, ids))| {
            let what = if ids.len() == 1 {
                "natural-language test"
            } else {
                "natural-language tests"
            };
            (
                first,
                format!("{what} {} not compared: {reason}", ids.join(", ")),
            )
        })
        .collect();
    notes.sort();
    AnswerTestComparison {
        flipped,
        notes: notes.into_iter().map(|(_, note)| note).collect(),
    }
}

/// Each test as A and as B have it: B's tests in order (A's own copy when
/// A has one), then A's tests that B lacks.
fn paired(a: &Side, b: &Side) -> Vec<(AnswerTest, AnswerTest)> {
    let ours = |side: &Side, id: &str| {
        side.project
            .tests
            .nl_tests
            .iter()
            .find(|t| t.id == id)
            .cloned()
    };
    let mut tests: Vec<(AnswerTest, AnswerTest)> = b
        .project
        .tests
        .nl_tests
        .iter()
        .map(|t| (ours(a, &t.id).unwrap_or_else(|| t.clone()), t.clone()))
        .collect();
    for test in &a.project.tests.nl_tests {
        if ours(b, &test.id).is_none() {
            tests.push((test.clone(), test.clone()));
        }
    }
    tests
}

fn tests_of(tests: &[(AnswerTest, AnswerTest)], a: bool) -> Vec<AnswerTest> {
    tests
        .iter()
        .map(|(x, y)| if a { x.clone() } else { y.clone() })
        .collect()
}

/// A client for `profile` that can only replay, and has nothing to replay
/// from: a translation that is not stored fails at once, without a request.
fn replay_only(profile: Profile) -> Result<Arc<LlmClient>, LlmError> {
    let options = ClientOptions {
        mode: Mode::Replay,
        cache_dir: None,
        ..ClientOptions::default()
    };
    LlmClient::new(profile, options).map(Arc::new)
}

/// Decides `tests` on `side` (named `letter` in the notes) from their
/// stored translations.
fn decide(
    side: &Side,
    letter: &str,
    tests: &[AnswerTest],
    client: &Arc<LlmClient>,
    timeout_ms: u64,
) -> Vec<OnSide> {
    let settings = &side.project.settings;
    let verifier = AnswerVerifier::new(
        &side.project.model,
        &side.compiled,
        samples_of(client.clone(), settings.answer_translations),
        VerifyOptions {
            threshold: settings.answer_threshold,
            ..VerifyOptions::default()
        },
    );
    let cache = TranslationCache::in_project_cache(&side.cache_dir);
    let translators = samples_of(client.clone(), settings.answer_translations);
    let run_hint = format!("run `precept test {}`", side.label);
    let stored = |test: &AnswerTest| -> Result<(), StoredMiss> {
        let input = AnswerInput::new(&test.question, &test.answer);
        for (index, translator) in translators.iter().enumerate() {
            stored_translation(verifier.vocabulary(), &input, translator, index + 1, &cache)?;
        }
        Ok(())
    };
    let checked: Vec<Result<(), StoredMiss>> = tests.iter().map(stored).collect();
    let undecided = |miss: &StoredMiss, verifier: &AnswerVerifier| {
        OnSide::Undecided(miss_reason(miss, side, letter, &run_hint, verifier))
    };
    if checked.iter().all(Result::is_err) {
        return checked
            .iter()
            .filter_map(|r| r.as_ref().err())
            .map(|miss| undecided(miss, &verifier))
            .collect();
    }
    let worker = SolverWorker::spawn(Duration::from_millis(timeout_ms));
    if let Err(error) = worker.load(side.compiled.clone()) {
        let reason = format!("the solver could not load {letter}: {error}");
        return tests
            .iter()
            .map(|_| OnSide::Undecided(reason.clone()))
            .collect();
    }
    let verifier = verifier.with_cache(cache);
    tests
        .iter()
        .zip(checked)
        .map(|(test, checked)| {
            if let Err(miss) = checked {
                return undecided(&miss, &verifier);
            }
            let outcome = run_answer_tests(
                &verifier,
                &worker,
                std::slice::from_ref(test),
                &mut |_, _| {},
                &Cancel::new(),
            )
            .pop();
            match outcome {
                Some(outcome) => match outcome.actual {
                    Some(kind) => OnSide::Decided(kind),
                    None => OnSide::Undecided(format!(
                        "it could not be decided on {letter}: {}",
                        outcome.error.unwrap_or_default()
                    )),
                },
                None => OnSide::Undecided(format!("it could not be decided on {letter}")),
            }
        })
        .collect()
}

/// Why a stored translation cannot serve on `side`, in the words of the
/// diff's note.
fn miss_reason(
    miss: &StoredMiss,
    side: &Side,
    letter: &str,
    run_hint: &str,
    verifier: &AnswerVerifier,
) -> String {
    match miss {
        StoredMiss::Missing => format!("no stored translation on {letter}: {run_hint}"),
        StoredMiss::NoLongerChecks => {
            format!("its stored translation no longer type-checks on {letter}: {run_hint}")
        }
        StoredMiss::Affected(cached) => {
            let vocabulary = verifier.vocabulary();
            match cached.changed_symbols(vocabulary).first() {
                Some(name) => {
                    let is_value = side
                        .project
                        .model
                        .types
                        .iter()
                        .any(|t| t.values.iter().any(|v| v.value == *name));
                    let kind = if is_value { "value" } else { "variable" };
                    let change = if vocabulary.symbol_fingerprint(name).is_some() {
                        "changed"
                    } else {
                        "does not declare"
                    };
                    format!(
                        "its translation uses {kind} {name}, which {letter} {change}: {run_hint}"
                    )
                }
                None => format!(
                    "its translation left part of the text out and {letter}'s vocabulary \
                     differs from the one it was made with: {run_hint}"
                ),
            }
        }
    }
}
