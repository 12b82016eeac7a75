//! The verify screen's consultant mode: facts set one by one on the
//! model's inputs (an enum value chosen, a Bool toggled, a number typed),
//! each change asking the solver again in the background (the newest
//! request wins); enter on a forced value asks for its chain; ctrl-s saves
//! the facts as a test's premise through the save-as-test flow.

use crate::input::keymap::Action;
use crate::state::app::{App, Overlay, VerifyMode};
use crate::state::consultant::{ConsultantFocus, Fact, ValueEntry, premise_text};
use crate::state::msg::Effect;
use crate::state::why::{WhyState, WhySubject};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::explain::Explanation;
use precept_engine::explain::describe::describe;
use precept_engine::explain::inputs::inputs;
use precept_engine::smt::Sort;
use precept_engine::workspace::Stamp;
use ratatui_textarea::TextArea;

/// Rows the consultant's lists show (the screen less its frame).
fn list_height(app: &App) -> usize {
    usize::from(app.size.1).saturating_sub(8)
}

/// `ctrl-o`: into consultant mode (asking at once what the facts force),
/// or back to logic.
pub fn toggle(app: &mut App) -> Vec<Effect> {
    if app.verify.mode == VerifyMode::Consultant {
        app.verify.mode = VerifyMode::Logic;
        return Vec::new();
    }
    app.verify.mode = VerifyMode::Consultant;
    app.detail_scroll = 0;
    refresh(app)
}

/// After an edit, undo or redo: the variables and the answer again (facts
/// on variables that are gone are dropped).
pub fn react_to_edits(app: &mut App) -> Vec<Effect> {
    let changes = app.ws.history.changes();
    if app.verify.mode != VerifyMode::Consultant || app.verify.consultant.seen_changes == changes {
        return Vec::new();
    }
    app.verify.consultant.seen_changes = changes;
    if app.verify.consultant.model == app.ws.revision().model {
        return Vec::new();
    }
    refresh(app)
}

fn refresh(app: &mut App) -> Vec<Effect> {
    let height = list_height(app);
    let consultant = &mut app.verify.consultant;
    consultant.inputs = inputs(&app.ws.compiled);
    let derived = app
        .ws
        .compiled
        .variables
        .iter()
        .map(|(name, _)| name)
        .filter(|name| !consultant.inputs.contains(name))
        .cloned()
        .collect::<Vec<_>>();
    consultant.variables = consultant.inputs.iter().cloned().chain(derived).collect();
    consultant
        .facts
        .retain(|f| consultant.variables.contains(&f.variable));
    let claim = app.verify.claim.lines().join(" ");
    let claim = claim.trim();
    consultant.claim = (!claim.is_empty() && app.ws.compiled.check_formula(claim).is_ok())
        .then(|| claim.to_string());
    let len = consultant.variables.len();
    consultant.input_cursor.step(0, len, height);
    recompute(app)
}

/// Asks the solver what the facts force (replacing an older request).
pub fn recompute(app: &mut App) -> Vec<Effect> {
    let consultant = &mut app.verify.consultant;
    let premise = match app
        .ws
        .compiled
        .check_formula(&premise_text(&consultant.facts))
    {
        Ok((_, premise)) => premise,
        Err(error) => {
            consultant.error = Some(format!("the facts do not check: {error}"));
            return Vec::new();
        }
    };
    let claim = consultant
        .claim
        .as_deref()
        .and_then(|c| app.ws.compiled.check_formula(c).ok())
        .map(|(_, claim)| claim);
    consultant.error = None;
    consultant.model = app.ws.revision().model;
    consultant.seen_changes = app.ws.history.changes();
    let stamp = app.ws.stamp();
    consultant.job = stamp.job;
    consultant.running = true;
    consultant.started = app.tick;
    vec![Effect::Consult {
        stamp,
        premise,
        claim,
        inputs: consultant.inputs.clone(),
    }]
}

