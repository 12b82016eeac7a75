//! The park document formalized from the scripted replies of
//! tests/data/formalize (span by span, composed with the lexical embedder),
//! for tests that need a formalization record without a server.
#![allow(dead_code)]

use precept::compose::embed::LexicalEmbedder;
use precept::compose::record::{FormalizationRecord, RunInfo};
use precept::compose::unify::compose;
use precept::formalize::span_job::SpanOutcome;
use precept::formalize::span_task::plan_spans;
use precept::formalize::unit::unit_from_json;
use precept::model::PolicyModel;
use serde_json::Value;

/// The composed model and its record; spans without a scripted reply fail.
pub fn park_formalization(document: &str) -> (PolicyModel, FormalizationRecord) {
    let tasks = plan_spans(document, 3_000);
    let replies: Value = serde_json::from_str(
        &std::fs::read_to_string(super::repo().join("tests/data/formalize/park-replies.json"))
            .unwrap(),
    )
    .unwrap();
    let outcomes: Vec<SpanOutcome> = tasks
        .iter()
        .map(|t| match replies.get(&t.id).and_then(|r| r.get("reply")) {
            Some(unit) => SpanOutcome::Formalized {
                unit: unit_from_json(unit).unwrap(),
                rounds: 1,
            },
            None => SpanOutcome::Error {
                message: "no reply".into(),
                rounds: 1,
            },
        })
        .collect();
    let composition = compose(document, &tasks, &outcomes, &LexicalEmbedder::new(), 0.65).unwrap();
    let model = composition.model.clone();
    let info = RunInfo {
        document: "policy.md",
        llm_profile: "test",
        llm_model: "scripted",
        embedder: "lexical",
        threshold: 0.65,
    };
    (
        model,
        FormalizationRecord::new(info, tasks, outcomes, composition),
    )
}
