//! The translator's reply: its JSON schema, and the checks that decide what
//! of it counts. Only pairs whose premise and claim parse and type-check
//! against the model enter; everything else is an error with its position,
//! for the one repair round, and never reaches the solver.

use super::vocabulary::TranslationVocabulary;
use crate::smt::{Expr, SmtError, Span};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;

/// Longest premise or claim read from a reply, in characters.
pub const MAX_FORMULA_CHARS: usize = 4_000;
/// Deepest nesting of brackets read from a reply (the reader, checker and
/// solver encoding recurse, so a hostile reply must not nest without end).
pub const MAX_FORMULA_DEPTH: usize = 64;

/// The schema name sent with the request.
pub const SCHEMA_NAME: &str = "premise_claim_pairs";

/// The reply schema: pairs and untranslated statements, nothing else.
pub fn reply_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["pairs", "untranslated"],
        "properties": {
            "pairs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["premise", "claim", "source"],
                    "properties": {
                        "premise": {"type": "string"},
                        "claim": {"type": "string"},
                        "source": {"type": "string"}
                    }
                }
            },
            "untranslated": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["text", "reason"],
                    "properties": {
                        "text": {"type": "string"},
                        "reason": {"type": "string"}
                    }
                }
            }
        }
    })
}

/// A pair as the LLM wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenPair {
    pub premise: String,
    pub claim: String,
    /// The words of the text the pair comes from.
    pub source: String,
}

/// A statement the LLM could not express in the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UntranslatedQuote {
    pub text: String,
    pub reason: String,
}

/// The reply as sent (already checked against the schema by the client).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenReply {
    pub pairs: Vec<WrittenPair>,
    pub untranslated: Vec<UntranslatedQuote>,
}

/// A pair that parsed and type-checked.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedPair {
    /// As written, for display.
    pub premise: Expr,
    pub claim: Expr,
    /// Elaborated (explicit `to_real`), for the solver.
    pub premise_formula: Expr,
    pub claim_formula: Expr,
    pub source: String,
}

impl CheckedPair {
    /// The pair as canonical SMT-LIB text (premise, claim).
    pub fn texts(&self) -> (String, String) {
        (self.premise.to_string(), self.claim.to_string())
    }
}

/// Which formula of a pair an error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairField {
    Premise,
    Claim,
}

/// A premise or claim that does not parse or type-check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairError {
    /// The pair's index in the reply.
    pub pair: usize,
    pub field: PairField,
    pub error: SmtError,
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = match self.field {
            PairField::Premise => "premise",
            PairField::Claim => "claim",
        };
        write!(f, "pairs[{}].{field}: {}", self.pair, self.error)
    }
}

/// What a reply amounts to.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedReply {
    pub written: WrittenReply,
    /// The pairs that check, in reply order.
    pub pairs: Vec<CheckedPair>,
    /// One error for each pair that does not check.
    pub errors: Vec<PairError>,
}

