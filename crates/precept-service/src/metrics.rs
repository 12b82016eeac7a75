//! The service's counters and latency histograms, written as Prometheus
//! text for `GET /metrics`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

#[derive(Default)]
struct Figures {
    /// (endpoint, finding or status) → requests.
    requests: BTreeMap<(String, String), u64>,
    latency: BTreeMap<String, Histogram>,
    solver_timeouts: u64,
    /// outcome ("ok", "failed") → reloads.
    reloads: BTreeMap<String, u64>,
    /// reason ("queue_full", "unauthorized", …) → rejected requests.
    rejected: BTreeMap<String, u64>,
    /// Questions split over two workers, and those whose lent worker was
    /// wanted back before its side was decided.
    split: u64,
    split_recalled: u64,
}

#[derive(Default)]
pub struct Metrics {
    figures: Mutex<Figures>,
}

impl Metrics {
    fn with(&self, change: impl FnOnce(&mut Figures)) {
        let mut figures = self.figures.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut figures);
    }

    /// One answered request: its endpoint, its finding (or outcome) and how
    /// long it took.
    pub fn request(&self, endpoint: &str, outcome: &str, elapsed: Duration) {
        self.with(|f| {
            *f.requests
                .entry((endpoint.to_string(), outcome.to_string()))
                .or_default() += 1;
            let histogram = f.latency.entry(endpoint.to_string()).or_default();
            let seconds = elapsed.as_secs_f64();
            for (bound, count) in BUCKETS.iter().zip(histogram.counts.iter_mut()) {
                if seconds <= *bound {
                    *count += 1;
                }
            }
            histogram.count += 1;
            histogram.sum += seconds;
        });
    }

    pub fn solver_timeout(&self) {
        self.with(|f| f.solver_timeouts += 1);
    }

    /// A question decided on two workers, one lent; `recalled` when the
    /// lent one was wanted back before it decided its side.
    pub fn split_question(&self, recalled: bool) {
        self.with(|f| {
            f.split += 1;
            f.split_recalled += u64::from(recalled);
        });
    }

    pub fn reload(&self, ok: bool) {
        let outcome = if ok { "ok" } else { "failed" };
        self.with(|f| *f.reloads.entry(outcome.to_string()).or_default() += 1);
    }

    pub fn rejected(&self, reason: &str) {
        self.with(|f| *f.rejected.entry(reason.to_string()).or_default() += 1);
    }

    /// Everything in the Prometheus text exposition format.
    pub fn render(&self) -> String {
        let figures = self.figures.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP precept_requests_total Requests answered, by endpoint and finding (or outcome).\n\
             # TYPE precept_requests_total counter"
        );
        for ((endpoint, finding), count) in &figures.requests {
            let _ = writeln!(
                out,
                "precept_requests_total{{endpoint=\"{}\",finding=\"{}\"}} {count}",
                label(endpoint),
                label(finding)
            );
        }
        let _ = writeln!(
            out,
            "# HELP precept_request_duration_seconds Time to answer a request, by endpoint.\n\
             # TYPE precept_request_duration_seconds histogram"
        );
        for (endpoint, histogram) in &figures.latency {
            let endpoint = label(endpoint);
            for (bound, count) in BUCKETS.iter().zip(histogram.counts.iter()) {
                let _ = writeln!(
                    out,
                    "precept_request_duration_seconds_bucket{{endpoint=\"{endpoint}\",le=\"{bound}\"}} {count}"
                );
            }
            let _ = writeln!(
                out,
                "precept_request_duration_seconds_bucket{{endpoint=\"{endpoint}\",le=\"+Inf\"}} {}\n\
                 precept_request_duration_seconds_sum{{endpoint=\"{endpoint}\"}} {}\n\
                 precept_request_duration_seconds_count{{endpoint=\"{endpoint}\"}} {}",
                histogram.count, histogram.sum, histogram.count
            );
        }
        let _ = writeln!(
            out,
            "# HELP precept_solver_timeouts_total Solver questions stopped at their deadline.\n\
             # TYPE precept_solver_timeouts_total counter\n\
             precept_solver_timeouts_total {}",
            figures.solver_timeouts
        );
        let _ = writeln!(
            out,
            "# HELP precept_verify_split_total Questions decided one side on each of two workers (an idle one lent), by whether the lent worker was wanted back before its side was decided.\n\
             # TYPE precept_verify_split_total counter\n\
             precept_verify_split_total{{lent_worker=\"kept\"}} {}\n\
             precept_verify_split_total{{lent_worker=\"recalled\"}} {}",
            figures.split - figures.split_recalled,
            figures.split_recalled
        );
        let _ = writeln!(
            out,
            "# HELP precept_reloads_total Model reloads, by outcome.\n\
             # TYPE precept_reloads_total counter"
        );
        for outcome in ["ok", "failed"] {
            let count = figures.reloads.get(outcome).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "precept_reloads_total{{outcome=\"{outcome}\"}} {count}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP precept_requests_rejected_total Requests turned away, by reason.\n\
             # TYPE precept_requests_rejected_total counter"
        );
        for (reason, count) in &figures.rejected {
            let _ = writeln!(
                out,
                "precept_requests_rejected_total{{reason=\"{}\"}} {count}",
                label(reason)
            );
        }
        out
    }
}

/// A label value with `\`, `"` and newlines escaped.
fn label(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
