//! Jobs that wait on an LLM run under the scheduler like solver work: they
//! start without blocking under the caller's job id, `cancel(job)` stops
//! them through their one `Cancel` (which also ends the requests of a
//! client made with it), and a dropped scheduler stops what it started.

use crate::support::llm_server::{Server, openai_json, scripted_client};
use precept::llm::{Cancel, LlmError, LlmRequest, complete_blocking};
use precept::scheduler::{JobId, Scheduler};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A job that waits until it is cancelled (at most 20 s) and says how long
/// it waited.
fn waiting_job(scheduler: &Scheduler, job: JobId) -> mpsc::Receiver<Duration> {
    let (send, receive) = mpsc::channel();
    scheduler.spawn(job, move |cancel| {
        let started = Instant::now();
        while !cancel.is_cancelled() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = send.send(started.elapsed());
    });
    receive
}

#[test]
fn cancel_stops_only_the_job_it_names() {
    let scheduler = Scheduler::new(1, Duration::from_secs(5));
    let (first, second) = (JobId::next(), JobId::next());
    let stopped = waiting_job(&scheduler, first);
    let running = waiting_job(&scheduler, second);
    assert!(scheduler.is_running(first) && scheduler.is_running(second));
    scheduler.cancel(first);
    let waited = stopped.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert!(!scheduler.is_running(first));
    assert!(
        running.recv_timeout(Duration::from_millis(200)).is_err(),
        "the other job goes on"
    );
    assert!(scheduler.is_running(second));
    scheduler.cancel(second);
    running.recv_timeout(Duration::from_secs(5)).unwrap();
}

#[test]
fn a_job_that_finishes_is_forgotten_and_dropping_the_scheduler_stops_the_rest() {
    let scheduler = Scheduler::new(1, Duration::from_secs(5));
    let quick = JobId::next();
    let (send, done) = mpsc::channel();
    scheduler.spawn(quick, move |_| {
        let _ = send.send(());
    });
    done.recv_timeout(Duration::from_secs(5)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while scheduler.is_running(quick) {
        assert!(Instant::now() < deadline, "a finished job is still listed");
        std::thread::sleep(Duration::from_millis(5));
    }
    // A job that panics is forgotten too.
    let panicking = JobId::next();
    scheduler.spawn(panicking, |_| panic!("a job that fails"));
    let deadline = Instant::now() + Duration::from_secs(5);
    while scheduler.is_running(panicking) {
        assert!(
            Instant::now() < deadline,
            "a job that panicked is still listed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let stopped = waiting_job(&scheduler, JobId::next());
    drop(scheduler);
    let waited = stopped.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(waited < Duration::from_secs(5), "{waited:?}");
}

#[test]
fn cancelling_a_job_ends_the_llm_request_it_has_in_flight() {
    let server = Server::start();
    server.set_latency(Duration::from_secs(10));
    server.respond_with(|_| openai_json(&serde_json::json!({"ok": true})));
    let client = scripted_client(&server, None);
    let scheduler = Scheduler::new(1, Duration::from_secs(5));
    let job = JobId::next();
    let (send, outcome) = mpsc::channel();
    scheduler.spawn(job, move |cancel: &Cancel| {
        let client = client.with_cancel(cancel.clone());
        let request = LlmRequest {
            system: "You answer.".into(),
            prompt: "Anything.".into(),
            schema_name: "answer".into(),
            schema: serde_json::json!({"type": "object", "properties": {"ok": {"type": "boolean"}}}),
            temperature: 0.0,
            max_tokens: 16,
        };
        let started = Instant::now();
        let result = complete_blocking(&client, &request);
        let _ = send.send((result.map(|_| ()), started.elapsed()));
    });
    std::thread::sleep(Duration::from_millis(200));
    scheduler.cancel(job);
    let (result, waited) = outcome.recv_timeout(Duration::from_secs(8)).unwrap();
    assert!(matches!(result, Err(LlmError::Cancelled)), "{result:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
}