/// Refuses a formula too long or too deeply nested to read safely.
fn within_limits(text: &str) -> Result<(), SmtError> {
    let whole = Span::new(0, text.len());
    let chars = text.chars().count();
    if chars > MAX_FORMULA_CHARS {
        return Err(SmtError::new(
            text,
            whole,
            format!("a formula of {chars} characters"),
            format!("at most {MAX_FORMULA_CHARS} characters"),
        ));
    }
    let (mut depth, mut deepest, mut quoted) = (0usize, 0usize, false);
    for c in text.chars() {
        match c {
            '|' => quoted = !quoted,
            '(' if !quoted => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_FORMULA_DEPTH {
        return Err(SmtError::new(
            text,
            whole,
            format!("brackets nested {deepest} levels deep"),
            format!("at most {MAX_FORMULA_DEPTH} levels of nesting"),
        ));
    }
    Ok(())
}

/// A reply whose JSON does not have the schema's shape.
#[derive(Debug, thiserror::Error)]
#[error("the reply does not have the expected shape: {0}")]
pub struct WrongShape(#[from] serde_json::Error);

/// Reads a reply and checks every pair against the vocabulary. Fails only
/// when the JSON does not have the schema's shape.
pub fn check_reply(
    json: &Value,
    vocabulary: &TranslationVocabulary,
) -> Result<CheckedReply, WrongShape> {
    let written: WrittenReply = serde_json::from_value(json.clone())?;
    let mut pairs = Vec::new();
    let mut errors = Vec::new();
    for (index, pair) in written.pairs.iter().enumerate() {
        let premise = within_limits(&pair.premise)
            .and_then(|()| vocabulary.check(&pair.premise))
            .map_err(|error| PairError {
                pair: index,
                field: PairField::Premise,
                error,
            });
        let claim = within_limits(&pair.claim)
            .and_then(|()| vocabulary.check(&pair.claim))
            .map_err(|error| PairError {
                pair: index,
                field: PairField::Claim,
                error,
            });
        match (premise, claim) {
            (Ok((premise, premise_formula)), Ok((claim, claim_formula))) => {
                pairs.push(CheckedPair {
                    premise,
                    claim,
                    premise_formula,
                    claim_formula,
                    source: pair.source.clone(),
                })
            }
            (premise, claim) => {
                errors.extend(premise.err());
                errors.extend(claim.err());
            }
        }
    }
    Ok(CheckedReply {
        written,
        pairs,
        errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::validate::validate_reply;
    use crate::model::{PolicyModel, compile};

    fn vocabulary() -> TranslationVocabulary {
        let model: PolicyModel = serde_json::from_str(include_str!(
            "../../../../samples/park-admission/model.json"
        ))
        .expect("park");
        TranslationVocabulary::new(&model, &compile(&model))
    }

    #[test]
    fn good_pairs_enter_and_bad_ones_are_errors_with_positions() {
        let reply = json!({
            "pairs": [
                {"premise": "(= ageClass SENIOR)", "claim": "(not isEntryAllowed)", "source": "No"},
                {"premise": "true", "claim": "(and isEntryAllowed canPark)", "source": "park"},
                {"premise": "(+ 1 2)", "claim": "true", "source": "x"}
            ],
            "untranslated": []
        });
        validate_reply(&reply, &reply_schema()).expect("fits the schema");
        let checked = check_reply(&reply, &vocabulary()).expect("shape");
        assert_eq!(checked.pairs.len(), 1);
        assert_eq!(checked.pairs[0].texts().1, "(not isEntryAllowed)");
        let errors: Vec<String> = checked.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            vec![
                "pairs[1].claim: 1:21: expected a declared variable or enum value, found the unknown name 'canPark'",
                "pairs[2].premise: 1:1: expected a Bool formula, found a term of sort Int",
            ]
        );
    }

    #[test]
    fn formulas_too_long_or_too_deep_are_refused_before_reading() {
        let deep = format!("{}true{}", "(not ".repeat(500), ")".repeat(500));
        let long = format!("(and {})", "isLowSeason ".repeat(500));
        let reply = json!({"pairs": [
            {"premise": deep, "claim": "true", "source": "x"},
            {"premise": "true", "claim": long, "source": "x"}
        ], "untranslated": []});
        let checked = check_reply(&reply, &vocabulary()).expect("shape");
        assert!(checked.pairs.is_empty());
        let errors: Vec<String> = checked.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            vec![
                "pairs[0].premise: 1:1: expected at most 64 levels of nesting, found brackets nested 500 levels deep",
                "pairs[1].claim: 1:1: expected at most 4000 characters, found a formula of 6006 characters",
            ]
        );
    }

    #[test]
    fn extra_fields_are_refused_by_schema_and_shape() {
        let reply = json!({"pairs": [], "untranslated": [], "finding": "VALID"});
        assert!(validate_reply(&reply, &reply_schema()).is_err());
        assert!(check_reply(&reply, &vocabulary()).is_err());
    }
}
