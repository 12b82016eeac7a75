//! Edits to the model and tests: opening the editor, applying, drafts,
//! deleting, review status, undo and redo. Each applied edit is saved at
//! once (atomically, by the runtime) and reruns only the affected tests.

use super::model_change::finish_declaration_edit;
use super::runs::{start_full_run, start_run};
use crate::input::editor::{
    EditTarget, Edited, Editor, rule_text, test_form, type_form, validate, variable_form,
};
use crate::state::app::{App, Overlay, Pane, QuestionSymbols, Screen, TestState, VariableRow};
use crate::state::msg::Effect;
use precept_engine::model::LogicTest;
use precept_engine::model::finding::KnownSides;
use precept_engine::model::{ReviewStatus, Rule};
use precept_engine::test_runner::carry_over::{RuleChange, known_sides, still_proved};
use std::collections::{BTreeSet, HashMap};

fn open(app: &mut App, target: EditTarget, text: &str) {
    let mut editor = Editor::new(target, text);
    editor.recheck(&app.ws.compiled, &app.ws.model);
    app.overlay = Some(Overlay::Editor(Box::new(editor)));
}

/// `e`: edit what is selected.
pub fn open_editor(app: &mut App) {
    match app.focus {
        Pane::Rules | Pane::Document => {
            // A definition's rule is edited through its part.
            if super::definitions::open_part_editor(app) {
                return;
            }
            let Some(rule) = app.selected_rule() else {
                return;
            };
            let id = rule.id.clone();
            // A draft, if there is one, is what the expert was last typing.
            let text = app
                .ws.drafts
                .rules
                .get(&id)
                .cloned()
                .unwrap_or_else(|| rule_text(&rule.expression));
            open(app, EditTarget::Rule { id, is_new: false }, &text);
        }
        Pane::Variables => match app.variable_rows().get(app.cursors.variable.selected) {
            Some(VariableRow::Variable(i)) => {
                let text = variable_form(app.ws.model.variables.get(*i), &app.ws.compiled.glossary);
                open(app, EditTarget::Variable { index: Some(*i) }, &text);
            }
            Some(VariableRow::Type(i)) => {
                let text = type_form(app.ws.model.types.get(*i));
                open(app, EditTarget::Type { index: Some(*i) }, &text);
            }
            None => {}
        },
        Pane::Tests | Pane::Evidence => {
            let index = app.cursors.test.selected;
            if let Some(test) = app.ws.tests.tests.get(index) {
                let text = test_form(Some(test));
                open(app, EditTarget::Test { index: Some(index) }, &text);
            }
        }
        Pane::VerifyInput | Pane::VerifyResult => app.focus = Pane::VerifyInput,
        Pane::ProbeRun | Pane::ProbeFailure => {}
        Pane::Diagnostics | Pane::DiagnosticRules => {
            app.status.message =
                Some("press enter to go to the rule, x to apply the suggested fix".into())
        }
        Pane::FormalizeSpans | Pane::Clusters => {
            app.status.message = Some("e on a cluster renames its variable".into())
        }
        Pane::AnswerTests => {
            app.status.message = Some(
                "a natural-language test is made on the verify screen (ctrl-t, then ctrl-s);                  d deletes this one"
                    .into(),
            )
        }
    }
}

/// `a`: add a rule, variable or test, depending on the screen.
pub fn open_new(app: &mut App) {
    match app.screen {
        Screen::Rules => {
            // A new rule kept as a draft is picked up again rather than lost from view.
            let pending = app
                .ws
                .drafts
                .rules
                .iter()
                .find(|(id, _)| app.ws.model.rule(id).is_none())
                .map(|(id, text)| (id.clone(), text.clone()));
            let (id, text) =
                pending.unwrap_or_else(|| (app.ws.model.fresh_rule_id(), String::new()));
            open(app, EditTarget::Rule { id, is_new: true }, &text);
        }
        Screen::Variables => open(
            app,
            EditTarget::Variable { index: None },
            &variable_form(None, &app.ws.compiled.glossary),
        ),
        Screen::Tests => open(app, EditTarget::Test { index: None }, &test_form(None)),
        Screen::Verify => app.focus = Pane::VerifyInput,
        Screen::Vetting | Screen::Formalize | Screen::Probe => {}
    }
}

/// Palette command: a new enum type.
pub fn open_new_type(app: &mut App) {
    open(app, EditTarget::Type { index: None }, &type_form(None));
}

