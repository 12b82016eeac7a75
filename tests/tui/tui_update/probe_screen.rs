//! The Probe screen's keys without a server: 7 asks for the profiles, the
//! translator's is not offered as the chatbot, r without a chatbot says
//! how to add one, r with one starts a probe (and a second r waits for it),
//! progress and the report show, n steps through the wrong answers, esc
//! stops the run, and a reply from an older run is ignored.

use super::*;
use precept::probe::report::{ProbeReport, ProbeResult};
use precept::probe::run::ProbeEvent;
use precept::probe::{ProbeKind, Verdict};

/// A judged probe question, as a finished run reports it.
pub(super) fn result(id: &str, verdict: Verdict) -> ProbeResult {
    ProbeResult {
        id: id.into(),
        kind: ProbeKind::SingleRule,
        question: format!("question {id}?"),
        expected: "yes".into(),
        answer: "No.".into(),
        finding: "INVALID".into(),
        verdict,
        rules: vec!["R13".into()],
        follow_ups: Vec::new(),
        detail: String::new(),
        chain: Vec::new(),
        sources: vec!["Credits cover at most half of the fee.".into()],
    }
}

fn targets(app: &mut App, names: &[&str], translator: Option<&str>) {
    update(
        app,
        Msg::ProbeTargets {
            names: names.iter().map(|n| n.to_string()).collect(),
            translator: translator.map(str::to_string),
            error: None,
        },
    );
}

#[test]
fn seven_lists_the_chatbots_but_not_the_translator() {
    let (_dir, mut app) = park();
    assert_eq!(kinds(&press(&mut app, '7')), ["ListProbeTargets"]);
    assert_eq!(app.screen, Screen::Probe);
    targets(&mut app, &["translator"], Some("translator"));
    assert!(app.probe.profiles.is_empty());
    assert!(press(&mut app, 'r').is_empty());
    let error = app.status.last_error.clone().unwrap_or_default();
    assert!(error.contains("only the translator's profile"), "{error}");
    targets(
        &mut app,
        &["translator", "bot", "other"],
        Some("translator"),
    );
    assert_eq!(app.probe.profiles, ["bot", "other"]);
    press(&mut app, 'j');
    assert_eq!(app.probe.target(), Some("other"));
    assert!(screen_text(&app).contains("▸ other"));
}

#[test]
fn a_run_shows_progress_steps_through_wrong_answers_and_stops_on_esc() {
    let (_dir, mut app) = park();
    press(&mut app, '7');
    targets(&mut app, &["translator", "bot"], Some("translator"));
    let effects = press(&mut app, 'r');
    let Some(Effect::StartProbe { stamp, target, .. }) = effects.first() else {
        panic!("{:?}", kinds(&effects));
    };
    assert_eq!(target, "bot");
    let stamp = *stamp;
    assert!(press(&mut app, 'r').is_empty(), "one run at a time");
    update(
        &mut app,
        Msg::Probed {
            stamp,
            event: ProbeEvent::Planned { questions: 3 },
        },
    );
    for (done, id, verdict) in [
        (1, "Q1", Verdict::Correct),
        (2, "Q2", Verdict::Hallucination),
    ] {
        let event = ProbeEvent::Answered {
            result: Box::new(result(id, verdict)),
            done,
            total: 3,
        };
        update(&mut app, Msg::Probed { stamp, event });
    }
    // A reply from an older run changes nothing.
    let stale = ProbeEvent::Answered {
        result: Box::new(result("OLD", Verdict::Hallucination)),
        done: 3,
        total: 3,
    };
    update(
        &mut app,
        Msg::Probed {
            stamp: another_job(stamp),
            event: stale,
        },
    );
    let screen = screen_text(&app);
    assert!(screen.contains("asking… 2/3 judged"), "{screen}");
    assert!(screen.contains("Wrong answer 1/1 · Q2"), "{screen}");
    assert!(screen.contains("HALLUCINATION"), "{screen}");
    assert_eq!(kinds(&code(&mut app, KeyCode::Esc)), ["CancelProbe"]);
    let report = ProbeReport::new(
        vec![
            result("Q1", Verdict::Correct),
            result("Q2", Verdict::Hallucination),
            result("Q3", Verdict::Incomplete),
        ],
        0,
    );
    update(
        &mut app,
        Msg::ProbeFinished {
            stamp,
            result: Ok(Box::new(report)),
        },
    );
    assert_eq!(app.probe.running, None);
    let screen = screen_text(&app);
    assert!(screen.contains("done: 3 answers judged"), "{screen}");
    assert!(screen.contains("hallucination"), "{screen}");
    press(&mut app, 'n');
    assert!(screen_text(&app).contains("Wrong answer 2/2 · Q3"));
    press(&mut app, 'n');
    assert!(screen_text(&app).contains("Wrong answer 1/2 · Q2"));
    // a saves the wrong answer as a natural-language test expecting its finding.
    let effects = press(&mut app, 'a');
    assert_eq!(kinds(&effects), ["SaveTests"]);
    let saved = app.ws.tests.nl_tests.last().unwrap();
    assert_eq!(saved.answer, "No.");
    assert_eq!(saved.expected, FindingKind::Invalid);
    assert_eq!(saved.name, "probe Q2: hallucination");
}
