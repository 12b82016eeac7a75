//! End to end: the workbench's LLM features in the real binary, in a real
//! terminal (tmux), against the scripted HTTP server on 127.0.0.1. Formalize
//! (`6`, `F`) shows per-span progress, adopts the composed model as one
//! undoable edit and can be stopped with esc; repair from feedback (`w`)
//! shows the proposed edit as a diff with the tests it flips, and an
//! accepted edit is saved and undoable. Each test has its own tmux server
//! and config folder; the server is killed when the test ends.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};
use support::copy_sample;
use support::llm_server::{OPENAI_PATH, Recorded, Server, openai_json};
use support::workbench::{Open, Workbench};

const WAIT: Duration = Duration::from_secs(15);
/// The span whose every reply is unusable, so that it fails.
const BAD_SPAN: &str = "S3";
const R6_BROKEN: &str = "(=> (= ageClass CHILD) (= discountRate 0.4))";
const R6_FIXED: &str = "(=> (= ageClass CHILD) (= discountRate 0.5))";
const FEEDBACK: &str = "Children get 50% off, not 40%.";

/// The workbench on `dir` in a 120×40 pane, with the LLM profile pointing
/// at `llm_url`.
fn open(name: &str, dir: &Path, llm_url: &str) -> Workbench {
    let how = Open {
        size: (120, 40),
        llm_url: Some(llm_url),
        wait: WAIT,
        ..Open::default()
    };
    Workbench::open(&format!("e2e-llm-{name}"), dir, how)
}

/// Polls `check` on what is on disk until it holds (saves are atomic but
/// happen on the app's own schedule).
fn wait_on_disk(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !check() {
        assert!(Instant::now() < deadline, "waited {WAIT:?} for {what}");
        std::thread::sleep(Duration::from_millis(40));
    }
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

fn model_json(dir: &Path) -> Value {
    read_json(&dir.join("model.json"))
}

fn rule<'a>(model: &'a Value, id: &str) -> &'a Value {
    model["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no rule {id} in {model}"))
}

// ---------------------------------------------------------------- formalize

/// The park project with an empty model and no tests (policy.md and
/// precept.json, which names it, stay).
fn empty_park_project() -> tempfile::TempDir {
    let dir = copy_sample("park-admission");
    fs::write(
        dir.path().join("model.json"),
        r#"{"schema_version": 1, "types": [], "variables": [], "rules": []}"#,
    )
    .unwrap();
    fs::write(
        dir.path().join("tests.json"),
        r#"{"schema_version": 1, "tests": []}"#,
    )
    .unwrap();
    dir
}

/// The span id a formalization prompt is about (`Span S4 (bytes …`).
fn span_of(request: &Recorded) -> Option<u32> {
    let prompt = request.user_prompt();
    let at = prompt.find("Span S")?;
    let rest = &prompt[at + "Span S".len()..];
    if !rest.contains("(bytes") {
        return None;
    }
    rest.split_whitespace().next()?.parse().ok()
}

/// Answers span n with a unit that declares the two variables every span
/// shares and the rule `(=> (>= visitorAge n) isEntryAllowed)`; the bad
/// span always gets a unit whose rule uses an undeclared name.
fn formalizing_server(latency: Duration) -> Server {
    formalizing_server_failing(latency, Some(BAD_SPAN))
}

/// `formalizing_server`, with `bad` the span that always fails (None: none
/// does). A definition request gets no usable reply, so the rules' shapes'
/// proposal stands.
fn formalizing_server_failing(latency: Duration, bad: Option<&'static str>) -> Server {
    let server = Server::start();
    server.set_latency(latency);
    server.respond_with(move |request| {
        if support::llm_server::is_vocabulary_request(request) {
            return support::llm_server::empty_vocabulary();
        }
        let Some(n) = span_of(request) else {
            return openai_json(&json!({"error": "not a span prompt"}));
        };
        let variables = json!([
            {"name": "isEntryAllowed", "type": "Bool",
             "description": "whether the visitor may enter the park"},
            {"name": "visitorAge", "type": "Int",
             "description": "the age of the visitor in years"}
        ]);
        let expression = if Some(format!("S{n}").as_str()) == bad {
            "(=> undeclaredThing isEntryAllowed)".to_string()
        } else {
            format!("(=> (>= visitorAge {n}) isEntryAllowed)")
        };
        openai_json(&json!({
            "types": [],
            "variables": variables,
            "rules": [{"expression": expression, "source_text": format!("span {n}")}]
        }))
    });
    server
}

