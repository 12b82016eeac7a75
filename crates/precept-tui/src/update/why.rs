//! The why overlay: `W` on a test asks the solver (in the background, the
//! newest request winning) for the chain of its actual finding, and for a
//! failing test where the expected and actual findings part ways. Enter on
//! a step jumps to its rule with its span selected in the document; `M`
//! writes the chain as Markdown into the project's `explain/` folder.

use super::navigation::jump_to_rule;
use crate::input::keymap::Action;
use crate::state::app::{App, Overlay, Pane, Screen, TestState};
use crate::state::msg::Effect;
use crate::state::why::{Parting, WhyContent, WhyState, WhySubject};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::explain::describe::{describe, describe_chain};
use precept_engine::explain::markdown::chain_markdown;
use precept_engine::explain::{Chain, Explanation};
use precept_engine::model::finding::FindingKind;
use precept_engine::test_runner::check_test;
use precept_engine::workspace::Stamp;

/// Steps the overlay's list moves by on page keys.
const PAGE_STEPS: isize = 5;

/// `W`: explains the selected test's finding.
pub fn open(app: &mut App) -> Vec<Effect> {
    if app.screen != Screen::Tests || app.focus != Pane::Tests {
        app.status.message = Some("W explains the selected test of the Tests screen (3)".into());
        return Vec::new();
    }
    let Some(test) = app.selected_test().cloned() else {
        app.status.message = Some("no test to explain".into());
        return Vec::new();
    };
    let (premise, claim) = match check_test(&app.ws.compiled, &test) {
        Ok(formulas) => formulas,
        Err(error) => {
            app.status.last_error = Some(format!("{} cannot be explained: {error}", test.id));
            return Vec::new();
        }
    };
    let failing = matches!(app.ws.run.results.get(&test.id), Some(TestState::Done(o)) if !o.passed);
    let stamp = app.ws.stamp();
    app.overlay = Some(Overlay::Why(Box::new(WhyState::new(
        WhySubject::Test {
            id: test.id.clone(),
            expected: test.expected,
        },
        stamp.job,
    ))));
    vec![Effect::ExplainTest {
        stamp,
        premise,
        claim,
        inputs: precept_engine::explain::inputs::inputs(&app.ws.compiled),
        locate_parting: failing,
    }]
}

fn open_why(app: &mut App, stamp: Stamp) -> Option<&mut WhyState> {
    match app.overlay.as_mut() {
        Some(Overlay::Why(why)) if why.job == stamp.job => Some(why),
        _ => None,
    }
}

/// Why a finding has no chain, in words.
fn no_chain_reason(kind: FindingKind, explanation: &Explanation) -> String {
    let rules = explanation
        .finding
        .as_ref()
        .map(|f| f.rules().join(", "))
        .unwrap_or_default();
    match kind {
        FindingKind::Satisfiable => "SATISFIABLE: the facts decide neither the claim nor its \
             negation, so there is no chain. These inputs would decide it:"
            .into(),
        FindingKind::Impossible => format!(
            "IMPOSSIBLE: the premise contradicts the rules {rules}, so no chain leads \
             anywhere from it."
        ),
        FindingKind::Valid | FindingKind::Invalid => format!(
            "The chain could not be built: {}.",
            explanation
                .stopped
                .as_deref()
                .unwrap_or("the solver stopped")
        ),
        other => format!(
            "{}: the solver could not decide the claim, so there is no chain.",
            other.name()
        ),
    }
}

