//! The answer verifier against the scripted LLM server, through the real
//! client over HTTP: redundant translation and confidence, untranslated and
//! over-long answers, the repair round, hostile replies, the paper's park
//! (§3) and airline (§4.2) examples, natural-language tests with their
//! translation cache (and in `precept diff`), and `precept check-answer`
//! end to end.

use crate::support;

use precept::answer::confidence::DissentReason;
use precept::answer::locate::TextPart;
use precept::answer::{
    AnswerInput, AnswerReport, AnswerVerifier, Budget, Fault, TranslationCache, VerifyEvent,
    VerifyOptions, run_answer_tests, samples_of,
};
use precept::llm::{Cancel, LlmClient};
use precept::model::{AnswerTest, CompiledModel, Project};
use precept::solve::{FindingKind, SolverWorker, Value};
use serde_json::{Value as Json, json};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use support::llm_server::{Action, Recorded, Server, openai_json, scripted_client};
use support::{copy_sample, stderr, stdout};

const PARK_QUESTION: &str = "I am a senior and want to visit the park in the low season, and I \
                             have a total fund of $35.40. Can I visit the park?";
const PARK_ANSWER: &str = "No, $35.40 is not enough.";
const PARK_PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const PARK_CLAIM: &str = "(not isEntryAllowed)";

const AIRLINE_QUESTION: &str = "My flight operated but I did not travel because I was denied boarding. Am I eligible for a refund?";
const AIRLINE_ANSWER: &str = "Yes, if you were denied boarding you are eligible for a refund.";
const AIRLINE_PREMISE: &str =
    "(and didFlightOperate (not didPassengerTravel) (= disruptionReason DENIED_BOARDING))";
const UNVETTED_R7: &str =
    "(=> (and didFlightOperate (not didPassengerTravel)) (not isRefundEligible))";

const REPAIR_MARK: &str = "Your previous translation could not be used";

fn client(server: &Server, cache: &Path) -> Arc<LlmClient> {
    Arc::new(scripted_client(server, Some(&cache.join("llm"))))
}

/// A translator reply with `pairs` (premise, claim) and untranslated quotes.
fn translation(pairs: &[(&str, &str)], untranslated: &[&str]) -> Json {
    json!({
        "pairs": pairs.iter().map(|(premise, claim)| json!({
            "premise": premise, "claim": claim, "source": "the answer"
        })).collect::<Vec<_>>(),
        "untranslated": untranslated.iter().map(|text| json!({
            "text": text, "reason": "the model has no variable for it"
        })).collect::<Vec<_>>(),
    })
}

/// The sample number the prompt announces ("Translation 2 of 3").
fn sample(request: &Recorded) -> usize {
    let prompt = request.user_prompt();
    let at = prompt
        .find("Translation ")
        .expect("the prompt names the sample");
    prompt[at + "Translation ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a sample number")
}

fn is_repair(request: &Recorded) -> bool {
    request.user_prompt().contains(REPAIR_MARK)
}

struct Bench {
    project: Project,
    compiled: CompiledModel,
    worker: SolverWorker,
}

fn bench(dir: &Path) -> Bench {
    let project = Project::load(dir).expect("project loads");
    let compiled = project.compile_strict().expect("model compiles");
    let worker = SolverWorker::spawn(Duration::from_secs(10));
    worker.load(compiled.clone()).expect("model loads");
    Bench {
        project,
        compiled,
        worker,
    }
}

impl Bench {
    fn verifier(&self, server: &Server, k: usize, options: VerifyOptions) -> AnswerVerifier {
        let cache = self.project.cache_dir();
        AnswerVerifier::new(
            &self.project.model,
            &self.compiled,
            samples_of(client(server, &cache), k),
            options,
        )
        .with_cache(TranslationCache::in_project_cache(&cache))
    }

    fn check(&self, server: &Server, question: &str, answer: &str) -> AnswerReport {
        self.check_with(server, question, answer, VerifyOptions::default())
            .0
    }

    fn check_with(
        &self,
        server: &Server,
        question: &str,
        answer: &str,
        options: VerifyOptions,
    ) -> (AnswerReport, Vec<VerifyEvent>) {
        let mut events = Vec::new();
        let report = self
            .verifier(server, 3, options)
            .verify(
                &self.worker,
                &AnswerInput::new(question, answer),
                &mut |event| events.push(event),
                &Cancel::new(),
            )
            .expect("verification runs");
        (report, events)
    }
}

fn scenario_value(report: &AnswerReport, pair: usize, claims_true: bool, name: &str) -> String {
    let evidence = &report.pairs[pair].evidence;
    let scenario = if claims_true {
        evidence.claims_true_scenario.as_ref()
    } else {
        evidence.claims_false_scenario.as_ref()
    };
    scenario
        .and_then(|s| s.get(name))
        .map(ToString::to_string)
        .unwrap_or_else(|| panic!("no {name} in the scenario: {evidence:?}"))
}

fn nl_test(id: &str, answer: &str, expected: FindingKind) -> AnswerTest {
    AnswerTest {
        id: id.into(),
        name: format!("{id} park question"),
        question: PARK_QUESTION.into(),
        answer: answer.into(),
        expected,
        note: String::new(),
        confidence_threshold: None,
    }
}

mod airline_and_nl_tests;
mod commands;
mod confidence;
mod diff_answer_tests;
mod translation;