/// ctrl-s in the editor.
pub fn apply_editor(app: &mut App) -> Vec<Effect> {
    let Some(Overlay::Editor(editor)) = &app.overlay else {
        return Vec::new();
    };
    let target = editor.target.clone();
    let text = editor.text();
    match validate(&target, &text, &app.ws.compiled, &app.ws.model) {
        Err(error) => {
            let mut effects = Vec::new();
            if let EditTarget::Rule { id, .. } = &target {
                app.ws.drafts.rules.insert(id.clone(), text);
                app.draft_dirty = false;
                effects.push(Effect::SaveDrafts(app.ws.drafts.clone()));
                app.status.last_error = Some(format!("{id} kept as a draft, not applied: {error}"));
            } else {
                app.status.last_error = Some(format!("not applied: {error}"));
            }
            if let Some(Overlay::Editor(editor)) = &mut app.overlay {
                editor.error = Some(error);
            }
            effects
        }
        Ok(Edited::DefinitionPart { condition, value }) => {
            let EditTarget::DefinitionPart {
                definition,
                kind,
                index,
            } = target
            else {
                return Vec::new();
            };
            // A part the definition refuses keeps the editor open, with
            // the expert's text and why.
            match super::definitions::apply_part(app, &definition, kind, index, condition, value) {
                Ok(effects) => {
                    app.overlay = None;
                    effects
                }
                Err(why) => {
                    if let Some(Overlay::Editor(editor)) = &mut app.overlay {
                        editor.error = Some(crate::input::editor::EditorError {
                            line: 1,
                            column: 1,
                            message: why.to_string(),
                        });
                    }
                    app.status.last_error = Some(format!("not applied: {why}"));
                    Vec::new()
                }
            }
        }
        Ok(edited) => {
            app.overlay = None;
            app.draft_dirty = false;
            apply(app, target, edited)
        }
    }
}

fn apply(app: &mut App, target: EditTarget, edited: Edited) -> Vec<Effect> {
    match (target, edited) {
        (EditTarget::Rule { id, is_new }, Edited::Rule { expression }) => {
            apply_rule(app, &id, is_new, &expression)
        }
        (EditTarget::Variable { index }, Edited::Variable(variable)) => {
            let before = app.snapshot();
            let label = format!(
                "{} variable {}",
                if index.is_some() { "edit" } else { "add" },
                variable.name
            );
            let mut declarations_changed = true;
            match index {
                Some(i) => {
                    let old = app.ws.model.variables[i].clone();
                    declarations_changed = old.name != variable.name || old.sort != variable.sort;
                    if old.name != variable.name {
                        rename_in_rules(app, &old.name, &variable.name);
                    }
                    app.ws.model.variables[i] = variable;
                }
                None => app.ws.model.variables.push(variable),
            }
            app.ws.history.record(label.clone(), before);
            finish_declaration_edit(app, label, declarations_changed)
        }
        (EditTarget::Type { index }, Edited::Type(type_def)) => {
            let before = app.snapshot();
            let label = format!(
                "{} type {}",
                if index.is_some() { "edit" } else { "add" },
                type_def.name
            );
            match index {
                Some(i) => {
                    let old_name = app.ws.model.types[i].name.clone();
                    for variable in app
                        .ws
                        .model
                        .variables
                        .iter_mut()
                        .filter(|v| v.sort == old_name)
                    {
                        variable.sort = type_def.name.clone();
                    }
                    app.ws.model.types[i] = type_def;
                }
                None => app.ws.model.types.push(type_def),
            }
            app.ws.history.record(label.clone(), before);
            finish_declaration_edit(app, label, true)
        }
        (
            EditTarget::Test { index },
            Edited::Test {
                name,
                premise,
                claim,
                expected,
            },
        ) => {
            let before = app.snapshot();
            let id = match index {
                Some(i) => {
                    let test = &mut app.ws.tests.tests[i];
                    test.name = name;
                    test.premise = premise;
                    test.claim = claim;
                    test.expected = expected;
                    test.id.clone()
                }
                None => {
                    let id = app.ws.tests.fresh_id();
                    app.ws
                        .tests
                        .tests
                        .push(precept_engine::model::LogicTest::new(
                            id.clone(),
                            name,
                            premise,
                            claim,
                            expected,
                        ));
                    app.ws.run.results.insert(id.clone(), TestState::NotRun);
                    id
                }
            };
            app.ws.history.record(format!("edit test {id}"), before);
            app.status.message = Some(format!("saved test {id}"));
            let run = start_run(app, std::slice::from_ref(&id), false, true);
            vec![Effect::SaveTests(Box::new(app.ws.tests.clone())), run]
        }
        _ => Vec::new(),
    }
}

