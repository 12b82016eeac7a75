//! `precept check-answers`: many answers against the scripted LLM server,
//! bad lines reported and skipped, and a run killed half-way then resumed
//! gives every id exactly once.

use crate::support;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use support::llm_server::{Server, openai_json};
use support::{copy_sample, precept_with_llm, stderr};

const PARK_PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const PARK_CLAIM: &str = "(not isEntryAllowed)";

fn input_lines() -> String {
    let mut lines = Vec::new();
    for n in 1..=5 {
        lines.push(
            json!({"id": format!("a{n}"), "question": format!("Question {n}: can a senior with $35.40 visit?"),
                   "answer": format!("No ({n}), $35.40 is not enough.")})
            .to_string(),
        );
        if n == 2 {
            lines.push("{\"id\": \"broken\", \"question\": ".to_string());
            lines.push(json!({"id": "empty", "question": "Q?", "answer": " "}).to_string());
        }
    }
    lines.join("\n") + "\n"
}

fn result_ids(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("a whole JSON line");
            assert_eq!(value.as_object().unwrap().keys().next().unwrap(), "id");
            assert!(value["finding"].is_string());
            value["id"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn an_interrupted_run_resumed_gives_every_id_exactly_once() {
    let project = copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("answers.jsonl");
    let output = scratch.path().join("results.jsonl");
    std::fs::write(&input, input_lines()).unwrap();
    let llm = Server::start();
    llm.set_latency(Duration::from_millis(250));
    let translation = json!({
        "pairs": [{"premise": PARK_PREMISE, "claim": PARK_CLAIM, "source": "the answer"}],
        "untranslated": [],
    });
    llm.respond_with(move |_| openai_json(&translation));
    let command = |extra: &[&str]| {
        let mut command = precept_with_llm(&llm.url, config.path());
        command
            .arg("check-answers")
            .arg(project.path())
            .arg(&input)
            .arg("--out")
            .arg(&output)
            .args(["--k", "1"])
            .args(extra);
        command
    };

    let mut first = command(&["--jobs", "1"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while result_ids(&output).len() < 2 {
        assert!(Instant::now() < deadline, "no results were written");
        std::thread::sleep(Duration::from_millis(10));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let before = result_ids(&output);
    assert!(
        before.len() < 5,
        "the run finished before it was interrupted"
    );
    // A crash in the middle of writing a line leaves it unfinished.
    let mut text = std::fs::read_to_string(&output).unwrap();
    text.push_str("{\"id\": \"a5\", \"finding\": \"VAL");
    std::fs::write(&output, text).unwrap();

    let refused = command(&[]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("--resume"),
        "{}",
        stderr(&refused)
    );

    let resumed = command(&["--resume", "--jobs", "3"]).output().unwrap();
    let log = stderr(&resumed);
    assert_eq!(resumed.status.code(), Some(0), "{log}");
    let ids = result_ids(&output);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for id in &ids {
        *counts.entry(id.clone()).or_default() += 1;
    }
    let expected: BTreeMap<String, usize> = (1..=5).map(|n| (format!("a{n}"), 1)).collect();
    assert_eq!(counts, expected, "every id exactly once: {ids:?}");
    assert_eq!(
        &ids[..before.len()],
        &before[..],
        "earlier results are kept"
    );

    // Bad lines are named by their line number and skipped.
    let input_name = input.display().to_string();
    assert!(log.contains(&format!("{input_name}:3: expected")), "{log}");
    assert!(
        log.contains(&format!("{input_name}:4: expected an answer")),
        "{log}"
    );
    assert!(log.contains("skipped"));
    // Progress with the time left, and a summary of the findings.
    assert!(
        log.contains(&format!("checked 1/{}", 5 - before.len())),
        "{log}"
    );
    assert!(log.contains("left"), "{log}");
    assert!(
        log.contains(&format!("checked {} answer(s)", 5 - before.len())),
        "{log}"
    );
    assert!(log.contains("SATISFIABLE"), "{log}");
    assert!(
        log.contains(&format!("{} already in the results", before.len())),
        "{log}"
    );
}
