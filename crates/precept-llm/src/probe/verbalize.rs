//! The translator LLM words a proved question the way a customer would ask
//! it; the wording is then translated back with the answer verifier's
//! translation, and kept only when it gives back the question's facts and
//! claim (the solver decides equivalence, without the rules). A failing or
//! garbage-speaking translator never stops a probe: the question falls
//! back to its templated English, which is faithful by construction.

use super::Expected;
use super::question::{ProbeQuestion, Relation};
use super::wording::{WordingContext, templated_question};
use crate::answer::{AnswerInput, AnswerReport, AnswerVerifier};
use crate::llm::Cancel;
use crate::llm::prompts::{VERBALIZE_QUESTION, render};
use crate::llm::{LlmClient, LlmRequest, complete_blocking};
use crate::smt::Expr;
use crate::smt::build::{and_of, not_of};
use crate::solve::{FormulaQuery, Satisfiability, SolverWorker};
use serde_json::json;

/// The longest wording accepted, in characters.
const MAX_QUESTION_CHARS: usize = 2_000;

/// What became of a question's LLM wording.
#[derive(Debug, Clone, PartialEq)]
pub enum Wording {
    /// The wording passed the round trip: ask it.
    Faithful(String),
    /// The round trip did not give back the facts and claim: drop the
    /// question (it is counted as discarded).
    Discarded { wording: String, reason: String },
    /// The translator failed: ask the templated English instead.
    Fallback { reason: String },
}

/// The outcome with the translator requests it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Verbalization {
    pub wording: Wording,
    pub sent: usize,
    pub cached: usize,
}

/// What the translator is asked for besides a faithful wording.
const PARAPHRASE_STYLE: &str = "Word it differently from the most obvious phrasing: change \
     the order and the words, keep the meaning exactly.";

/// The request asking the translator to word `question` (in other words
/// than usual for a paraphrase variant).
pub fn wording_request(
    words: &WordingContext,
    question: &ProbeQuestion,
    client: &LlmClient,
) -> LlmRequest {
    let facts = format!("{}.", words.phrase(&question.facts));
    let asked = templated_question(words, "true", &question.claim, &question.expected);
    let style = match question.variant_of {
        Some((_, Relation::Paraphrase)) => PARAPHRASE_STYLE,
        _ => "",
    };
    let quote = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    LlmRequest {
        system: VERBALIZE_QUESTION.system().to_string(),
        prompt: render(
            VERBALIZE_QUESTION.user(),
            &[
                ("facts", &quote(&facts)),
                ("question", &quote(&asked)),
                ("style", style),
            ],
        ),
        schema_name: "customer_question".into(),
        schema: json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["question"],
            "properties": {"question": {"type": "string"}}
        }),
        temperature: client.profile().temperature,
        max_tokens: 400,
    }
}

/// The answer the round trip translates with the wording: one that says
/// the claim holds, so the translation's claim must be the question's.
pub fn round_trip_answer(expected: &Expected, words: &WordingContext) -> String {
    match expected {
        Expected::Value { value, .. } => match words.compiled.check_formula(value) {
            Ok((written, _)) => format!("It is {}.", words.compiled.glossary.phrase(&written)),
            Err(_) => format!("It is {value}."),
        },
        _ => "Yes.".to_string(),
    }
}

/// Words `question` with the translator and checks the round trip.
pub fn verbalize(
    client: &LlmClient,
    verifier: &AnswerVerifier,
    worker: &SolverWorker,
    words: &WordingContext,
    question: &ProbeQuestion,
) -> Verbalization {
    let mut outcome = Verbalization {
        wording: Wording::Fallback {
            reason: String::new(),
        },
        sent: 0,
        cached: 0,
    };
    let reply = match complete_blocking(client, &wording_request(words, question, client)) {
        Ok(reply) => reply,
        Err(error) => {
            outcome.sent = 1;
            outcome.wording = Wording::Fallback {
                reason: format!("the translator could not word {}: {error}", question.id),
            };
            return outcome;
        }
    };
    if reply.from_cache {
        outcome.cached += 1;
    } else {
        outcome.sent += 1;
    }
    let text = reply.json["question"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_string();
    if text.is_empty() || text.chars().count() > MAX_QUESTION_CHARS {
        outcome.wording = Wording::Fallback {
            reason: format!(
                "the translator's wording of {} is empty or too long",
                question.id
            ),
        };
        return outcome;
    }
    let input = AnswerInput::new(text.clone(), round_trip_answer(&question.expected, words));
    let report = match verifier.verify(worker, &input, &mut |_| {}, &Cancel::new()) {
        Ok(report) => report,
        Err(error) => {
            outcome.wording = Wording::Fallback {
                reason: format!("the round trip of {} failed: {error}", question.id),
            };
            return outcome;
        }
    };
    for translation in &report.translations {
        outcome.sent += translation.rounds as usize;
        outcome.cached += usize::from(translation.from_cache);
    }
    outcome.wording = if gives_back(worker, words, question, &report) {
        Wording::Faithful(text)
    } else {
        Wording::Discarded {
            reason: format!(
                "{}: the wording translates back to {} rather than its facts and claim",
                question.id,
                describe_pairs(&report)
            ),
            wording: text,
        }
    };
    outcome
}

/// Whether some translated pair is the question's facts and claim.
fn gives_back(
    worker: &SolverWorker,
    words: &WordingContext,
    question: &ProbeQuestion,
    report: &AnswerReport,
) -> bool {
    let compiled = words.compiled;
    let (Ok((_, facts)), Ok((_, claim))) = (
        compiled.check_formula(&question.facts),
        compiled.check_formula(&question.claim),
    ) else {
        return false;
    };
    report.pairs.iter().any(|pair| {
        let (Ok((_, premise)), Ok((_, said))) = (
            compiled.check_formula(&pair.premise),
            compiled.check_formula(&pair.claim),
        ) else {
            return false;
        };
        equivalent(worker, &facts, &premise) && equivalent(worker, &claim, &said)
    })
}

/// Whether `a` and `b` hold in exactly the same scenarios, the rules aside.
pub fn equivalent(worker: &SolverWorker, a: &Expr, b: &Expr) -> bool {
    let results = worker.check_formulas(vec![
        FormulaQuery::new(and_of([a.clone(), not_of(b)])),
        FormulaQuery::new(and_of([b.clone(), not_of(a)])),
    ]);
    results
        .iter()
        .all(|r| matches!(r, Satisfiability::Unsatisfiable))
}

fn describe_pairs(report: &AnswerReport) -> String {
    if report.pairs.is_empty() {
        return format!("nothing ({})", report.finding);
    }
    report
        .pairs
        .iter()
        .map(|p| format!("{} ⇒ {}", p.premise, p.claim))
        .collect::<Vec<_>>()
        .join("; ")
}
