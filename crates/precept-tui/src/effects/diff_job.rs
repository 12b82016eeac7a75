//! The workbench's diff: version `base` against the draft on disk, on a
//! thread of its own (its own solver sessions), with each step reported;
//! natural-language tests are decided from the translations stored for the
//! default LLM profile (never asking it).

use crate::state::msg::Msg;
use precept_engine::lifecycle::diff::{Side, diff_with_progress};
use precept_engine::lifecycle::reference::ModelRef;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};

/// Starts the diff; the stream carries progress, then the result, then
/// hangs up.
pub fn diff_against_version(
    dir: PathBuf,
    stamp: precept_engine::workspace::Stamp,
    base: u32,
) -> Receiver<Msg> {
    let (messages, stream) = mpsc::channel();
    std::thread::spawn(move || {
        let side = |version| {
            Side::load(&ModelRef {
                project: dir.clone(),
                version,
            })
            .map_err(crate::state::job_error::JobError::of)
        };
        let result = side(Some(base)).and_then(|a| {
            let b = side(None)?;
            let progress = |text: &str| {
                let _ = messages.send(Msg::VersionDiffProgress {
                    stamp,
                    text: text.to_string(),
                });
            };
            Ok(Box::new(diff_with_progress(&a, &b, None, &progress)))
        });
        let _ = messages.send(Msg::VersionDiffDone { stamp, result });
    });
    stream
}
