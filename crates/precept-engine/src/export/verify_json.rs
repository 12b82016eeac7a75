//! The JSON of one verify question (`precept verify --json` and the
//! service's `/v1/verify`): the finding's own fields, its verdict sentence,
//! and with an explanation the derivation chain. Built once, here, so the
//! command line and the service answer alike.

use crate::model::finding::Finding;
use crate::model::verdict::verdict;
use crate::smt::english::Glossary;
use serde::Serialize;

#[derive(Serialize)]
struct VerifyJson<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    verdict: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain: Option<serde_json::Value>,
}

/// The finding as JSON with its verdict, and `chain` when one was asked for.
pub fn verify_json(
    finding: &Finding,
    glossary: &Glossary,
    chain: Option<serde_json::Value>,
) -> serde_json::Value {
    let json = VerifyJson {
        finding,
        verdict: verdict(finding, glossary),
        chain,
    };
    serde_json::to_value(&json).unwrap_or(serde_json::Value::Null)
}
