//! The chatbot under test: an LLM profile of its own (never the
//! translator's request path), with a system prompt from the user, and
//! optionally the policy document in it (a retrieval-augmented support bot).
//! Each question is a conversation; follow-ups continue it.

use crate::llm::chat::{Conversation, Role};
use crate::llm::{LlmClient, LlmError, chat_blocking};
use std::sync::Arc;

/// The system prompt when the user gives none.
pub const DEFAULT_SYSTEM_PROMPT: &str = "You are the customer support assistant of the organisation whose policy is in question. \
     Answer the customer's questions about the policy accurately and briefly.";

/// The longest reply asked for, in tokens.
const MAX_REPLY_TOKENS: u32 = 1024;

/// The chatbot under test is the translator's own profile: its answers
/// would be checked by the model that wrote them, which proves nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SameProfile(pub String);

/// How many questions a probe may have in flight: the larger of the two
/// profiles' concurrency, once the chatbot under test is known not to be
/// the translator.
pub fn probe_concurrency(target: &LlmClient, translator: &LlmClient) -> Result<usize, SameProfile> {
    if target.profile().name == translator.profile().name {
        return Err(SameProfile(target.profile().name.clone()));
    }
    Ok(target
        .profile()
        .concurrency
        .max(translator.profile().concurrency))
}

/// The chatbot under test.
pub struct Chatbot {
    client: Arc<LlmClient>,
    system: String,
}

/// A reply and whether it came from the cache.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub text: String,
    pub from_cache: bool,
}

impl Chatbot {
    /// `system_prompt` replaces the default; `document`, when given, is
    /// appended to it as the reference the bot answers from.
    pub fn new(
        client: Arc<LlmClient>,
        system_prompt: Option<&str>,
        document: Option<&str>,
    ) -> Chatbot {
        let mut system = system_prompt
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or(DEFAULT_SYSTEM_PROMPT)
            .to_string();
        if let Some(document) = document {
            system.push_str("\n\nThe policy document you answer from:\n\n");
            system.push_str(document.trim());
        }
        Chatbot { client, system }
    }

    pub fn profile_name(&self) -> &str {
        &self.client.profile().name
    }

    pub fn system(&self) -> &str {
        &self.system
    }

    /// A new conversation with the system prompt.
    pub fn start(&self) -> Conversation {
        Conversation::new(self.system.clone(), MAX_REPLY_TOKENS)
    }

    /// Asks `text` in `conversation` and records the reply in it. Blocks
    /// (call it from a plain thread).
    pub fn ask(&self, conversation: &mut Conversation, text: &str) -> Result<Reply, LlmError> {
        conversation.say(Role::User, text);
        let reply = chat_blocking(&self.client, conversation)?;
        let text = reply.json.as_str().unwrap_or_default().to_string();
        conversation.say(Role::Assistant, text.clone());
        Ok(Reply {
            text,
            from_cache: reply.from_cache,
        })
    }
}
