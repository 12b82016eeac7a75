//! Reading an embeddings reply: `{"data": [{"index": i, "embedding": [...]}]}`,
//! every vector checked before it is used or cached.

use serde_json::Value;

/// Why an embeddings reply cannot be used (a place and what is wrong).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnusableReply(pub String);

impl From<String> for UnusableReply {
    fn from(reason: String) -> UnusableReply {
        UnusableReply(reason)
    }
}

impl From<&str> for UnusableReply {
    fn from(reason: &str) -> UnusableReply {
        UnusableReply(reason.to_string())
    }
}

/// The vectors of an embeddings reply for a batch of `expected` texts,
/// ordered by `index`. Every item must carry an index (or none may, and
/// then the order of `data` is used), each index once in `0..expected`,
/// every vector non-empty, of one length, and made of finite numbers.
pub fn parse_embeddings(raw: &str, expected: usize) -> Result<Vec<Vec<f32>>, UnusableReply> {
    let reply: Value = serde_json::from_str(raw)
        .map_err(|e| UnusableReply(format!("the reply is not JSON: {e}")))?;
    if let Some(error) = reply.get("error").filter(|e| !e.is_null()) {
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| error.to_string());
        return Err(UnusableReply::from(format!(
            "the server reported an error: {message}"
        )));
    }
    let data = reply
        .get("data")
        .and_then(Value::as_array)
        .ok_or("the reply has no \"data\" array")?;
    if data.len() != expected {
        return Err(UnusableReply::from(format!(
            "expected {expected} embeddings (one per input), got {}",
            data.len()
        )));
    }
    let with_index = data
        .iter()
        .filter(|item| item.get("index").is_some())
        .count();
    if with_index != 0 && with_index != data.len() {
        return Err(UnusableReply::from(format!(
            "{} of {} items of \"data\" have no \"index\"",
            data.len() - with_index,
            data.len()
        )));
    }
    let mut slots: Vec<Option<Vec<f32>>> = vec![None; expected];
    let mut dimension: Option<usize> = None;
    for (position, item) in data.iter().enumerate() {
        let index = if with_index == 0 {
            position
        } else {
            let value = &item["index"];
            let index = value
                .as_u64()
                .and_then(|i| usize::try_from(i).ok())
                .ok_or_else(|| {
                    format!("data[{position}].index is {value}, not a non-negative integer")
                })?;
            if index >= expected {
                return Err(UnusableReply::from(format!(
                    "data[{position}].index is {index}, outside 0..{expected}"
                )));
            }
            index
        };
        if slots[index].is_some() {
            return Err(UnusableReply::from(format!(
                "index {index} occurs twice in \"data\""
            )));
        }
        let vector = parse_vector(item.get("embedding"))
            .map_err(|reason| UnusableReply(format!("data[{position}].embedding {reason}")))?;
        match dimension {
            Some(d) if d != vector.len() => {
                return Err(UnusableReply::from(format!(
                    "data[{position}].embedding has {} dimensions, but others have {d}",
                    vector.len()
                )));
            }
            _ => dimension = Some(vector.len()),
        }
        slots[index] = Some(vector);
    }
    // Every slot is filled: `expected` distinct indices in 0..expected.
    slots
        .into_iter()
        .enumerate()
        .map(|(i, slot)| slot.ok_or_else(|| UnusableReply(format!("no embedding has index {i}"))))
        .collect()
}

fn parse_vector(value: Option<&Value>) -> Result<Vec<f32>, UnusableReply> {
    let items = match value {
        None => return Err("is missing".into()),
        Some(Value::Array(items)) => items,
        Some(Value::String(_)) => {
            return Err(
                "is a string (base64?); expected an array of numbers (encoding_format \"float\")"
                    .into(),
            );
        }
        Some(other) => {
            return Err(UnusableReply::from(format!(
                "is {other}, not an array of numbers"
            )));
        }
    };
    if items.is_empty() {
        return Err("is empty".into());
    }
    items
        .iter()
        .enumerate()
        .map(|(k, x)| {
            let number = x
                .as_f64()
                .ok_or_else(|| UnusableReply(format!("[{k}] is {x}, not a number")))?;
            let single = number as f32;
            if single.is_finite() {
                Ok(single)
            } else {
                Err(UnusableReply(format!(
                    "[{k}] is {number}, not a finite 32-bit number"
                )))
            }
        })
        .collect()
}