/// The explanation of a test's finding arrived.
pub fn test_explained(
    app: &mut App,
    stamp: Stamp,
    mut explanation: Explanation,
    parting: Option<usize>,
) -> Vec<Effect> {
    describe(
        &mut explanation,
        &app.ws.compiled,
        &app.ws.model,
        app.ws.document.as_deref(),
    );
    let Some(why) = open_why(app, stamp) else {
        return Vec::new();
    };
    let Some(kind) = explanation.finding.as_ref().map(|f| f.kind) else {
        why.content = WhyContent::Failed("the solver gave no finding".into());
        return Vec::new();
    };
    why.actual = Some(kind);
    why.content = match explanation.chain.take() {
        Some(chain) if matches!(kind, FindingKind::Valid | FindingKind::Invalid) => {
            WhyContent::Chain(chain)
        }
        _ => WhyContent::NoChain {
            reason: no_chain_reason(kind, &explanation),
            ask: explanation.relevance.map(|r| r.ask).unwrap_or_default(),
        },
    };
    if let WhySubject::Test { expected, .. } = why.subject
        && expected != kind
    {
        why.parting = Some(match (parting, &why.content) {
            (Some(step), WhyContent::Chain(_)) => Parting::AtStep(step),
            (_, WhyContent::Chain(_)) => Parting::Unlocated(format!(
                "where the findings part ways cannot be located: every step also follows \
                 from other rules, so no single one rules out {}",
                expected.name()
            )),
            _ => Parting::Unlocated(format!(
                "the actual finding is {}: with no chain, there is no step where it parts \
                 ways with the expected {}",
                kind.name(),
                expected.name()
            )),
        });
    }
    Vec::new()
}

/// The chain of a forced value arrived.
pub fn value_chained(
    app: &mut App,
    stamp: Stamp,
    chain: Result<Option<Chain>, crate::state::job_error::JobError>,
) {
    let chain = chain.map(|chain| {
        chain.map(|mut chain| {
            describe_chain(
                &mut chain,
                &app.ws.compiled,
                &app.ws.model,
                app.ws.document.as_deref(),
            );
            chain
        })
    });
    let Some(why) = open_why(app, stamp) else {
        return;
    };
    why.content = match chain {
        Ok(Some(chain)) => WhyContent::Chain(chain),
        Ok(None) => WhyContent::NoChain {
            reason: "The value is no longer forced: there is no chain.".into(),
            ask: Vec::new(),
        },
        Err(error) => WhyContent::Failed(error.to_string()),
    };
}

/// Keys of the why overlay.
pub fn key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let action = app.keymap.action_for(&key);
    let Some(Overlay::Why(why)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    let steps = why.chain().map_or(0, |c| c.steps.len());
    let height = usize::from(app.size.1).saturating_sub(8) / 4;
    match action {
        Some(Action::Down) => why.cursor.step(1, steps, height),
        Some(Action::Up) => why.cursor.step(-1, steps, height),
        Some(Action::PageDown) => why.cursor.step(PAGE_STEPS, steps, height),
        Some(Action::PageUp) => why.cursor.step(-PAGE_STEPS, steps, height),
        Some(Action::Top) => why.cursor.step(isize::MIN / 2, steps, height),
        Some(Action::Bottom) => why.cursor.step(isize::MAX / 2, steps, height),
        Some(Action::Open) => {
            let rule = why
                .chain()
                .and_then(|c| c.steps.get(why.cursor.selected))
                .and_then(|s| s.rules.first().cloned());
            if let Some(rule) = rule {
                app.overlay = None;
                jump_to_rule(app, &rule);
            }
        }
        Some(Action::CopyMarkdown) => return copy_markdown(app),
        _ if matches!(key.code, KeyCode::Esc | KeyCode::Char('q')) => {
            let working = why.content == WhyContent::Working;
            app.overlay = None;
            if working {
                return vec![Effect::CancelExplain];
            }
        }
        _ => {}
    }
    Vec::new()
}

/// `M`: the chain as Markdown, written to `explain/<test>.md`.
fn copy_markdown(app: &mut App) -> Vec<Effect> {
    let Some(Overlay::Why(why)) = app.overlay.as_ref() else {
        return Vec::new();
    };
    let Some(chain) = why.chain() else {
        app.status.message = Some("there is no chain to copy".into());
        return Vec::new();
    };
    vec![Effect::WriteProjectFile {
        path: why.markdown_path(),
        contents: chain_markdown(chain),
    }]
}
