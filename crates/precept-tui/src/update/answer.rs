//! The verify screen's question-and-answer mode: type or paste a Q/A, watch
//! the k translations arrive, see the findings, and save the check as a
//! natural-language test with the finding the expert expects.

use crate::state::app::{App, Overlay, Pane, VerifyMode};
use crate::state::freshness::Basis;
use crate::state::msg::Effect;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept_engine::answer::{AnswerReport, VerifyEvent};
use precept_engine::workspace::Reads;
use precept_engine::workspace::Stamp;

/// ctrl-t on the verify screen: switch between logic and question/answer.
/// ctrl-t on the verify screen: switches what is asked. The keyboard stays
/// where it was: out of the inputs, keys go on switching screens.
pub fn toggle_mode(app: &mut App) {
    app.verify.mode = match app.verify.mode {
        VerifyMode::Logic | VerifyMode::Consultant => VerifyMode::Answer,
        VerifyMode::Answer => VerifyMode::Logic,
    };
    app.detail_scroll = 0;
}

/// Keys while typing the question and answer.
pub fn input_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let qa = &mut app.verify.qa;
    match key.code {
        KeyCode::Esc => app.focus = Pane::VerifyResult,
        KeyCode::Tab | KeyCode::BackTab | KeyCode::Up | KeyCode::Down => qa.field = 1 - qa.field,
        KeyCode::Enter => return run_check(app),
        KeyCode::Char('s') if ctrl => {
            if qa.report.is_some() {
                app.overlay = Some(Overlay::ExpectPrompt);
            } else {
                app.status.message =
                    Some("check the answer first (enter), then save it as a test".into());
            }
        }
        _ => {
            let field = if qa.field == 0 {
                &mut qa.question
            } else {
                &mut qa.answer
            };
            field.input(key);
        }
    }
    Vec::new()
}

pub fn run_check(app: &mut App) -> Vec<Effect> {
    let qa = &mut app.verify.qa;
    let question = qa.question.lines().join("\n").trim().to_string();
    let answer = qa.answer.lines().join("\n").trim().to_string();
    if answer.is_empty() {
        qa.error = Some("type the answer (or statement) to check".into());
        return Vec::new();
    }
    let stamp = app.ws.stamp();
    qa.job = stamp.job;
    qa.running = true;
    qa.error = None;
    qa.report = None;
    qa.translations.clear();
    qa.asked = 0;
    qa.solving = None;
    qa.basis = Basis::new(stamp.revision, Reads::Model);
    app.status.job = Some("translating the answer".into());
    vec![Effect::CheckAnswer {
        stamp,
        question,
        answer,
        model: Box::new(app.ws.model.clone()),
        compiled: Box::new(app.ws.compiled.clone()),
        redundancy: crate::state::msg::Redundancy {
            translations: app.ws.answer_translations,
            threshold: app.ws.answer_threshold,
        },
    }]
}

pub fn progress(app: &mut App, stamp: Stamp, event: VerifyEvent) -> Vec<Effect> {
    let qa = &mut app.verify.qa;
    if stamp.job != qa.job || !qa.running {
        return Vec::new();
    }
    match event {
        VerifyEvent::Started { translations } => qa.asked = translations,
        VerifyEvent::Retrying { .. } => {}
        VerifyEvent::Translated { translation } => qa.translations.push(*translation),
        VerifyEvent::Solving { pairs } => qa.solving = Some(pairs),
    }
    app.status.job = Some(match qa.solving {
        Some(pairs) => format!("solving {pairs} distinct pair(s)"),
        None => format!("translations {}/{}", qa.translations.len(), qa.asked),
    });
    Vec::new()
}

pub fn checked(
    app: &mut App,
    stamp: Stamp,
    result: Result<Box<AnswerReport>, crate::state::job_error::JobError>,
) -> Vec<Effect> {
    let qa = &mut app.verify.qa;
    if stamp.job != qa.job {
        return Vec::new();
    }
    qa.running = false;
    app.status.job = None;
    match result {
        Ok(report) => {
            app.status.message = Some(format!(
                "{} · ctrl-s saves it as a natural-language test",
                report.finding
            ));
            qa.report = Some(report);
        }
        Err(error) => qa.error = Some(error.to_string()),
    }
    Vec::new()
}
