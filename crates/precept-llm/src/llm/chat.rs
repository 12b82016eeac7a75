//! Plain chat, for talking to a chatbot under test: a conversation of
//! turns in, free text out (no schema). Pure functions over JSON: the
//! request body in either protocol, the reply's text, and the cache key of
//! a whole conversation (so a follow-up in the same conversation is cached
//! with everything said before it).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::cache::hash_parts;
use super::config::{Profile, Protocol};
use super::request::{LlmError, snippet};

/// Who said a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One turn of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub role: Role,
    pub text: String,
}

/// A conversation so far; the last turn is the user's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Conversation {
    /// Empty for none.
    pub system: String,
    pub turns: Vec<Turn>,
    pub temperature: f32,
    pub max_tokens: u32,
}

impl Conversation {
    pub fn new(system: impl Into<String>, max_tokens: u32) -> Conversation {
        Conversation {
            system: system.into(),
            turns: Vec::new(),
            temperature: 0.0,
            max_tokens,
        }
    }

    pub fn say(&mut self, role: Role, text: impl Into<String>) {
        self.turns.push(Turn {
            role,
            text: text.into(),
        });
    }
}

/// The schema name a chat reply is cached under.
pub const CHAT_ENTRY: &str = "chat";

/// The cache key of `conversation` sent with `profile`: the protocol,
/// server, model, sampling settings, system text and every turn.
pub fn chat_key(profile: &Profile, conversation: &Conversation) -> String {
    let settings = format!("{} {}", conversation.temperature, conversation.max_tokens);
    let mut parts: Vec<&str> = vec![
        CHAT_ENTRY,
        profile.protocol.as_str(),
        profile.base_url.trim_end_matches('/'),
        profile.model.as_str(),
        settings.as_str(),
        conversation.system.as_str(),
    ];
    for turn in &conversation.turns {
        parts.push(turn.role.as_str());
        parts.push(turn.text.as_str());
    }
    hash_parts(&parts)
}

/// The JSON body for `conversation` in `profile`'s protocol.
pub fn chat_body(profile: &Profile, conversation: &Conversation) -> Value {
    let turns: Vec<Value> = conversation
        .turns
        .iter()
        .map(|t| json!({"role": t.role.as_str(), "content": t.text}))
        .collect();
    match profile.protocol {
        Protocol::OpenAi => {
            let mut messages = Vec::new();
            if !conversation.system.is_empty() {
                messages.push(json!({"role": "system", "content": conversation.system}));
            }
            messages.extend(turns);
            json!({
                "model": profile.model,
                "messages": messages,
                "temperature": conversation.temperature,
                "max_tokens": conversation.max_tokens,
            })
        }
        Protocol::Anthropic => {
            let mut body = json!({
                "model": profile.model,
                "max_tokens": conversation.max_tokens,
                "temperature": conversation.temperature,
                "messages": turns,
            });
            if !conversation.system.is_empty() {
                body["system"] = Value::String(conversation.system.clone());
            }
            body
        }
    }
}

/// The reply's text from a successful HTTP body. A reply cut off at the
/// token limit is kept (a chatbot's long answer is still its answer).
pub fn chat_text(protocol: Protocol, raw: &str) -> Result<String, LlmError> {
    let invalid = |reason: &str| LlmError::InvalidReply {
        reason: reason.to_string(),
        raw_snippet: snippet(raw),
    };
    let envelope: Value = serde_json::from_str(raw)
        .map_err(|e| invalid(&format!("the response body is not JSON: {e}")))?;
    match protocol {
        Protocol::OpenAi => {
            let message = envelope
                .pointer("/choices/0/message")
                .ok_or_else(|| invalid("no choices[0].message in the response"))?;
            if let Some(refusal) = message.get("refusal").and_then(Value::as_str) {
                return Ok(refusal.to_string());
            }
            match message.get("content") {
                Some(Value::String(text)) => Ok(text.clone()),
                Some(Value::Null) | None => Ok(String::new()),
                Some(other) => Ok(other.to_string()),
            }
        }
        Protocol::Anthropic => {
            let blocks = envelope
                .get("content")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("no content array in the response"))?;
            Ok(blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(protocol: Protocol) -> Profile {
        Profile::new("bot", protocol, "http://127.0.0.1:1", "m")
    }

    #[test]
    fn the_key_covers_every_turn_and_the_system_text() {
        let p = profile(Protocol::OpenAi);
        let mut a = Conversation::new("be nice", 100);
        a.say(Role::User, "hi");
        let mut b = a.clone();
        assert_eq!(chat_key(&p, &a), chat_key(&p, &b));
        b.say(Role::Assistant, "hello");
        b.say(Role::User, "so?");
        assert_ne!(chat_key(&p, &a), chat_key(&p, &b));
        let mut c = a.clone();
        c.system = "be terse".into();
        assert_ne!(chat_key(&p, &a), chat_key(&p, &c));
    }

    #[test]
    fn bodies_carry_the_turns_in_order() {
        let mut c = Conversation::new("sys", 50);
        c.say(Role::User, "q1");
        c.say(Role::Assistant, "a1");
        c.say(Role::User, "q2");
        let open = chat_body(&profile(Protocol::OpenAi), &c);
        assert_eq!(open["messages"][0]["role"], "system");
        assert_eq!(open["messages"][3]["content"], "q2");
        assert!(open.get("response_format").is_none());
        let anthropic = chat_body(&profile(Protocol::Anthropic), &c);
        assert_eq!(anthropic["system"], "sys");
        assert_eq!(anthropic["messages"][1]["role"], "assistant");
    }

    #[test]
    fn reply_text_is_taken_from_either_protocol() {
        let open = r#"{"choices":[{"message":{"role":"assistant","content":"Yes."}}]}"#;
        assert_eq!(chat_text(Protocol::OpenAi, open).unwrap(), "Yes.");
        let anthropic = r#"{"content":[{"type":"text","text":"No."}]}"#;
        assert_eq!(chat_text(Protocol::Anthropic, anthropic).unwrap(), "No.");
        assert!(chat_text(Protocol::OpenAi, "<html>").is_err());
        assert!(chat_text(Protocol::OpenAi, "{}").is_err());
    }
}