/// The number of ✓ and ✗ marks at the start of the spans list's rows.
fn marks(screen: &str) -> (usize, usize) {
    let row_marks = screen.lines().filter_map(|line| {
        let line = line.trim_start_matches(['│', ' ']);
        line.chars().next()
    });
    row_marks.fold((0, 0), |(ok, bad), c| match c {
        '✓' => (ok + 1, bad),
        '✗' => (ok, bad + 1),
        _ => (ok, bad),
    })
}

#[test]
fn formalizing_from_the_workbench_shows_progress_and_is_one_undoable_edit() {
    let dir = empty_park_project();
    let empty_model = fs::read_to_string(dir.path().join("model.json")).unwrap();
    let server = formalizing_server(Duration::from_millis(300));
    let session = open("formalize", dir.path(), &server.url);
    session.wait_for(&["0 passed, 0 failed"]);

    session.keys(&["6"]);
    session.wait_for(&["Not formalized by Precept yet"]);
    // An empty model: the first F starts at once.
    session.keys(&["F"]);
    // The spans appear once the document is split, each asking or waiting.
    session.wait_until("spans asking or waiting", |screen| {
        screen.contains("Formalizing ")
            && screen.contains("formalizing")
            && (screen.contains("asking") || screen.contains("waiting"))
    });

    let done = session.wait_for(&["formalized 11 of 12 spans", "Clusters"]);
    assert!(done.contains("Spans · 11 formalized, 1 failed"), "{done}");
    assert_eq!(marks(&done), (11, 1), "{done}");
    assert!(done.contains("rejected ×3"), "{done}");
    // The bad span went back to the LLM with its problems; the good ones were
    // asked once. (Round 3 repeats round 2's prompt word for word, so today
    // the client answers it from its reply cache: two requests, three rounds.)
    let requests = server.requests();
    let asked = |n| requests.iter().filter(|r| span_of(r) == Some(n)).count();
    assert!((2..=3).contains(&asked(3)), "{} requests for S3", asked(3));
    assert!((1..=12).filter(|&n| n != 3).all(|n| asked(n) == 1));
    assert!(
        requests
            .iter()
            .filter(|r| span_of(r) == Some(3))
            .any(|r| r.user_prompt().contains("could not be used")),
        "the repair round names the problems"
    );

    // Saved at once: 11 distinct rules, all unreviewed, and the record.
    wait_on_disk("the formalized model on disk", || {
        model_json(dir.path())["rules"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    });
    let model = model_json(dir.path());
    let rules = model["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 11, "{model:#}");
    assert!(
        rules.iter().all(|r| r["review"] == "unreviewed"),
        "{model:#}"
    );
    assert!(
        rules
            .iter()
            .all(|r| !r["expression"].as_str().unwrap().contains("undeclared")),
        "{model:#}"
    );
    let record = read_json(&dir.path().join("formalization.json"));
    assert_eq!(record["spans"].as_array().unwrap().len(), 12, "{record:#}");

    // Now that the model has rules, F first asks (and asks nothing of the LLM).
    let before_ask = server.requests().len();
    session.keys(&["F"]);
    session.wait_for(&["press F again to replace the 11 rules"]);
    assert_eq!(server.requests().len(), before_ask);

    // Undo brings back the empty model, on disk too.
    session.keys(&["u"]);
    session.wait_for(&["undid: formalize the document"]);
    wait_on_disk("the empty model back on disk", || {
        model_json(dir.path())["rules"]
            .as_array()
            .is_some_and(|r| r.is_empty())
    });
    let restored: Value = model_json(dir.path());
    let empty: Value = serde_json::from_str(&empty_model).unwrap();
    assert_eq!(restored["rules"], empty["rules"]);
    // The record goes with the formalization it describes.
    wait_on_disk("formalization.json to be removed", || {
        !dir.path().join("formalization.json").exists()
    });
    session.wait_for(&["Not formalized by Precept yet"]);
    assert_eq!(restored["variables"], empty["variables"]);
}

/// The number of requests the server has seen, once there is at least one
/// and no new one has come for 200 ms.
#[test]
fn formalizing_from_the_workbench_joins_each_decision_in_one_definition() {
    // Every span formalizes, each with its own way into the park: the
    // definition pass, as `precept formalize` runs it, joins them.
    let dir = empty_park_project();
    let server = formalizing_server_failing(Duration::ZERO, None);
    let session = open("formalize-define", dir.path(), &server.url);
    session.wait_for(&["0 passed, 0 failed"]);
    session.keys(&["6"]);
    session.wait_for(&["Not formalized by Precept yet"]);
    session.keys(&["F"]);
    let done = session.wait_for(&[
        "formalized 12 of 12 spans",
        "1 decision(s) joined in one definition each",
    ]);
    assert!(done.contains("Clusters"), "{done}");
    wait_on_disk("the defined model on disk", || {
        model_json(dir.path())["definitions"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    });
    let model = model_json(dir.path());
    let definition = &model["definitions"][0];
    assert_eq!(definition["variable"], "isEntryAllowed", "{model:#}");
    assert_eq!(definition["cases"].as_array().unwrap().len(), 12);
    // The record keeps what it replaced, for review.
    let record = read_json(&dir.path().join("formalization.json"));
    let defined = record["definitions"].as_array().expect("definitions");
    assert_eq!(defined.len(), 1, "{record:#}");
    assert_eq!(defined[0]["replaced"].as_array().unwrap().len(), 12);
    // The LLM was asked for the definition, and its unusable reply is a
    // note, not a failure.
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.user_prompt().contains("isEntryAllowed") && span_of(r).is_none()),
        "the definition request was sent"
    );
    assert!(
        record["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("definition reply refused")),
        "{record:#}"
    );
    // The Rules screen shows the definition as one block.
    session.keys(&["1"]);
    let screen = session.wait_for(&["Definition D1 of isEntryAllowed"]);
    assert!(screen.contains("Cases"), "{screen}");
}

#[test]
fn formalizing_from_the_workbench_follows_the_projects_formalize_options() {
    // The project says: no definition pass, one round per span. The same
    // server as above then gives no definition, and the bad span is asked
    // once, not repaired.
    let dir = empty_park_project();
    let settings_path = dir.path().join("precept.json");
    let mut settings = read_json(&settings_path);
    settings["formalize"] = json!({
        "span_budget": 3000, "max_rounds": 1, "embedder": "lexical",
        "embedding_model": "text-embedding-3-small", "definitions": false
    });
    fs::write(&settings_path, settings.to_string()).unwrap();
    let server = formalizing_server(Duration::ZERO);
    let session = open("formalize-options", dir.path(), &server.url);
    session.wait_for(&["0 passed, 0 failed"]);
    session.keys(&["6"]);
    session.wait_for(&["Not formalized by Precept yet"]);
    session.keys(&["F"]);
    let done = session.wait_for(&["formalized 11 of 12 spans"]);
    assert!(!done.contains("joined in one definition"), "{done}");
    wait_on_disk("the formalized model on disk", || {
        model_json(dir.path())["rules"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    });
    assert!(model_json(dir.path()).get("definitions").is_none());
    let asked = server
        .requests()
        .iter()
        .filter(|r| span_of(r) == Some(3))
        .count();
    assert_eq!(asked, 1, "one round per span");
    assert!(
        !server
            .requests()
            .iter()
            .any(|r| r.user_prompt().contains("Decision: ")),
        "no definition asked for"
    );
}

fn settled_request_count(server: &Server) -> usize {
    let deadline = Instant::now() + WAIT;
    let (mut count, mut since) = (0, Instant::now());
    loop {
        let now = server.requests().len();
        if now != count {
            (count, since) = (now, Instant::now());
        } else if count > 0 && since.elapsed() >= Duration::from_millis(200) {
            return count;
        }
        assert!(Instant::now() < deadline, "waited {WAIT:?} for requests");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn esc_stops_a_formalization_and_leaves_the_model_unchanged() {
    let dir = empty_park_project();
    let before = fs::read(dir.path().join("model.json")).unwrap();
    // Slow enough that the run is certainly still going when esc arrives.
    let server = formalizing_server(Duration::from_millis(1500));
    let session = open("stop", dir.path(), &server.url);
    session.wait_for(&["0 passed, 0 failed"]);

    session.keys(&["6", "F"]);
    session.wait_for(&["Formalizing "]);
    // Esc while the first requests are in flight (all of them sent: the
    // count has settled).
    let asked = settled_request_count(&server);
    assert!((1..12).contains(&asked), "{asked} requests before esc");
    session.keys(&["Escape"]);
    let stopped = session.wait_for(&["formalization stopped; the model is unchanged"]);
    assert!(!stopped.contains("Formalizing "), "{stopped}");

    // Nothing arrives later: once the replies that were in flight have been
    // sent (and a moment to handle them), the run has asked for no further
    // span and the model is still the empty one.
    wait_on_disk("the replies in flight to be sent", || server.active() == 0);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.requests().len(), asked, "no span is asked after esc");
    let screen = session.screen();
    assert!(!screen.contains("of 12 spans"), "{screen}");
    assert!(screen.contains("Not formalized by Precept yet"), "{screen}");
    assert_eq!(fs::read(dir.path().join("model.json")).unwrap(), before);
    assert!(!dir.path().join("formalization.json").exists());
}

// ------------------------------------------------------------------- repair

/// The park project with R6 broken (children get 40% off instead of 50%),
/// and a server that answers the first request with the edit that fixes it.
fn broken_park_and_server() -> (tempfile::TempDir, Server) {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("model.json");
    let original = fs::read_to_string(&path).unwrap();
    assert!(original.contains(R6_FIXED));
    fs::write(&path, original.replace(R6_FIXED, R6_BROKEN)).unwrap();
    let server = Server::start();
    server.script(
        OPENAI_PATH,
        vec![openai_json(&json!({"edits": [{
            "kind": "replace_rule", "rule_id": "R6", "expression": R6_FIXED,
            "name": "", "type": "", "description": "", "reason": "children pay half"
        }]}))],
    );
    (dir, server)
}

/// Selects R6 (the rules list has the focus: R1 down to R6), opens the
/// feedback box with `w`, types the feedback and sends it.
fn send_feedback_on_r6(session: &Workbench) {
    session.wait_for(&["17 passed, 1 failed"]);
    session.keys(&["j", "j", "j", "j", "j"]);
    session.wait_for(&["R6 · "]);
    session.keys(&["w"]);
    session.wait_for(&["What is wrong with R6?", "enter asks the LLM"]);
    session.type_text(FEEDBACK);
    session.wait_for(&[FEEDBACK]);
    session.keys(&["Enter"]);
}

#[test]
fn repair_from_feedback_shows_the_diff_and_flips_and_is_undoable() {
    let (dir, server) = broken_park_and_server();
    let session = open("repair", dir.path(), &server.url);
    send_feedback_on_r6(&session);

    let proposed = session.wait_for(&[
        "1 replace R6",
        "children pay half",
        &format!("- {R6_BROKEN}"),
        &format!("+ {R6_FIXED}"),
    ]);
    assert!(
        proposed.contains("was: ") && proposed.contains("now: "),
        "{proposed}"
    );
    let flips = session.wait_for(&["tests: ↑T17"]);
    assert!(!flips.contains("↓"), "{flips}");

    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one request for one repair");
    let prompt = requests[0].user_prompt();
    assert!(prompt.contains(FEEDBACK), "{prompt}");
    // The selected rule is R6 as it stands, and only R6.
    let selected = prompt
        .split("## The selected rules")
        .nth(1)
        .and_then(|rest| rest.split("## What the expert says").next())
        .unwrap_or_else(|| panic!("no selected rules in the prompt:\n{prompt}"));
    assert!(selected.contains("R6"), "{prompt}");
    assert!(selected.contains(R6_BROKEN), "{prompt}");
    assert!(!selected.contains("R7"), "{prompt}");

    session.keys(&["y"]);
    session.wait_for(&["accepted"]);
    session.keys(&["Escape"]);
    session.wait_until("the overlay to close", |s| !s.contains("What is wrong"));
    session.wait_for(&["18 passed, 0 failed", "1 failed→passed"]);

    let fixed = model_json(dir.path());
    let r6 = rule(&fixed, "R6");
    assert_eq!(r6["expression"], R6_FIXED);
    assert_eq!(r6["review"], "unreviewed");

    session.keys(&["u"]);
    wait_on_disk("R6 broken again on disk", || {
        rule(&model_json(dir.path()), "R6")["expression"] == R6_BROKEN
    });
    session.wait_for(&["17 passed, 1 failed"]);
}

/// Esc while the LLM is being asked closes the overlay; the reply that
/// arrives later is dropped, and the status line must not keep spinning on
/// "asking the LLM for a repair" (it shows the test counts again).
#[test]
fn closing_the_repair_overlay_while_asking_leaves_no_spinner() {
    let (dir, server) = broken_park_and_server();
    server.set_latency(Duration::from_millis(500));
    let session = open("repair-esc", dir.path(), &server.url);
    send_feedback_on_r6(&session);
    session.wait_for(&["asking the LLM for edits"]);
    session.keys(&["Escape"]);
    session.wait_until("the overlay to close", |s| !s.contains("What is wrong"));
    wait_on_disk("the reply to be sent", || server.active() == 0);
    let screen = session.wait_until("the spinner to stop", |s| {
        !s.contains("asking the LLM for a repair")
    });
    assert!(screen.contains("17 passed, 1 failed"), "{screen}");
    assert_eq!(rule(&model_json(dir.path()), "R6")["expression"], R6_BROKEN);
}
