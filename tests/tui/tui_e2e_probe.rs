//! End to end: the Probe screen (7) in the real binary, in a real terminal
//! (tmux), against a scripted chatbot and a scripted translator on
//! 127.0.0.1. The chatbot answers one question wrong; the screen shows the
//! run, the rates and the wrong answer with its proved answer, and `a`
//! saves it as a natural-language test on disk.

use crate::probe_bot;
use crate::support;

use precept::probe::ProbeKind;
use probe_bot::{Behaviour, Script, planned, scripted_servers, write_llm_toml};
use std::sync::Arc;
use std::time::Duration;
use support::tmux::Tmux;

const BIN: &str = env!("CARGO_BIN_EXE_precept");
const WAIT: Duration = Duration::from_secs(60);

fn quote(text: &str) -> String {
    assert!(!text.contains('\''), "{text}");
    format!("'{text}'")
}

#[test]
fn the_probe_screen_runs_a_chatbot_steps_to_its_wrong_answer_and_saves_it() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    // The questions the workbench will ask (its defaults: 20, every kind).
    let (questions, loaded) = planned(project.path(), 20, &ProbeKind::ALL);
    let compiled = loaded.compile_strict().unwrap();
    let worker = support::worker(&compiled, Duration::from_secs(10));
    let wrong = questions
        .iter()
        .find(|q| q.kind == ProbeKind::SingleRule)
        .expect("a single-rule question")
        .clone();
    let mut script = Script::new(&questions, |q| {
        if q.id == wrong.id {
            Behaviour::Wrong
        } else {
            Behaviour::Right
        }
    });
    script.add_follow_ups(&worker, &loaded.model, &compiled);
    let script = Arc::new(script);
    let (translator, bot) = scripted_servers(&script);
    write_llm_toml(config.path(), &translator.url, &bot.url);

    let command = format!(
        "env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u PRECEPT_LLM_BASE_URL -u PRECEPT_LLM_MODEL \
         -u PRECEPT_LLM_PROTOCOL -u PRECEPT_LLM_API_KEY_ENV PRECEPT_CONFIG_DIR={} \
         PROBE_BOT_KEY=bot-key PROBE_TRANSLATOR_KEY=translator-key NO_PROXY=127.0.0.1 {} open {}; echo \"EXITED $?\"; exec sleep 60",
        quote(config.path().to_str().unwrap()),
        quote(BIN),
        quote(project.path().to_str().unwrap()),
    );
    let tmux = Tmux::start("probe", &command, (140, 45), WAIT);
    tmux.wait_for(&["Rules"]);
    tmux.keys(&["7"]);
    tmux.wait_for(&["Chatbot under test", "▸ bot", "translator: translator"]);
    tmux.keys(&["r"]);
    let screen = tmux.wait_for(&["done:", "Rates", "By kind", "By rule"]);
    assert!(screen.contains("hallucination"), "{screen}");
    assert!(!bot.requests().is_empty() && !translator.requests().is_empty());

    // n steps through the wrong answers (its variants disagree with it
    // too) until the planted one shows; each step waits for the screen to
    // show the next one, so no key runs ahead of what is seen.
    let title = format!(" · {} ", wrong.id);
    let heading = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains("Wrong answer "))
            .map(|l| l[l.find("Wrong answer ").unwrap()..].to_string())
            .unwrap_or_default()
    };
    let mut screen = tmux.wait_for(&["Wrong answer ", "Verdict", "Proved answer"]);
    for _ in 0..10 {
        if screen.contains(&title) {
            break;
        }
        let before = heading(&screen);
        tmux.keys(&["n"]);
        screen = tmux.wait_until("the next wrong answer", |s| heading(s) != before);
    }
    assert!(
        screen.contains(&title),
        "the planted wrong answer: {screen}"
    );
    assert!(screen.contains("HALLUCINATION"), "{screen}");

    tmux.keys(&["a"]);
    tmux.wait_for(&["saved natural-language test"]);
    let tests_file = project.path().join("tests.json");
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let text = std::fs::read_to_string(&tests_file).unwrap_or_default();
        if text.contains(&format!("probe {}: hallucination", wrong.id)) {
            let json: serde_json::Value = serde_json::from_str(&text).unwrap();
            let saved = json["nl_tests"]
                .as_array()
                .and_then(|tests| tests.last())
                .cloned()
                .expect("a natural-language test");
            assert_eq!(saved["expected"], "INVALID", "{saved:#}");
            assert_eq!(saved["answer"], probe_bot::wrong_answer(&wrong.expected));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "not saved: {text}");
        std::thread::sleep(Duration::from_millis(50));
    }
    tmux.keys(&["q"]);
}
