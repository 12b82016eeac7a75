//! Retries, timeouts and cancellation.

use super::*;

// ---------------------------------------------------------------------------
// Reliability.

#[test]
fn rate_limit_with_retry_after_is_honoured_then_succeeds() {
    let server = Server::start();
    server.script(
        ANTHROPIC_PATH,
        vec![
            Action::Respond {
                status: 429,
                headers: vec![("Retry-After".into(), "1".into())],
                body: r#"{"error": "rate limited"}"#.into(),
            },
            anthropic_reply(json!({"answer": "late", "score": 5})),
        ],
    );
    let client = client(&server, Protocol::Anthropic, Mode::Live, None);
    let started = Instant::now();
    let reply = complete_blocking(&client, &request("q")).expect("reply after retry");
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(reply.json["answer"], "late");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn server_errors_are_retried_up_to_the_cap() {
    let server = Server::start();
    let error = || Action::Respond {
        status: 503,
        headers: vec![],
        body: "overloaded".into(),
    };
    server.script(OPENAI_PATH, vec![error(); 6]);
    let client = client(&server, Protocol::OpenAi, Mode::Live, None);
    match complete_blocking(&client, &request("q")) {
        Err(LlmError::Http {
            status,
            body_snippet,
        }) => {
            assert_eq!(status, 503);
            assert_eq!(body_snippet, "overloaded");
        }
        other => panic!("expected Http 503, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 5, "1 attempt + 4 retries");
}

#[test]
fn client_errors_are_not_retried() {
    let server = Server::start();
    server.script(
        OPENAI_PATH,
        vec![Action::Respond {
            status: 401,
            headers: vec![],
            body: r#"{"error": "bad key"}"#.into(),
        }],
    );
    let client = client(&server, Protocol::OpenAi, Mode::Live, None);
    let error = complete_blocking(&client, &request("q")).unwrap_err();
    assert!(
        matches!(error, LlmError::Http { status: 401, .. }),
        "{error:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_slow_server_times_out() {
    let server = Server::start();
    server.script(
        OPENAI_PATH,
        vec![Action::Delay(
            Duration::from_secs(2),
            Box::new(openai_reply(r#"{"answer": "x", "score": 1}"#)),
        )],
    );
    let mut profile = profile(&server, Protocol::OpenAi);
    profile.timeout = Duration::from_millis(300);
    let client = LlmClient::new(profile, options(Mode::Live, None)).unwrap();
    let started = Instant::now();
    let error = complete_blocking(&client, &request("q")).unwrap_err();
    assert!(
        matches!(error, LlmError::Timeout { after } if after == Duration::from_millis(300)),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_millis(1500));
}

#[test]
fn a_connection_dropped_mid_response_is_retried() {
    let server = Server::start();
    server.script(
        OPENAI_PATH,
        vec![
            Action::DropMidResponse,
            openai_reply(r#"{"answer": "recovered", "score": 1}"#),
        ],
    );
    let client = client(&server, Protocol::OpenAi, Mode::Live, None);
    let reply = complete_blocking(&client, &request("q")).expect("reply after retry");
    assert_eq!(reply.json["answer"], "recovered");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_refused_connection_is_a_connection_error_after_retries() {
    let refusing = support::RefusingAddress::new();
    let profile = Profile::new("dead", Protocol::OpenAi, &refusing.url(), "m");
    let client = LlmClient::new(profile, options(Mode::Live, None)).unwrap();
    let error = complete_blocking(&client, &request("q")).unwrap_err();
    assert!(matches!(error, LlmError::Connection(_)), "{error:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrency_limit_is_honoured() {
    let server = Server::start();
    let replies = (0..6)
        .map(|i| {
            Action::Delay(
                Duration::from_millis(200),
                Box::new(openai_reply(&format!(
                    r#"{{"answer": "r{i}", "score": {i}}}"#
                ))),
            )
        })
        .collect();
    server.script(OPENAI_PATH, replies);
    let mut profile = profile(&server, Protocol::OpenAi);
    profile.concurrency = 2;
    let client = Arc::new(LlmClient::new(profile, options(Mode::Live, None)).unwrap());
    let mut tasks = Vec::new();
    for i in 0..6 {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            client.complete(&request(&format!("q{i}"))).await
        }));
    }
    for task in tasks {
        task.await.unwrap().expect("reply");
    }
    let max = server.max_concurrent();
    assert!(max <= 2, "max concurrent connections {max}");
    assert_eq!(max, 2, "the two permits were used in parallel");
    // The server counts a connection closed only after it has written the
    // reply the client already read; give its threads a moment.
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    while server.active() != 0 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.active(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_ends_a_request_in_flight() {
    let server = Server::start();
    server.script(
        OPENAI_PATH,
        vec![Action::Delay(
            Duration::from_secs(2),
            Box::new(openai_reply(r#"{"answer": "x", "score": 1}"#)),
        )],
    );
    let client = Arc::new(client(&server, Protocol::OpenAi, Mode::Live, None));
    let token = client.cancel_token();
    let task = {
        let client = client.clone();
        tokio::spawn(async move { client.complete(&request("q")).await })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    token.cancel();
    let result = task.await.unwrap();
    assert!(matches!(result, Err(LlmError::Cancelled)), "{result:?}");
    assert!(started.elapsed() < Duration::from_millis(500));
    // New requests are refused until reset.
    assert!(matches!(
        client.complete(&request("q2")).await,
        Err(LlmError::Cancelled)
    ));
    token.reset();
    assert!(!token.is_cancelled());
}
