//! The conversation an app sends through the guard, in either API: which
//! turn is checked (the last user message, with the earlier turns as
//! context for the translator), the reply's text, and the turns a revision
//! adds.

use super::requests::{ChatCompletionsRequest, MessagesRequest};
use crate::api_error::ApiError;
use serde_json::{Value, json};

/// The API the app and the chatbot speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// `POST /v1/chat/completions`.
    OpenAi,
    /// `POST /v1/messages`.
    Anthropic,
}

/// One request's conversation.
pub struct Conversation {
    pub wire: Wire,
    pub request: Value,
}

impl Conversation {
    /// The request body, checked to be an object with a user message.
    pub fn read(wire: Wire, request: Value) -> Result<Conversation, ApiError> {
        let what = match wire {
            Wire::OpenAi => "a chat-completions request object",
            Wire::Anthropic => "a Messages API request object",
        };
        if !request.is_object() {
            return Err(ApiError::bad_request(format!("expected {what}")));
        }
        let typed = match wire {
            Wire::OpenAi => {
                serde_json::from_value::<ChatCompletionsRequest>(request.clone()).map(|_| ())
            }
            Wire::Anthropic => {
                serde_json::from_value::<MessagesRequest>(request.clone()).map(|_| ())
            }
        };
        typed.map_err(|e| ApiError::bad_request(format!("expected {what}: {e}")))?;
        let conversation = Conversation { wire, request };
        if conversation.last_user_index().is_none() {
            return Err(ApiError::bad_request(
                "messages: expected at least one message with role \"user\"",
            ));
        }
        Ok(conversation)
    }

    /// Whether the app asked for a stream.
    pub fn wants_stream(&self) -> bool {
        self.request.get("stream").and_then(Value::as_bool) == Some(true)
    }

    fn messages(&self) -> &[Value] {
        self.request
            .get("messages")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    fn last_user_index(&self) -> Option<usize> {
        self.messages()
            .iter()
            .rposition(|m| role(m) == Some("user") && text_of(m.get("content")).is_some())
    }

    /// The question the reply answers: the last user message, after the
    /// earlier user and assistant turns when there are any (so "and what
    /// about children?" reaches the translator with what it follows).
    pub fn question(&self) -> String {
        let messages = self.messages();
        let Some(last) = self.last_user_index() else {
            return String::new();
        };
        let asked = text_of(messages[last].get("content")).unwrap_or_default();
        let earlier: Vec<String> = messages[..last]
            .iter()
            .filter_map(|m| {
                let role = role(m).filter(|r| matches!(*r, "user" | "assistant"))?;
                Some(format!("{role}: {}", text_of(m.get("content"))?))
            })
            .collect();
        if earlier.is_empty() {
            asked
        } else {
            format!(
                "Earlier in the conversation:\n{}\n\nThe question now: {asked}",
                earlier.join("\n")
            )
        }
    }

    /// The text of a whole (not streamed) reply.
    pub fn reply_text(&self, reply: &Value) -> Option<String> {
        match self.wire {
            Wire::OpenAi => reply
                .pointer("/choices/0/message/content")
                .and_then(Value::as_str)
                .map(str::to_string),
            Wire::Anthropic => text_of(reply.get("content")),
        }
    }

    /// Replaces the text of a whole reply.
    pub fn set_reply_text(&self, reply: &mut Value, text: &str) {
        match self.wire {
            Wire::OpenAi => {
                if let Some(content) = reply.pointer_mut("/choices/0/message/content") {
                    *content = Value::String(text.to_string());
                }
            }
            Wire::Anthropic => {
                if let Some(object) = reply.as_object_mut() {
                    object.insert("content".into(), json!([{"type": "text", "text": text}]));
                }
            }
        }
    }

    /// Adds the rejected reply and the request to revise it.
    pub fn append_revision(&mut self, reply: &str, revision: &str) {
        if let Some(messages) = self
            .request
            .get_mut("messages")
            .and_then(Value::as_array_mut)
        {
            messages.push(json!({"role": "assistant", "content": reply}));
            messages.push(json!({"role": "user", "content": revision}));
        }
    }
}

fn role(message: &Value) -> Option<&str> {
    message.get("role").and_then(Value::as_str)
}

/// The text of a message's content: a string, or the text of its parts
/// (OpenAI's `{"type": "text", "text"}` parts, Anthropic's text blocks).
fn text_of(content: Option<&Value>) -> Option<String> {
    match content? {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str).unwrap_or("text") == "text")
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_user_turn_is_checked_with_the_earlier_turns_as_context() {
        let conversation = Conversation::read(
            Wire::Anthropic,
            json!({
                "system": "You answer questions about the park.",
                "messages": [
                    {"role": "user", "content": "Is entry free for seniors?"},
                    {"role": "assistant", "content": [{"type": "text", "text": "Yes."}]},
                    {"role": "user", "content": [{"type": "text", "text": "And for children?"}]}
                ]
            }),
        )
        .unwrap();
        assert_eq!(
            conversation.question(),
            "Earlier in the conversation:\nuser: Is entry free for seniors?\nassistant: Yes.\n\n\
             The question now: And for children?"
        );
    }

    #[test]
    fn a_single_question_is_asked_as_it_is() {
        let conversation = Conversation::read(
            Wire::OpenAi,
            json!({"messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Do members get a discount?"}
            ]}),
        )
        .unwrap();
        assert_eq!(conversation.question(), "Do members get a discount?");
    }

    #[test]
    fn a_request_without_a_user_message_is_refused() {
        let refused = Conversation::read(
            Wire::OpenAi,
            json!({"messages": [{"role": "system", "content": "x"}]}),
        );
        assert_eq!(refused.err().unwrap().status, 400);
    }
}
