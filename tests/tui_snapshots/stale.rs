//! Results an LLM helped make, drawn after an edit has made them stale: the
//! verify screen's answer check and the probe's report, each naming the
//! edit. The LLM's replies are the test's own messages: nothing is sent.

use super::*;
use precept::answer::AnswerReport;
use precept::probe::report::{ProbeReport, ProbeResult};
use precept::probe::{ProbeKind, Verdict};
use precept::solve::FindingKind;

/// Sends a key without carrying out its effects (an LLM call stays unsent).
fn key_unsent(bench: &mut Bench, code: KeyCode) -> Vec<Effect> {
    update(
        &mut bench.app,
        Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)),
    )
}

/// Deletes R1 on the rules screen: the edit that makes the results stale.
fn delete_r1(bench: &mut Bench) {
    bench.press('1');
    bench.press('g');
    assert_eq!(bench.app.selected_rule().unwrap().id, "R1");
    bench.press('d');
    assert!(bench.app.ws.model.rule("R1").is_none());
}

#[test]
fn an_answer_check_after_an_edit() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('4');
        bench.key(KeyCode::Char('t'), KeyModifiers::CONTROL);
        bench.type_text("I am a senior with $35.40. Can I visit in the low season?");
        bench.key(KeyCode::Tab, KeyModifiers::NONE);
        bench.type_text("No, you cannot visit the park.");
        let effects = key_unsent(&mut bench, KeyCode::Enter);
        let Some(Effect::CheckAnswer { stamp, .. }) = effects.first() else {
            panic!("the check is asked for");
        };
        let report = AnswerReport {
            finding: FindingKind::NoTranslations,
            question: "I am a senior with $35.40. Can I visit in the low season?".into(),
            answer: "No, you cannot visit the park.".into(),
            k: 3,
            threshold: 0.5,
            reason: Some("none of the 3 translations stated a claim".into()),
            deciding_pair: None,
            pairs: Vec::new(),
            untranslated: Vec::new(),
            translations: Vec::new(),
            feedback: String::new(),
            timing: Default::default(),
        };
        let stamp = *stamp;
        update(
            &mut bench.app,
            Msg::AnswerChecked {
                stamp,
                result: Ok(Box::new(report)),
            },
        );
        bench.key(KeyCode::Esc, KeyModifiers::NONE);
        delete_r1(&mut bench);
        bench.press('4');
        assert!(bench.screen_text().contains("STALE since delete rule R1"));
        insta::assert_snapshot!(name("verify_answer_stale", size), bench.screen_text());
    }
}

fn probe_result(id: &str, verdict: Verdict) -> ProbeResult {
    ProbeResult {
        id: id.into(),
        kind: ProbeKind::SingleRule,
        question: format!("A senior visits in the low season ({id}): may they enter?"),
        expected: "yes".into(),
        answer: "No.".into(),
        finding: "INVALID".into(),
        verdict,
        rules: vec!["R1".into()],
        follow_ups: Vec::new(),
        detail: String::new(),
        chain: Vec::new(),
        sources: Vec::new(),
    }
}

#[test]
fn a_probe_report_after_an_edit() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        // The profiles are the test's: llm.toml is not read.
        key_unsent(&mut bench, KeyCode::Char('7'));
        update(
            &mut bench.app,
            Msg::ProbeTargets {
                names: vec!["translator".into(), "bot".into()],
                translator: Some("translator".into()),
                error: None,
            },
        );
        let effects = key_unsent(&mut bench, KeyCode::Char('r'));
        let Some(Effect::StartProbe { stamp, .. }) = effects.first() else {
            panic!("the probe is started");
        };
        let stamp = *stamp;
        let report = ProbeReport::new(
            vec![
                probe_result("Q1", Verdict::Correct),
                probe_result("Q2", Verdict::Hallucination),
            ],
            0,
        );
        update(
            &mut bench.app,
            Msg::ProbeFinished {
                stamp,
                result: Ok(Box::new(report)),
            },
        );
        delete_r1(&mut bench);
        key_unsent(&mut bench, KeyCode::Char('7'));
        assert!(bench.screen_text().contains("STALE since delete rule R1"));
        insta::assert_snapshot!(name("probe_stale", size), bench.screen_text());
    }
}
