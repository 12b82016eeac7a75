//! What a chosen palette command or search hit does: run an action, export
//! the model (as an effect the runtime carries out), or go to a rule, test,
//! span, variable or type.

use super::edits;
use crate::state::app::{App, Pane, Screen, VariableRow};
use crate::state::msg::Effect;
use crate::state::queries::{Command, Hit};
use precept_engine::export::ExportFormat;

/// Carries out a command chosen in the palette.
pub fn run(app: &mut App, command: Command) -> Vec<Effect> {
    match command {
        Command::Action(action) => super::actions::act(app, action),
        Command::NewType => {
            edits::open_new_type(app);
            Vec::new()
        }
        Command::DefinitionPart(kind) => {
            super::definitions::open_new_part(app, kind);
            Vec::new()
        }
        Command::DefinitionExhaustive => super::definitions::toggle_exhaustive(app),
        Command::Export(format) => {
            app.status.message = Some(format!(
                "exporting the model as {} to {}…",
                format.name(),
                format.file_name()
            ));
            vec![Effect::Export {
                format,
                model: Box::new(app.ws.model.clone()),
                compiled: Box::new(app.ws.compiled.clone()),
            }]
        }
        Command::GoTo(hit) => {
            jump(app, hit);
            Vec::new()
        }
    }
}

/// The runtime wrote an export: say where.
pub fn exported(app: &mut App, format: ExportFormat, path: &str) {
    app.status.message = Some(format!("exported the model as {} to {path}", format.name()));
}

/// Shows what a search hit or a go-to command points at.
pub fn jump(app: &mut App, hit: Hit) {
    match hit {
        Hit::Rule(i) => {
            let id = app.ws.model.rules[i].id.clone();
            super::navigation::jump_to_rule(app, &id);
        }
        Hit::Test(i) => super::navigation::jump_to_test(app, i),
        Hit::Span(i) => {
            super::navigation::show_screen(app, Screen::Rules);
            app.focus = Pane::Document;
            super::document::reveal(app, i);
            super::navigation::follow_span(app);
        }
        Hit::Variable(i) | Hit::Type(i) => {
            app.variable_filter.clear();
            let wanted = if matches!(hit, Hit::Variable(_)) {
                VariableRow::Variable(i)
            } else {
                VariableRow::Type(i)
            };
            let row = app
                .variable_rows()
                .iter()
                .position(|r| *r == wanted)
                .unwrap_or(0);
            super::navigation::jump_to_variable_row(app, row);
        }
    }
}
