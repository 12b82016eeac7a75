//! The guard proxy (`precept serve DIR --guard PROFILE`), in front of a
//! chatbot in the API its profile speaks: OpenAI's
//! `POST /v1/chat/completions` (`openai.rs`) or Anthropic's
//! `POST /v1/messages` (`anthropic.rs`), one request handled the same way
//! for both (`exchange.rs`). Each request is forwarded to the
//! chatbot; the last user message (with the earlier turns as context,
//! `conversation.rs`) and the reply are checked against the model
//! (`judge.rs`), and the reply goes back with the verdict (`precept` field,
//! `X-Precept-Finding` header). `--block` replaces an INVALID or IMPOSSIBLE
//! reply, `--revise N` sends the feedback back for up to N rounds
//! (ARC §4.2). A streamed request (`"stream": true`) is answered as
//! server-sent events (`event_stream.rs`, `sse.rs`): held until checked
//! (`--stream hold`) or passed on as the chatbot's events arrive, the
//! verdict last (`--stream pass`, where `--block` and `--revise` cannot
//! apply).

pub mod anthropic;
pub mod chatbot;
pub mod conversation;
pub mod event_stream;
pub mod exchange;
pub mod judge;
pub mod openai;
pub mod requests;
pub mod sse;
pub mod upstream;
pub mod verdict;

use crate::options::GuardOptions;
pub use crate::options::StreamMode;
use chatbot::Chatbot;

/// The chatbot and what to do with its replies.
pub struct Guard {
    pub chatbot: Chatbot,
    pub options: GuardOptions,
}

/// The header that carries the verdict's finding.
pub const FINDING_HEADER: &str = "x-precept-finding";

/// A held reply cut into the pieces a stream sends: a few words each, cut
/// after a space so no word is split.
pub fn split_for_streaming(text: &str) -> Vec<String> {
    const PIECE: usize = 24;
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for word in text.split_inclusive(' ') {
        piece.push_str(word);
        if piece.len() >= PIECE {
            pieces.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() || pieces.is_empty() {
        pieces.push(piece);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::split_for_streaming;

    #[test]
    fn the_pieces_make_the_text_again() {
        let text = "Yes: members get the discount on every visit, children too.";
        let pieces = split_for_streaming(text);
        assert!(pieces.len() > 1);
        assert_eq!(pieces.concat(), text);
        assert_eq!(split_for_streaming(""), vec![String::new()]);
    }
}