/// The solver's answer for request `ticket`.
pub fn consulted(app: &mut App, stamp: Stamp, mut explanation: Explanation) {
    if stamp.job != app.verify.consultant.job {
        return;
    }
    describe(
        &mut explanation,
        &app.ws.compiled,
        &app.ws.model,
        app.ws.document.as_deref(),
    );
    let height = list_height(app);
    let consultant = &mut app.verify.consultant;
    consultant.running = false;
    let forced = explanation.propagation.forced.len();
    consultant.explanation = Some(explanation);
    consultant.forced_cursor.step(0, forced, height);
}

fn set_fact(app: &mut App, variable: String, value: String) -> Vec<Effect> {
    let facts = &mut app.verify.consultant.facts;
    match facts.iter_mut().find(|f| f.variable == variable) {
        Some(fact) => fact.value = value,
        None => facts.push(Fact { variable, value }),
    }
    recompute(app)
}

fn sort_of(app: &App, variable: &str) -> Option<Sort> {
    app.ws
        .compiled
        .variables
        .iter()
        .find(|(name, _)| name == variable)
        .map(|(_, sort)| sort.clone())
}

/// Enter on an input: choose, toggle or type its value.
fn enter_value(app: &mut App) -> Vec<Effect> {
    let Some(variable) = app.verify.consultant.selected_input().map(str::to_string) else {
        return Vec::new();
    };
    let current = app
        .verify
        .consultant
        .fact_of(&variable)
        .map(|f| f.value.clone());
    match sort_of(app, &variable) {
        Some(Sort::Bool) => {
            let value = if current.as_deref() == Some("true") {
                "false"
            } else {
                "true"
            };
            return set_fact(app, variable, value.into());
        }
        Some(Sort::Enum(type_name)) => {
            let values = app
                .ws
                .compiled
                .enums
                .iter()
                .find(|(name, _)| *name == type_name)
                .map(|(_, values)| values.clone())
                .unwrap_or_default();
            let cursor = current
                .and_then(|c| values.iter().position(|v| *v == c))
                .unwrap_or(0);
            app.verify.consultant.entry = Some(ValueEntry::Choice {
                variable,
                values,
                cursor,
            });
        }
        _ => {
            let mut input = TextArea::new(vec![current.unwrap_or_default()]);
            input.move_cursor(ratatui_textarea::CursorMove::End);
            input.set_placeholder_text("a number, e.g. 35.4");
            app.verify.consultant.entry = Some(ValueEntry::Number {
                variable,
                input: Box::new(input),
                error: None,
            });
        }
    }
    Vec::new()
}

/// Keys while a value is being chosen or typed.
fn entry_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(entry) = app.verify.consultant.entry.as_mut() else {
        return Vec::new();
    };
    if key.code == KeyCode::Esc {
        app.verify.consultant.entry = None;
        return Vec::new();
    }
    match entry {
        ValueEntry::Choice {
            variable,
            values,
            cursor,
        } => match key.code {
            KeyCode::Down | KeyCode::Char('j') => {
                *cursor = (*cursor + 1).min(values.len().saturating_sub(1))
            }
            KeyCode::Up | KeyCode::Char('k') => *cursor = cursor.saturating_sub(1),
            KeyCode::Enter => {
                let (variable, value) = (variable.clone(), values.get(*cursor).cloned());
                app.verify.consultant.entry = None;
                if let Some(value) = value {
                    return set_fact(app, variable, value);
                }
            }
            _ => {}
        },
        ValueEntry::Number {
            variable,
            input,
            error,
        } => match key.code {
            KeyCode::Enter => {
                let value = input.lines().join("").trim().to_string();
                let fact = Fact {
                    variable: variable.clone(),
                    value: value.clone(),
                };
                if value.is_empty() {
                    *error = Some("type a number".into());
                } else if let Err(e) = app.ws.compiled.check_formula(&fact.formula()) {
                    *error = Some(format!("not a value of {variable}: {e}"));
                } else {
                    let variable = variable.clone();
                    app.verify.consultant.entry = None;
                    return set_fact(app, variable, value);
                }
            }
            _ => {
                input.input(key);
                *error = None;
            }
        },
    }
    Vec::new()
}

