//! Absurd numerals over real HTTP: Z3 multiplies big numbers where no
//! interrupt reaches it, so a question with a 10,000-digit numeral (or a
//! product of many long ones) would hold a worker far past its deadline.
//! The service refuses such a question with 400, the position and the
//! limit, at once, while other questions go on being answered; a numeral at
//! the limit is still decided within the deadline.

use crate::support;

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::service::Served;
use support::{copy_sample, precept, stderr};

const DEADLINE_MS: u64 = 1000;

fn ten_thousand_digits() -> Value {
    let huge = "9".repeat(10_000);
    json!({"premise": "isLowSeason", "claim": format!("(= (* baseFee baseFee)\n {huge})")})
}

fn product_of_long_numerals() -> Value {
    let factors = vec!["9".repeat(100); 100].join(" ");
    json!({"premise": "isLowSeason", "claim": format!("(= (* baseFee baseFee) (* {factors}))")})
}

#[test]
fn absurd_numerals_get_400_within_the_deadline_while_others_are_answered() {
    let project = copy_sample("park-admission");
    let deadline = DEADLINE_MS.to_string();
    let served = Served::ready(
        project.path(),
        &["--workers", "2", "--timeout-ms", deadline.as_str()],
    );
    let absurd: Vec<std::thread::JoinHandle<_>> =
        [ten_thousand_digits(), product_of_long_numerals()]
            .into_iter()
            .map(|question| {
                let url = served.url.clone();
                std::thread::spawn(move || {
                    let started = Instant::now();
                    let reply = Served::post_to(&url, "/v1/verify", &question);
                    (reply, started.elapsed())
                })
            })
            .collect();
    let mut answered = 0;
    while answered < 5 || absurd.iter().any(|a| !a.is_finished()) {
        let reply = served.post(
            "/v1/verify",
            &json!({"premise": "(= ageClass SENIOR)", "claim": "(= baseFee 50)"}),
        );
        assert_eq!(reply.status, 200, "{}", reply.text);
        answered += 1;
    }
    let limit = Duration::from_millis(DEADLINE_MS + 500);
    let replies: Vec<_> = absurd.into_iter().map(|a| a.join().unwrap()).collect();
    let (long, elapsed) = &replies[0];
    assert_eq!(long.status, 400, "{}", long.text);
    assert!(*elapsed < limit, "the deadline was not kept: {elapsed:?}");
    let body = long.json();
    assert_eq!(body["field"], "claim");
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(2), json!(2))
    );
    assert!(
        body["expected"]
            .as_str()
            .unwrap()
            .contains("at most 100 digits"),
        "{body}"
    );
    assert!(
        body["error"].as_str().unwrap().contains("10000 digits"),
        "{body}"
    );
    let (product, elapsed) = &replies[1];
    assert_eq!(product.status, 400, "{}", product.text);
    assert!(*elapsed < limit, "the deadline was not kept: {elapsed:?}");
    let body = product.json();
    assert_eq!(body["column"], 24, "{body}");
    assert!(
        body["expected"]
            .as_str()
            .unwrap()
            .contains("at most 300 digits"),
        "{body}"
    );

    // A numeral at the limit is decided, within the deadline.
    let at_limit = "9".repeat(100);
    let started = Instant::now();
    let reply = served.post(
        "/v1/verify",
        &json!({"premise": "isLowSeason", "claim": format!("(= (* baseFee baseFee) {at_limit})")}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(started.elapsed() < limit, "{:?}", started.elapsed());
    assert_ne!(reply.json()["finding"], "TOO_COMPLEX", "{}", reply.text);
}

#[test]
fn the_command_line_refuses_an_absurd_numeral_with_its_position() {
    let project = copy_sample("park-admission");
    let huge = "9".repeat(10_000);
    let claim = format!("(< finalAdmissionFee {huge})");
    let dir = project.path().to_str().unwrap();
    let started = Instant::now();
    let output = precept(&["verify", dir, "--premise", "isLowSeason", "--claim", &claim]);
    assert_eq!(output.status.code(), Some(2));
    assert!(started.elapsed() < Duration::from_secs(5));
    let message = stderr(&output);
    assert!(message.contains("--claim: 1:22:"), "{message}");
    assert!(message.contains("at most 100 digits"), "{message}");
}
