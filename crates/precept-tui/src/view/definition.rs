//! A definition as one block on the Rules screen: its cases, requirements
//! and exceptions, each in SMT-LIB and in English beside the sentence of
//! the document it comes from, the part of the selected rule marked.

use crate::measure::text::wrap;
use crate::state::app::App;
use precept_engine::model::Definition;
use precept_engine::model::definition::PartKind;
use precept_engine::smt::parse_expr;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

/// The block's lines for `definition`, with the part that compiles to rule
/// `selected` marked (`▸`), wrapped to `width`.
pub fn lines(
    app: &App,
    definition: &Definition,
    selected: &str,
    width: usize,
) -> Vec<Line<'static>> {
    let heading = app.theme.accent().add_modifier(Modifier::BOLD);
    let closed = if definition.exhaustive {
        "exhaustive: the cases are the only ways it holds"
    } else {
        "not exhaustive: other ways may exist"
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("Definition {}", definition.id), heading),
        Span::styled(
            format!(" of {} · {closed}", definition.variable),
            app.theme.dim(),
        ),
    ])];
    let text_width = width.saturating_sub(4).max(20);
    let mut kind_shown = None;
    for (kind, index, part) in definition.parts() {
        if kind_shown != Some(kind) {
            kind_shown = Some(kind);
            lines.push(Line::styled(
                match kind {
                    PartKind::Case => "Cases",
                    PartKind::Requirement => "Requirements (every case needs them)",
                    PartKind::Exception => "Exceptions (assumed absent unless stated)",
                },
                app.theme.dim(),
            ));
        }
        let id = definition.rule_id(kind, index);
        let marked = id == selected;
        let style = if marked {
            app.theme.emphasis()
        } else {
            app.theme.accent()
        };
        let condition = match &part.value {
            Some(value) => format!("{} ⇒ {value}", part.condition),
            None => part.condition.clone(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{} {id:<7}", if marked { "▸" } else { " " }), style),
            Span::styled(condition, app.theme.text()),
        ]));
        if let Ok(expr) = parse_expr(&part.condition) {
            let mut english = app.ws.compiled.glossary.phrase(&expr);
            if let Some(value) = &part.value {
                english = format!("when {english}: {value}");
            }
            for row in wrap(&english, text_width) {
                lines.push(Line::styled(format!("    {row}"), app.theme.text()));
            }
        }
        let quote = part.source_span.and_then(|span| {
            app.ws
                .document
                .as_deref()
                .and_then(|d| d.get(span.start..span.end))
        });
        match quote {
            Some(quote) => {
                let quote = quote.split_whitespace().collect::<Vec<_>>().join(" ");
                for row in wrap(&format!("“{quote}”"), text_width) {
                    lines.push(Line::styled(format!("    {row}"), app.theme.dim()));
                }
            }
            None => lines.push(Line::styled("    (no source sentence)", app.theme.dim())),
        }
    }
    if definition.exhaustive {
        let id = definition.closing_rule_id();
        let style = if id == selected {
            app.theme.emphasis()
        } else {
            app.theme.accent()
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{} {id:<7}", if id == selected { "▸" } else { " " }),
                style,
            ),
            Span::styled("closes the cases", app.theme.dim()),
        ]));
    }
    lines.push(Line::styled(
        "e edits the marked part · d deletes it · : definition… adds a part or switches exhaustive",
        app.theme.dim(),
    ));
    lines
}