/// Enter on a forced value: its chain, in the why overlay.
fn open_chain(app: &mut App) -> Vec<Effect> {
    let consultant = &app.verify.consultant;
    let Some(explanation) = &consultant.explanation else {
        return Vec::new();
    };
    let Some(forced) = explanation
        .propagation
        .forced
        .get(consultant.forced_cursor.selected)
    else {
        return Vec::new();
    };
    let Ok((_, premise)) = app
        .ws
        .compiled
        .check_formula(&premise_text(&consultant.facts))
    else {
        return Vec::new();
    };
    let (variable, propagation) = (forced.variable.clone(), explanation.propagation.clone());
    let stamp = app.ws.stamp();
    app.overlay = Some(Overlay::Why(Box::new(WhyState::new(
        WhySubject::Forced {
            variable: variable.clone(),
        },
        stamp.job,
    ))));
    vec![Effect::ChainForValue {
        stamp,
        premise,
        propagation: Box::new(propagation),
        variable,
    }]
}

/// `d`: removes the selected input's fact.
fn remove_fact(app: &mut App) -> Vec<Effect> {
    let Some(variable) = app.verify.consultant.selected_input().map(str::to_string) else {
        return Vec::new();
    };
    let facts = &mut app.verify.consultant.facts;
    let before = facts.len();
    facts.retain(|f| f.variable != variable);
    if facts.len() == before {
        app.status.message = Some(format!("{variable} has no fact to remove"));
        return Vec::new();
    }
    app.status.message = Some(format!("removed the fact on {variable}"));
    recompute(app)
}

/// `ctrl-s`: the facts become the logic mode's premise, saved as a test
/// through the save-as-test flow (expected finding, then a name).
fn save_as_test(app: &mut App) {
    let consultant = &app.verify.consultant;
    if consultant.facts.is_empty() {
        app.status.message = Some("set a fact first (enter on an input)".into());
        return;
    }
    if consultant.claim.is_none() {
        app.status.message =
            Some("a test needs a claim: type one in logic mode (ctrl-o), then come back".into());
        return;
    }
    app.verify.premise = TextArea::new(vec![premise_text(&consultant.facts)]);
    app.overlay = Some(Overlay::ExpectPrompt);
}

/// Keys in consultant mode; None for a key it leaves to the keymap's
/// ordinary actions (screens, help, quit…).
pub fn key(app: &mut App, key: KeyEvent) -> Option<Vec<Effect>> {
    if app.verify.consultant.entry.is_some() {
        return Some(entry_key(app, key));
    }
    let height = list_height(app);
    let consultant = &mut app.verify.consultant;
    let forced = consultant
        .explanation
        .as_ref()
        .map_or(0, |e| e.propagation.forced.len());
    let (cursor, len) = match consultant.focus {
        ConsultantFocus::Inputs => (&mut consultant.input_cursor, consultant.variables.len()),
        ConsultantFocus::Forced => (&mut consultant.forced_cursor, forced),
    };
    match app.keymap.action_for(&key) {
        Some(Action::Down) => cursor.step(1, len, height),
        Some(Action::Up) => cursor.step(-1, len, height),
        Some(Action::Top) => cursor.step(isize::MIN / 2, len, height),
        Some(Action::Bottom) => cursor.step(isize::MAX / 2, len, height),
        Some(Action::NextPane | Action::PrevPane) => {
            consultant.focus = match consultant.focus {
                ConsultantFocus::Inputs => ConsultantFocus::Forced,
                ConsultantFocus::Forced => ConsultantFocus::Inputs,
            }
        }
        Some(Action::Open) => {
            return Some(match consultant.focus {
                ConsultantFocus::Inputs => enter_value(app),
                ConsultantFocus::Forced => open_chain(app),
            });
        }
        Some(Action::Delete) => return Some(remove_fact(app)),
        Some(Action::Apply) => save_as_test(app),
        Some(Action::Close) => {
            app.verify.mode = VerifyMode::Logic;
            // Esc leaves the consultant and types nothing: the next key is
            // a command, not a character in the premise.
            app.focus = crate::state::app::Pane::VerifyResult;
        }
        _ => return None,
    }
    Some(Vec::new())
}
