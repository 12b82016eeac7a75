//! A definition edited part by part on the Rules screen. Its rules are
//! never edited apart from it (a load error otherwise): `e` on one of them
//! edits the part it compiles from, `d` deletes that part, and the palette
//! adds a part or switches `exhaustive`. Each is one undoable edit, after
//! which the definition's rules are compiled again, the solver reloaded and
//! the tests rerun.

use super::model_change::finish_declaration_edit;
use crate::error::DefinitionEditError;
use crate::input::editor::{EditTarget, Editor, part_form};
use crate::state::app::{App, Overlay};
use crate::state::msg::Effect;
use precept_engine::model::Definition;
use precept_engine::model::definition::PartKind;
use precept_engine::model::{DefinitionPart, PolicyModel};

/// The definition the selected rule compiles from.
fn selected(app: &App) -> Option<(Definition, String)> {
    let rule = app.selected_rule()?;
    let definition = app.ws.model.definition_owning(&rule.id)?.clone();
    Some((definition, rule.id.clone()))
}

fn is_bool(app: &App, definition: &Definition) -> bool {
    app.ws
        .model
        .variable(&definition.variable)
        .is_some_and(|v| v.sort == "Bool")
}

/// `e` on a rule of a definition: the editor over the part it compiles
/// from. Returns false when the selected rule is no definition's.
pub fn open_part_editor(app: &mut App) -> bool {
    let Some((definition, rule)) = selected(app) else {
        return false;
    };
    let Some((kind, index)) = definition.part_of_rule(&rule) else {
        app.status.message = Some(format!(
            "{rule} closes the cases of {}: it follows from them (: \"definition: exhaustive\" switches it off)",
            definition.id
        ));
        return true;
    };
    let part = &definition.parts_of(kind)[index];
    let text = part_form(
        &part.condition,
        part.value.as_deref(),
        is_bool(app, &definition),
    );
    open(
        app,
        EditTarget::DefinitionPart {
            definition: definition.id,
            kind,
            index: Some(index),
        },
        &text,
    );
    true
}

/// Palette: a new part of `kind` for the selected rule's definition.
pub fn open_new_part(app: &mut App, kind: PartKind) {
    let Some((definition, _)) = selected(app) else {
        app.status.message = Some("select a rule of a definition (D1.c1, …) first".into());
        return;
    };
    if kind != PartKind::Case && !is_bool(app, &definition) {
        app.status.message = Some(format!(
            "{} defines a value by its cases alone: only a case can be added",
            definition.variable
        ));
        return;
    }
    let text = part_form("", None, is_bool(app, &definition));
    open(
        app,
        EditTarget::DefinitionPart {
            definition: definition.id,
            kind,
            index: None,
        },
        &text,
    );
}

fn open(app: &mut App, target: EditTarget, text: &str) {
    let mut editor = Editor::new(target, text);
    editor.recheck(&app.ws.compiled, &app.ws.model);
    app.overlay = Some(Overlay::Editor(Box::new(editor)));
}

/// The editor's checked part applied: a new part takes the source span of
/// the sentence selected in the document pane. Refused (with why, nothing
/// changed) when the definition is gone or its rules would not check; the
/// refusal as the editor shows it.
pub fn apply_part(
    app: &mut App,
    id: &str,
    kind: PartKind,
    index: Option<usize>,
    condition: String,
    value: Option<String>,
) -> Result<Vec<Effect>, DefinitionEditError> {
    let Some(mut definition) = app.ws.model.definition(id).cloned() else {
        return Err(DefinitionEditError::DefinitionGone(id.to_string()));
    };
    let label = match index {
        Some(i) => {
            let Some(part) = definition.parts_mut(kind).get_mut(i) else {
                return Err(DefinitionEditError::PartGone {
                    kind,
                    number: i + 1,
                    id: id.to_string(),
                });
            };
            part.condition = condition;
            part.value = value;
            format!("edit {} {} of {id}", kind.noun(), i + 1)
        }
        None => {
            let mut part = DefinitionPart::new(&condition, app.selected_source_span());
            part.value = value;
            let parts = definition.parts_mut(kind);
            parts.push(part);
            format!("add {} {} to {id}", kind.noun(), parts.len())
        }
    };
    let model = edited_model(app, Some(definition), id)?;
    Ok(commit(app, label, model))
}

/// `d` on a rule of a definition: the part it compiles from is deleted
/// (the last part takes the definition with it). Returns None when the
/// selected rule is no definition's.
pub fn delete_part(app: &mut App) -> Option<Vec<Effect>> {
    let (mut definition, rule) = selected(app)?;
    let id = definition.id.clone();
    let Some((kind, index)) = definition.part_of_rule(&rule) else {
        return Some(toggle_exhaustive(app));
    };
    definition.parts_mut(kind).remove(index);
    let label = format!("delete {} {} of {id}", kind.noun(), index + 1);
    let left = definition.parts().next().is_some();
    Some(replace(app, label, left.then_some(definition), &id))
}

/// Palette: the selected rule's definition closes its cases, or stops
/// closing them.
pub fn toggle_exhaustive(app: &mut App) -> Vec<Effect> {
    let Some((mut definition, _)) = selected(app) else {
        app.status.message = Some("select a rule of a definition (D1.c1, …) first".into());
        return Vec::new();
    };
    definition.exhaustive = !definition.exhaustive;
    let id = definition.id.clone();
    let label = format!(
        "{id}: {}",
        if definition.exhaustive {
            "the cases are the only ways it holds"
        } else {
            "the cases are not the only ways it holds"
        }
    );
    replace(app, label, Some(definition), &id)
}

/// Puts `definition` in place of definition `id` (None: removes it) as one
/// undoable edit; a refusal goes to the status line.
fn replace(app: &mut App, label: String, definition: Option<Definition>, id: &str) -> Vec<Effect> {
    match edited_model(app, definition, id) {
        Ok(model) => commit(app, label, model),
        Err(why) => {
            app.status.last_error = Some(why.to_string());
            Vec::new()
        }
    }
}

/// The model with `definition` in place of definition `id` (None: without
/// it), refused when its rules would not check.
fn edited_model(
    app: &App,
    definition: Option<Definition>,
    id: &str,
) -> Result<PolicyModel, DefinitionEditError> {
    let mut edited = app.ws.model.clone();
    match definition {
        Some(definition) => {
            edited
                .set_definition(definition)
                .map_err(|source| DefinitionEditError::Refused {
                    id: id.to_string(),
                    source,
                })?
        }
        None => {
            edited.remove_definition(id);
        }
    }
    let compiled = precept_engine::model::compile::compile(&edited);
    match compiled
        .issues
        .iter()
        .find(|i| i.subject.starts_with(&format!("{id}.")) || i.subject == id)
    {
        Some(issue) => Err(DefinitionEditError::RuleIssue {
            id: id.to_string(),
            subject: issue.subject.clone(),
            message: issue.message.clone(),
        }),
        None => Ok(edited),
    }
}

/// `model` as the workbench's model, as one undoable edit.
fn commit(app: &mut App, label: String, model: PolicyModel) -> Vec<Effect> {
    let before = app.snapshot();
    app.ws.model = model;
    app.ws.history.record(label.clone(), before);
    finish_declaration_edit(app, format!("{label} (u to undo)"), true)
}
