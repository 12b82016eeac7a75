//! Approval follows meaning: an edit of a reviewed rule (in the editor, by
//! a lint fix or by an accepted repair) sends it back to review at once,
//! and the solver, asked in the background (`effects::rewrite_check`),
//! gives the review back when it proves the new text a pure rewrite.

use crate::state::app::App;
use crate::state::msg::Effect;
use crate::state::msg::Msg;
use crate::state::task::Task;
use precept_engine::lifecycle::behaviour::same_meaning;
use precept_engine::model::{PolicyModel, ReviewStatus};

/// After an edit that is not the editor's (a lint fix, a repair): each
/// reviewed rule whose text it changed went back to review, and the solver
/// is asked, as for an editor edit, whether the new text means the same
/// (`rewrite_checked` gives the review back if so). `before` is the model
/// before the edit.
pub fn check_rewrites(app: &App, before: &PolicyModel) -> Vec<Effect> {
    app.ws
        .model
        .rules
        .iter()
        .filter_map(|rule| {
            let old = before.rule(&rule.id)?;
            let changed = old.expression != rule.expression
                && old.review != ReviewStatus::Unreviewed
                && rule.review == ReviewStatus::Unreviewed;
            changed.then(|| {
                rewrite_check(
                    app,
                    rule.id.clone(),
                    old.expression.clone(),
                    rule.expression.clone(),
                    old.review,
                )
            })
        })
        .collect()
}

/// Asks a solver of its own whether rule `id`'s new text means what its
/// old text meant over the model's vocabulary (its review was `was`); one
/// `Msg::RewriteChecked` answers.
pub fn rewrite_check(app: &App, id: String, old: String, new: String, was: ReviewStatus) -> Effect {
    let model = app.ws.model.clone();
    Effect::Background(Task::new(
        "CheckRewrite",
        app.ws.stamp(),
        move |context, send| {
            let timeout_ms = u64::try_from(context.timeout.as_millis()).unwrap_or(u64::MAX);
            let same = same_meaning(&model, &old, &new, timeout_ms);
            send(Msg::RewriteChecked { id, new, was, same });
        },
    ))
}

/// The solver decided whether an edit of a reviewed rule kept its meaning.
/// A pure rewrite gets its review back (unless the rule changed again or
/// the expert reviewed it since); a change of meaning leaves it unreviewed.
pub fn rewrite_checked(
    app: &mut App,
    id: &str,
    new: &str,
    was: ReviewStatus,
    same: Option<bool>,
) -> Vec<Effect> {
    let Some(rule) = app.ws.model.rules.iter_mut().find(|r| r.id == id) else {
        return Vec::new();
    };
    if rule.expression != new || rule.review != ReviewStatus::Unreviewed {
        return Vec::new();
    }
    // A change of meaning says nothing more: the rule already reads "not
    // reviewed", and the status line keeps the edit's flips in view.
    let note = match same {
        Some(true) => {
            rule.review = was;
            format!(
                "{id} rewritten with the same meaning (proved by the solver): still {}",
                was.label()
            )
        }
        Some(false) => return Vec::new(),
        None => format!(
            "{id} needs review again: the solver could not decide whether its meaning changed"
        ),
    };
    // In front of the edit's test run's counts: at its end if it is still
    // going, else now, keeping them in view.
    if app.ws.run.pending > 0 {
        app.ws.run.run_note = Some(note);
    } else {
        app.status.message = Some(match app.status.message.take() {
            Some(message) => format!("{note} · {message}"),
            None => note,
        });
    }
    if same == Some(true) {
        vec![Effect::SaveModel(Box::new(app.ws.model.clone()))]
    } else {
        Vec::new()
    }
}
