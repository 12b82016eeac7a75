//! Checking the chatbot's reply against the model, and the guard's hold on
//! it: ask, check, send the feedback back for up to `--revise` rounds until
//! the reply is VALID, and replace it under `--block`.

use super::Guard;
use super::conversation::Conversation;
use super::verdict::{is_blocked, revision_request, verdict_json};
use crate::api_error::ApiError;
use crate::endpoints::check_answer::{check, translator};
use crate::on_worker::on_worker;
use crate::state::ServiceState;
use precept_engine::answer::{AnswerInput, AnswerReport, VerifyOptions};
use precept_engine::solve::FindingKind;
use serde_json::Value;
use std::sync::Arc;

/// The verdict on one reply.
pub struct Verdict {
    pub report: AnswerReport,
    /// Revision rounds it took.
    pub revisions: u32,
    /// Whether `--block` replaced the reply.
    pub blocked: bool,
    /// The hash of the model it was checked against.
    pub model_hash: String,
}

impl Verdict {
    /// The `precept` field.
    pub fn json(&self) -> Value {
        verdict_json(&self.report, self.revisions, self.blocked)
    }

    pub fn finding(&self) -> &'static str {
        self.report.finding.name()
    }
}

/// Checks `text` as the answer to `question` on a solver worker.
pub async fn check_reply(
    state: &ServiceState,
    guard: &Guard,
    question: &str,
    text: &str,
) -> Result<Verdict, ApiError> {
    let client = translator(state)?;
    let (input, k) = (AnswerInput::new(question, text), guard.options.k);
    let (report, model_hash) = on_worker(state, move |model, worker, cancel| {
        check(
            model,
            worker,
            cancel,
            Arc::clone(&client),
            &input,
            k,
            VerifyOptions::default(),
        )
    })
    .await?;
    Ok(Verdict {
        report: report?,
        revisions: 0,
        blocked: false,
        model_hash,
    })
}

/// The chatbot's whole reply, checked, revised and blocked as the guard's
/// options say; the reply carries its verdict in `precept`.
pub async fn held_reply(
    state: &ServiceState,
    guard: &Guard,
    conversation: &mut Conversation,
) -> Result<(Value, Verdict), ApiError> {
    let question = conversation.question();
    let mut revisions = 0;
    loop {
        let mut reply = guard.chatbot.complete(&conversation.request).await?;
        let text = conversation.reply_text(&reply).ok_or_else(|| {
            ApiError::bad_gateway("the chatbot's reply has no text where its API puts it")
        })?;
        let mut verdict = check_reply(state, guard, &question, &text).await?;
        verdict.revisions = revisions;
        if verdict.report.finding != FindingKind::Valid && revisions < guard.options.revise {
            revisions += 1;
            tracing::info!(
                round = revisions,
                finding = verdict.finding(),
                "asking the chatbot to revise its reply"
            );
            conversation.append_revision(&text, &revision_request(&verdict.report));
            continue;
        }
        verdict.blocked = guard.options.block && is_blocked(verdict.report.finding);
        if verdict.blocked {
            conversation.set_reply_text(&mut reply, &guard.options.block_message);
        }
        if let Some(object) = reply.as_object_mut() {
            object.insert("precept".into(), verdict.json());
        }
        return Ok((reply, verdict));
    }
}
