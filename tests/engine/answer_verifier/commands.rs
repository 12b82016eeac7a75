//! Cancelling, and the check-answer and test commands.

use super::*;

#[test]
fn cancelling_stops_a_verification_waiting_for_the_llm() {
    let dir = copy_sample("park-admission");
    let server = Server::start();
    server.set_latency(Duration::from_secs(5));
    server.respond_with(|_| openai_json(&translation(&[(PARK_PREMISE, PARK_CLAIM)], &[])));
    let bench = bench(dir.path());
    let verifier = bench.verifier(&server, 3, VerifyOptions::default());
    let cancel = Cancel::new();
    let canceller = cancel.clone();
    let started = std::time::Instant::now();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        canceller.cancel();
    });
    let outcome = verifier.verify(
        &bench.worker,
        &AnswerInput::new(PARK_QUESTION, PARK_ANSWER),
        &mut |_| {},
        &cancel,
    );
    assert!(matches!(
        outcome,
        Err(precept::answer::VerifyError::Cancelled)
    ));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn check_answer_cli_prints_the_finding_pairs_and_feedback_as_json() {
    let dir = copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let server = Server::start();
    server.respond_with(|_| openai_json(&translation(&[(PARK_PREMISE, PARK_CLAIM)], &[])));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "check-answer",
            dir.path().to_str().unwrap(),
            "--question",
            PARK_QUESTION,
            "--answer",
            PARK_ANSWER,
        ];
        args.extend_from_slice(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_precept"))
            .args(&args)
            .env("PRECEPT_CONFIG_DIR", config.path())
            .env("PRECEPT_LLM_BASE_URL", &server.url)
            .env("PRECEPT_LLM_MODEL", "scripted-model")
            .env("PRECEPT_LLM_PROTOCOL", "openai")
            .env("PRECEPT_LLM_API_KEY_ENV", "")
            .output()
            .expect("run precept")
    };

    let out = run(&["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Json = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["finding"], "SATISFIABLE");
    assert_eq!(json["k"], 3);
    assert_eq!(json["pairs"][0]["confidence"], 1.0);
    assert_eq!(json["pairs"][0]["premise"], PARK_PREMISE);
    assert_eq!(
        json["pairs"][0]["evidence"]["claims_false_scenario"]["creditUnits"],
        "3"
    );
    assert_eq!(
        json["pairs"][0]["supporting_translations"],
        json!([1, 2, 3])
    );
    assert!(json["feedback"].as_str().unwrap().contains("creditUnits"));
    assert_eq!(json["translations"].as_array().unwrap().len(), 3);
    assert!(dir.path().join(".cache/translations").is_dir());
    assert_eq!(server.requests().len(), 3);

    // Text output, --expect and --k: cached translations answer samples 1–3.
    let out = run(&["--k", "2", "--expect", "VALID"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("SATISFIABLE"), "{text}");
    assert!(text.contains("confidence 2/2"), "{text}");
    assert!(stderr(&out).contains("expected VALID, got SATISFIABLE"));
    assert_eq!(
        server.requests().len(),
        3,
        "both samples come from the cache"
    );

    let out = run(&["--threshold", "1.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--threshold"), "{}", stderr(&out));
    let out = run(&["--k", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn precept_test_runs_nl_tests_and_says_what_is_at_fault() {
    let dir = copy_sample("park-admission");
    let mut project = Project::load(dir.path()).unwrap();
    project.tests.nl_tests = vec![
        nl_test("NL1", PARK_ANSWER, FindingKind::Satisfiable),
        nl_test("NL2", PARK_ANSWER, FindingKind::Valid),
    ];
    project.save_tests().unwrap();
    let config = tempfile::tempdir().unwrap();
    let server = Server::start();
    server.respond_with(|_| openai_json(&translation(&[(PARK_PREMISE, PARK_CLAIM)], &[])));
    let run = |extra: &[&str], with_llm: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_precept"));
        command
            .arg("test")
            .arg(dir.path())
            .args(extra)
            .env("PRECEPT_CONFIG_DIR", config.path())
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY");
        if with_llm {
            command
                .env("PRECEPT_LLM_BASE_URL", &server.url)
                .env("PRECEPT_LLM_MODEL", "scripted-model")
                .env("PRECEPT_LLM_PROTOCOL", "openai")
                .env("PRECEPT_LLM_API_KEY_ENV", "");
        } else {
            command
                .env_remove("PRECEPT_LLM_BASE_URL")
                .env_remove("PRECEPT_LLM_MODEL")
                .env_remove("PRECEPT_LLM_PROTOCOL");
        }
        command.output().expect("run precept")
    };

    let out = run(&[], true);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("PASS NL1 NL1 park question: SATISFIABLE: It depends: under these rules,"),
        "{text}"
    );
    assert!(
        text.contains("FAIL NL2 NL2 park question: expected VALID, got SATISFIABLE"),
        "{text}"
    );
    assert!(text.contains("the rules are at fault"), "{text}");
    assert!(
        text.contains("(= creditUnits 0)"),
        "the feedback is shown: {text}"
    );
    assert!(text.trim_end().ends_with("19 passed, 1 failed"), "{text}");

    let out = run(&["--json", "--filter", "NL"], true);
    let json: Json = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["nl_results"][1]["fault"]["at_fault"], "rules");
    assert_eq!(json["nl_results"][0]["report"]["finding"], "SATISFIABLE");
    assert_eq!(
        server.requests().len(),
        3,
        "both tests and both runs share one translation"
    );

    // Replayed: the translations come from the cache, not from the server.
    let out = run(&["--replay", "--filter", "NL1"], true);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(server.requests().len(), 3);

    // No LLM at all: the NL tests fail as not run, and say how to skip them.
    let out = run(&["--filter", "NL1"], false);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("not run:"), "{}", stdout(&out));
    assert!(stdout(&out).contains("--skip-nl"), "{}", stdout(&out));

    let out = run(&["--skip-nl"], false);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).trim_end().ends_with("18 passed, 0 failed"));
}