fn rename_in_rules(app: &mut App, old: &str, new: &str) {
    for rule in &mut app.ws.model.rules {
        if let Ok(expr) = precept_engine::smt::parse_expr(&rule.expression)
            && expr.symbols().contains(&old)
        {
            rule.rename_only(
                expr.rename_symbols(&|s| (s == old).then(|| new.to_string()))
                    .to_string(),
            );
        }
    }
}

fn apply_rule(app: &mut App, id: &str, is_new: bool, text: &str) -> Vec<Effect> {
    let Ok((written, formula)) = app.ws.compiled.check_formula(text) else {
        return Vec::new();
    };
    let before = app.snapshot();
    let old_variables = app.ws.graph.variables_of(id);
    let expression = written.to_string();
    let selected_span = app.selected_source_span();
    let mut rewrite_check = None;
    match app.ws.model.rules.iter_mut().find(|r| r.id == id) {
        Some(rule) => {
            let (old, was) = (rule.expression.clone(), rule.review);
            // Back to review at once; the solver may prove it a pure rewrite.
            if rule.rewrite(expression.clone()) && was != ReviewStatus::Unreviewed {
                rewrite_check = Some((old, was));
            }
        }
        None => {
            app.ws.model.rules.push(Rule {
                id: id.to_string(),
                expression,
                source_span: if is_new { selected_span } else { None },
                also_from: Vec::new(),
                review: ReviewStatus::Unreviewed,
                note: String::new(),
            });
            let index = app.ws.model.rules.len() - 1;
            let height = crate::measure::layout::inner_height(
                crate::measure::layout::areas(Screen::Rules, app.size).list,
            );
            app.cursors
                .rule
                .select(index, app.ws.model.rules.len(), height);
        }
    }
    app.ws.history.record(
        format!("{} rule {id}", if is_new { "add" } else { "edit" }),
        before,
    );
    let mut effects = Vec::new();
    if app.ws.drafts.rules.remove(id).is_some() {
        effects.push(Effect::SaveDrafts(app.ws.drafts.clone()));
    }
    app.recompile_rule(id);
    effects.push(Effect::ReplaceRule {
        id: id.to_string(),
        formula: Some(formula),
    });
    effects.push(rerun_affected(app, old_variables, id));
    // Saved once the solvers have their work: the write then delays no test.
    effects.push(Effect::SaveModel(Box::new(app.ws.model.clone())));
    if let Some((old, was)) = rewrite_check {
        let new = app.ws.model.rule(id).map(|r| r.expression.clone());
        effects.extend(
            new.map(|new| super::approval::rewrite_check(app, id.to_string(), old, new, was)),
        );
    }
    effects
}

/// Reruns the tests whose cone of influence contains the edited rule (its
/// old and new variables), with a consistency check. Of those, a test
/// whose finding's evidence does not rest on the old rule and holds under
/// the new one keeps its finding without the solver (`carry_over.rs`).
fn rerun_affected(app: &mut App, old_variables: Vec<String>, id: &str) -> Effect {
    let mut touched_variables: BTreeSet<String> = old_variables.into_iter().collect();
    touched_variables.extend(app.ws.graph.variables_of(id));
    let touched = app
        .ws
        .graph
        .components_of(touched_variables.iter().map(String::as_str));
    let change = RuleChange::in_model(id, &app.ws.compiled);
    let mut kept = 0;
    let mut affected: Vec<String> = Vec::new();
    let mut known: HashMap<String, KnownSides> = HashMap::new();
    let mut symbols = std::mem::take(&mut app.ws.question_symbols);
    if symbols.len() > 2 * app.ws.tests.tests.len() + 64 {
        symbols.clear();
    }
    for test in &app.ws.tests.tests {
        let in_cone = match question_symbols(&mut symbols, test) {
            Some(names) => app
                .ws
                .graph
                .may_depend(names.iter().map(String::as_str), &touched),
            None => true,
        };
        let done = match app.test_state(&test.id) {
            TestState::Done(outcome) => Some(outcome.finding.as_ref()),
            _ => None,
        };
        match done {
            None => affected.push(test.id.clone()),
            Some(_) if !in_cone => {}
            Some(Some(finding)) if still_proved(finding, change, &app.ws.compiled) => kept += 1,
            Some(Some(finding)) => {
                // The sides its evidence still proves are not asked again.
                known.insert(
                    test.id.clone(),
                    known_sides(finding, change, &app.ws.compiled),
                );
                affected.push(test.id.clone());
            }
            Some(None) => affected.push(test.id.clone()),
        }
    }
    app.ws.question_symbols = symbols;
    app.status.message = Some(format!(
        "applied {id}; rerunning {} of {} tests{}",
        affected.len(),
        app.ws.tests.tests.len(),
        super::runs::kept_note(kept)
    ));
    let mut run = start_run(app, &affected, true, true);
    app.ws.run.run_kept = kept;
    if let Effect::RunTests { jobs, .. } = &mut run {
        for job in jobs {
            job.known = known.remove(&job.test.id).unwrap_or_default();
        }
    }
    run
}

