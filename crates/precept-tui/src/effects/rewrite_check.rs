//! Whether an approved rule's edit kept its meaning, asked of a solver of
//! its own in the background (the semantic diff's per-rule question,
//! `lifecycle::behaviour::same_meaning`), so that a pure rewrite keeps the
//! expert's approval and any change of meaning sends the rule back to review.

use crate::state::msg::Msg;
use precept_engine::lifecycle::behaviour::same_meaning;
use precept_engine::model::{PolicyModel, ReviewStatus};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// Starts the check; one `Msg::RewriteChecked` arrives when it is decided.
pub fn start(
    id: String,
    old: String,
    new: String,
    was: ReviewStatus,
    model: PolicyModel,
    timeout: Duration,
) -> Receiver<Msg> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        let same = same_meaning(&model, &old, &new, timeout_ms);
        let _ = send.send(Msg::RewriteChecked { id, new, was, same });
    });
    receive
}
