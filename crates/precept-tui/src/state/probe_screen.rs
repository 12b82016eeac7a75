//! The Probe screen's state: which chatbot (an `llm.toml` profile) to
//! test, the run's progress as it arrives, the finished report, and the
//! failure being looked at.

use precept_engine::probe::Verdict;
use precept_engine::probe::report::{ProbeReport, ProbeResult};
use precept_engine::workspace::JobId;

/// How many source questions a workbench probe asks (variants and
/// follow-ups come on top).
pub const WORKBENCH_QUESTIONS: usize = 20;

/// One answer that was not right: a question's own, or one of its
/// follow-ups (by index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailureRef {
    pub result: usize,
    pub follow_up: Option<usize>,
}

#[derive(Debug, Default)]
pub struct ProbeScreen {
    /// The profiles of `llm.toml`; the translator's is left out.
    pub profiles: Vec<String>,
    /// The translator's profile (the default one), shown for clarity.
    pub translator: Option<String>,
    /// Why the profiles could not be read.
    pub profiles_error: Option<String>,
    pub profile_cursor: usize,
    /// The run under way (its ticket), if any.
    pub running: Option<JobId>,
    pub job: JobId,
    pub planned: usize,
    pub done: usize,
    pub discarded: usize,
    /// Results as they arrive (the report replaces them at the end).
    pub results: Vec<ProbeResult>,
    pub report: Option<Box<ProbeReport>>,
    pub error: Option<String>,
    /// The failure shown (index into `failures()`).
    pub failure_cursor: usize,
    /// The model the run (going or finished) judged the answers against.
    pub basis: crate::state::freshness::Basis,
}

impl ProbeScreen {
    /// The profile the next run tests.
    pub fn target(&self) -> Option<&str> {
        self.profiles.get(self.profile_cursor).map(String::as_str)
    }

    /// The results so far: the report's once it is in.
    pub fn results(&self) -> &[ProbeResult] {
        match &self.report {
            Some(report) => &report.results,
            None => &self.results,
        }
    }

    /// Every answer judged other than correct, in the order asked.
    pub fn failures(&self) -> Vec<FailureRef> {
        let mut out = Vec::new();
        for (index, result) in self.results().iter().enumerate() {
            if result.verdict != Verdict::Correct {
                out.push(FailureRef {
                    result: index,
                    follow_up: None,
                });
            }
            for (f, follow_up) in result.follow_ups.iter().enumerate() {
                if follow_up.verdict != Verdict::Correct {
                    out.push(FailureRef {
                        result: index,
                        follow_up: Some(f),
                    });
                }
            }
        }
        out
    }

    /// The failure shown, if there is one.
    pub fn selected_failure(&self) -> Option<FailureRef> {
        let failures = self.failures();
        failures
            .get(self.failure_cursor.min(failures.len().saturating_sub(1)))
            .copied()
    }
}