/// The symbols a test's premise and claim mention, parsed again only when
/// the test's texts changed; None when either does not parse.
fn question_symbols<'a>(
    known: &'a mut HashMap<String, QuestionSymbols>,
    test: &LogicTest,
) -> Option<&'a Vec<String>> {
    let current = known
        .get(&test.id)
        .is_some_and(|q| q.premise == test.premise && q.claim == test.claim);
    if !current {
        let parse = || {
            let premise = precept_engine::smt::parse_expr(&test.premise).ok()?;
            let claim = precept_engine::smt::parse_expr(&test.claim).ok()?;
            let mut names: Vec<String> =
                premise.symbols().into_iter().map(str::to_string).collect();
            names.extend(claim.symbols().into_iter().map(str::to_string));
            Some(names)
        };
        let symbols = parse();
        known.insert(
            test.id.clone(),
            QuestionSymbols {
                premise: test.premise.clone(),
                claim: test.claim.clone(),
                symbols,
            },
        );
    }
    known.get(&test.id).and_then(|q| q.symbols.as_ref())
}

/// Esc in the editor: close; text that was changed but not applied stays as
/// a draft (rules) or is reported (forms).
pub fn close_editor(app: &mut App) -> Vec<Effect> {
    let effects = keep_editor_text_as_draft(app);
    app.overlay = None;
    app.draft_dirty = false;
    effects
}

pub fn keep_editor_text_as_draft(app: &mut App) -> Vec<Effect> {
    let Some(Overlay::Editor(editor)) = &app.overlay else {
        return Vec::new();
    };
    if !editor.changed() {
        return Vec::new();
    }
    match &editor.target {
        EditTarget::Rule { id, .. } => {
            let id = id.clone();
            app.ws.drafts.rules.insert(id.clone(), editor.text());
            app.status.message = Some(format!(
                "{id}: unapplied text kept as a draft (e to continue, ctrl-s to apply)"
            ));
            vec![Effect::SaveDrafts(app.ws.drafts.clone())]
        }
        _ => {
            app.status.message = Some("closed without applying".into());
            Vec::new()
        }
    }
}

/// Saves what is being typed as a draft, so a crash loses at most a moment.
pub fn autosave_draft(app: &mut App) -> Vec<Effect> {
    app.draft_dirty = false;
    let Some(Overlay::Editor(editor)) = &app.overlay else {
        return Vec::new();
    };
    let EditTarget::Rule { id, .. } = &editor.target else {
        return Vec::new();
    };
    if !editor.changed() {
        return Vec::new();
    }
    app.ws.drafts.rules.insert(id.clone(), editor.text());
    vec![Effect::SaveDrafts(app.ws.drafts.clone())]
}

pub fn delete_selected(app: &mut App) -> Vec<Effect> {
    match app.focus {
        Pane::Rules | Pane::Document => {
            if let Some(effects) = super::definitions::delete_part(app) {
                return effects;
            }
            let Some(rule) = app.selected_rule().cloned() else {
                return Vec::new();
            };
            let before = app.snapshot();
            let old_variables = app.ws.graph.variables_of(&rule.id);
            app.ws.model.rules.retain(|r| r.id != rule.id);
            app.ws
                .history
                .record(format!("delete rule {}", rule.id), before);
            let mut effects = Vec::new();
            if app.ws.drafts.rules.remove(&rule.id).is_some() {
                effects.push(Effect::SaveDrafts(app.ws.drafts.clone()));
            }
            app.recompile_rule(&rule.id);
            super::navigation::rescroll(app);
            effects.push(Effect::ReplaceRule {
                id: rule.id.clone(),
                formula: None,
            });
            effects.push(rerun_affected(app, old_variables, &rule.id));
            effects.push(Effect::SaveModel(Box::new(app.ws.model.clone())));
            app.status.message = Some(format!("deleted {} (u to undo)", rule.id));
            effects
        }
        Pane::Variables => delete_declaration(app),
        Pane::Tests | Pane::Evidence => {
            let Some(test) = app.selected_test().cloned() else {
                return Vec::new();
            };
            let before = app.snapshot();
            app.ws.tests.delete(&test.id);
            app.ws.run.results.remove(&test.id);
            app.ws
                .history
                .record(format!("delete test {}", test.id), before);
            super::navigation::rescroll(app);
            app.status.message = Some(format!("deleted test {} (u to undo)", test.id));
            vec![Effect::SaveTests(Box::new(app.ws.tests.clone()))]
        }
        Pane::VerifyInput
        | Pane::VerifyResult
        | Pane::Diagnostics
        | Pane::DiagnosticRules
        | Pane::FormalizeSpans
        | Pane::Clusters
        | Pane::AnswerTests
        | Pane::ProbeRun
        | Pane::ProbeFailure => Vec::new(),
    }
}

