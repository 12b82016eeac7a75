//! The chatbot's streamed reply, read event by event as its bytes arrive.

use super::sse::{Decoder, Event};
use std::collections::VecDeque;

pub struct Upstream {
    reply: reqwest::Response,
    decoder: Decoder,
    ready: VecDeque<Event>,
}

impl Upstream {
    pub fn new(reply: reqwest::Response) -> Upstream {
        Upstream {
            reply,
            decoder: Decoder::default(),
            ready: VecDeque::new(),
        }
    }

    /// The next event; None once the stream ended cleanly. A stream that
    /// breaks off or ends inside an event is an error, in words.
    pub async fn next(&mut self) -> Result<Option<Event>, String> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Ok(Some(event));
            }
            match self.reply.chunk().await {
                Ok(Some(bytes)) => self.ready.extend(self.decoder.feed(&bytes)),
                Ok(None) if self.decoder.has_partial() => {
                    return Err("the chatbot's stream was cut off in the middle of an event".into());
                }
                Ok(None) => return Ok(None),
                Err(e) => {
                    return Err(format!(
                        "the chatbot's stream broke off: {}",
                        e.without_url()
                    ));
                }
            }
        }
    }
}
