//! The workbench end to end: its update function over the real runtime, the formalize screen, and the real binary under tmux.
//! One test binary for all of them, so a change relinks it once.

#[path = "../support/probe_bot.rs"]
mod probe_bot;
#[path = "../support/mod.rs"]
mod support;
// Where probe_bot.rs (shared with the probe bench) finds the scripted server.
use support::llm_server;

/// The stamp of a request nobody waits for any more: its reply is dropped.
fn another_job(stamp: precept::workspace::Stamp) -> precept::workspace::Stamp {
    precept::workspace::Stamp {
        job: precept::workspace::JobId::next(),
        ..stamp
    }
}

mod tui_e2e;
mod tui_e2e_llm;
mod tui_e2e_probe;
mod tui_formalize;
mod tui_update;
