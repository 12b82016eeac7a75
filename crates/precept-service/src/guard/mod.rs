//! The guard proxy (`precept serve DIR --guard PROFILE`): an
//! OpenAI-compatible `POST /v1/chat/completions` that forwards each request
//! to the chatbot profile, checks the last user message and the reply
//! against the model, and returns the reply with the verdict (`precept`
//! field, `X-Precept-Finding` header); `--block` replaces an INVALID or
//! IMPOSSIBLE reply, `--revise N` sends the feedback back for up to N
//! rounds (ARC §4.2). `chatbot` forwards, `verdict` sums up a check,
//! `chat` is the endpoint.

pub mod chat;
pub mod chatbot;
pub mod verdict;
