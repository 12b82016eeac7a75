//! Which tests each candidate edit would flip, worked out in the background
//! for the fix chooser and the repair overlay: one message per candidate,
//! in order.

use crate::state::job_error::JobError;
use crate::state::msg::{Effect, Msg};
use crate::state::task::Task;
use precept_engine::model::{LogicTest, PolicyModel};
use precept_engine::test_runner::flips::{TestFlip, flips_of, suite_outcomes};
use precept_engine::workspace::Stamp;

/// A task that runs `tests` on `model` once, then on each of `edited`, and
/// sends `message(index, flips)` for each.
pub fn preview(
    name: &'static str,
    stamp: Stamp,
    model: PolicyModel,
    tests: Vec<LogicTest>,
    edited: Vec<PolicyModel>,
    message: fn(Stamp, usize, Result<Vec<TestFlip>, JobError>) -> Msg,
) -> Effect {
    Effect::Background(Task::new(name, stamp, move |context, send| {
        let baseline = suite_outcomes(&model, &tests, context.timeout);
        for (index, candidate) in edited.iter().enumerate() {
            let flips = match &baseline {
                Ok(baseline) => {
                    flips_of(candidate, &tests, baseline, context.timeout).map_err(JobError::of)
                }
                Err(error) => Err(JobError::of(error.clone())),
            };
            send(message(stamp, index, flips));
        }
    }))
}