fn delete_declaration(app: &mut App) -> Vec<Effect> {
    let before = app.snapshot();
    let label = match app.variable_rows().get(app.cursors.variable.selected) {
        Some(VariableRow::Variable(i)) => {
            let name = app.ws.model.variables[*i].name.clone();
            let users = app.ws.graph.rules_using(&name);
            if !users.is_empty() {
                app.status.last_error = Some(format!(
                    "{name} is used by {}; edit or delete those rules first",
                    users.join(", ")
                ));
                return Vec::new();
            }
            app.ws.model.variables.remove(*i);
            format!("delete variable {name}")
        }
        Some(VariableRow::Type(i)) => {
            let name = app.ws.model.types[*i].name.clone();
            if !app.is_unused_type(&name) {
                app.status.last_error = Some(format!(
                    "variables of type {name} exist; change or delete them first"
                ));
                return Vec::new();
            }
            app.ws.model.types.remove(*i);
            format!("delete type {name}")
        }
        None => return Vec::new(),
    };
    app.ws.history.record(label.clone(), before);
    finish_declaration_edit(app, format!("{label} (u to undo)"), true)
}

pub fn cycle_review(app: &mut App) -> Vec<Effect> {
    let index = app.cursors.rule.selected;
    if !matches!(app.focus, Pane::Rules | Pane::Document) || index >= app.ws.model.rules.len() {
        return Vec::new();
    }
    let before = app.snapshot();
    let rule = &mut app.ws.model.rules[index];
    rule.review = match rule.review {
        ReviewStatus::Unreviewed => ReviewStatus::Approved,
        ReviewStatus::Approved => ReviewStatus::NeedsChange,
        ReviewStatus::NeedsChange => ReviewStatus::Unreviewed,
    };
    let label = format!("{} marked {}", rule.id, rule.review.label());
    app.ws.history.record(label.clone(), before);
    app.status.message = Some(label);
    vec![Effect::SaveModel(Box::new(app.ws.model.clone()))]
}

fn restore(
    app: &mut App,
    label: String,
    snapshot: crate::state::app::Snapshot,
    verb: &str,
) -> Vec<Effect> {
    app.ws.model = snapshot.model;
    app.ws.tests = snapshot.tests;
    let record_effect = if snapshot.formalization == app.formalization.record {
        None
    } else {
        app.formalization.cluster_cursor = Default::default();
        app.formalization.span_cursor = Default::default();
        app.formalization.record = snapshot.formalization;
        Some(match &app.formalization.record {
            Some(record) => Effect::SaveRecord(Box::new(record.clone())),
            None => Effect::RemoveRecord,
        })
    };
    app.ws
        .run
        .results
        .retain(|id, _| app.ws.tests.tests.iter().any(|t| &t.id == id));
    app.recompile();
    super::navigation::rescroll(app);
    let mut effects = vec![
        Effect::SaveModel(Box::new(app.ws.model.clone())),
        Effect::SaveTests(Box::new(app.ws.tests.clone())),
        Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
    ];
    effects.extend(record_effect);
    if snapshot.not_policy != app.document_pane.not_policy {
        app.document_pane.not_policy = snapshot.not_policy;
        effects.push(Effect::SaveNotPolicy(
            app.document_pane.not_policy.iter().cloned().collect(),
        ));
    }
    effects.push(start_full_run(app));
    app.status.message = Some(format!("{verb}: {label}"));
    effects
}

pub fn undo(app: &mut App) -> Vec<Effect> {
    let current = app.snapshot();
    match app.ws.history.undo(current) {
        Some((label, snapshot)) => restore(app, label, snapshot, "undid"),
        None => {
            app.status.message = Some("nothing to undo".into());
            Vec::new()
        }
    }
}

pub fn redo(app: &mut App) -> Vec<Effect> {
    let current = app.snapshot();
    match app.ws.history.redo(current) {
        Some((label, snapshot)) => restore(app, label, snapshot, "redid"),
        None => {
            app.status.message = Some("nothing to redo".into());
            Vec::new()
        }
    }
}
