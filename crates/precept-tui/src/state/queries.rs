//! What the lists show, computed from the workbench's state alone: the
//! palette's commands (with "go to" entries for a rule, test or variable the
//! query names), search hits (rules, variables, types, tests and the
//! document's spans), and the natural-language tests'
//! counts. Both `update` (to act on a selection) and the components (to
//! draw) use them, so neither imports the other.

use crate::input::keymap::Action;
use crate::state::app::App;
use precept_engine::export::ExportFormat;

/// One entry of the command palette.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Action(Action),
    NewType,
    /// A new part of the selected rule's definition.
    DefinitionPart(precept_engine::model::PartKind),
    /// The selected rule's definition closes its cases, or stops.
    DefinitionExhaustive,
    /// Export the model to its file in the project folder.
    Export(ExportFormat),
    /// Go to a rule, test or variable named in the query (`R12`, `rule R12`,
    /// `test T3`, `variable baseFee`).
    GoTo(Hit),
}

pub fn palette_commands(app: &App) -> Vec<(String, Command)> {
    let mut commands: Vec<(String, Command)> = app
        .keymap
        .bindings
        .iter()
        .filter(|b| {
            !matches!(
                b.action,
                Action::Palette | Action::Apply | Action::Close | Action::ForceQuit
            )
        })
        .map(|b| {
            (
                format!("{}  [{}]", b.desc, b.keys.join(" ")),
                Command::Action(b.action),
            )
        })
        .collect();
    commands.push(("Add an enum type".into(), Command::NewType));
    for kind in [
        precept_engine::model::PartKind::Case,
        precept_engine::model::PartKind::Requirement,
        precept_engine::model::PartKind::Exception,
    ] {
        commands.push((
            format!(
                "definition: add a {} to the selected rule's definition",
                kind.noun()
            ),
            Command::DefinitionPart(kind),
        ));
    }
    commands.push((
        "definition: exhaustive (the cases are the only ways it holds) on or off".into(),
        Command::DefinitionExhaustive,
    ));
    for format in ExportFormat::ALL {
        commands.push((
            format!(
                "Export the model as {} to {} in the project folder",
                format.name(),
                format.file_name()
            ),
            Command::Export(format),
        ));
    }
    commands
}

fn matches(query: &str, text: &str) -> bool {
    let text = text.to_lowercase();
    query
        .to_lowercase()
        .split_whitespace()
        .all(|word| text.contains(word))
}

/// The palette's entries for `query`: first the rules, tests and variables
/// it names (see [`go_to_commands`]), then the commands whose label has
/// every word of it.
pub fn filtered_commands(app: &App, query: &str) -> Vec<(String, Command)> {
    let mut commands = go_to_commands(app, query);
    commands.extend(
        palette_commands(app)
            .into_iter()
            .filter(|(label, _)| matches(query, label)),
    );
    commands
}

/// What a go-to query asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoToKind {
    Rule,
    Test,
    Variable,
}

/// "Go to" entries for a query that names a rule, test or variable: `R12`,
/// `rule R12`, `go to rule R12`, `test T3`, `variable baseFee` (or `var`).
/// With the kind word, every id or name containing the text is offered;
/// without it, those beginning with it (two characters at least). Exact
/// matches come first; letter case is ignored.
pub fn go_to_commands(app: &App, query: &str) -> Vec<(String, Command)> {
    let lower = query.to_lowercase();
    let mut words: Vec<&str> = lower.split_whitespace().collect();
    if words.first() == Some(&"goto") {
        words.remove(0);
    } else if words.starts_with(&["go", "to"]) {
        words.drain(..2);
    }
    let (kinds, wanted, loose) = match words.as_slice() {
        [kind, wanted] => {
            let kind = match *kind {
                "rule" => GoToKind::Rule,
                "test" => GoToKind::Test,
                "variable" | "var" => GoToKind::Variable,
                _ => return Vec::new(),
            };
            (vec![kind], *wanted, true)
        }
        [wanted] if wanted.chars().count() >= 2 => (
            vec![GoToKind::Rule, GoToKind::Test, GoToKind::Variable],
            *wanted,
            false,
        ),
        _ => return Vec::new(),
    };
    let fits = |name: &str| {
        let name = name.to_lowercase();
        if loose {
            name.contains(wanted)
        } else {
            name.starts_with(wanted)
        }
    };
    // (exact, label, command), sorted with exact matches first.
    let mut found: Vec<(bool, String, Command)> = Vec::new();
    for kind in kinds {
        match kind {
            GoToKind::Rule => {
                for (i, rule) in app.ws.model.rules.iter().enumerate() {
                    if fits(&rule.id) {
                        found.push((
                            rule.id.to_lowercase() == wanted,
                            format!("Go to rule {}: {}", rule.id, rule.expression),
                            Command::GoTo(Hit::Rule(i)),
                        ));
                    }
                }
            }
            GoToKind::Test => {
                for (i, test) in app.ws.tests.tests.iter().enumerate() {
                    if fits(&test.id) {
                        found.push((
                            test.id.to_lowercase() == wanted,
                            format!("Go to test {}: {}", test.id, test.label()),
                            Command::GoTo(Hit::Test(i)),
                        ));
                    }
                }
            }
            GoToKind::Variable => {
                for (i, variable) in app.ws.model.variables.iter().enumerate() {
                    if fits(&variable.name) {
                        found.push((
                            variable.name.to_lowercase() == wanted,
                            format!("Go to variable {}: {}", variable.name, variable.description),
                            Command::GoTo(Hit::Variable(i)),
                        ));
                    }
                }
            }
        }
    }
    found.sort_by_key(|(exact, _, _)| !*exact);
    found
        .into_iter()
        .map(|(_, label, command)| (label, command))
        .collect()
}

/// Something search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hit {
    Rule(usize),
    Variable(usize),
    Type(usize),
    Test(usize),
    /// A span of the document, found by its text.
    Span(usize),
}

pub fn search(app: &App, query: &str) -> Vec<(String, Hit)> {
    if query.trim().is_empty() {
        return Vec::new();
    }
    let mut hits = Vec::new();
    for (i, rule) in app.ws.model.rules.iter().enumerate() {
        let english = app
            .ws
            .rule_english
            .get(&rule.id)
            .map(String::as_str)
            .unwrap_or_default();
        if matches(
            query,
            &format!("{} {} {} {}", rule.id, rule.expression, english, rule.note),
        ) {
            hits.push((
                format!("rule {}: {}", rule.id, rule.expression),
                Hit::Rule(i),
            ));
        }
    }
    for (i, variable) in app.ws.model.variables.iter().enumerate() {
        if matches(
            query,
            &format!(
                "{} {} {}",
                variable.name, variable.sort, variable.description
            ),
        ) {
            hits.push((
                format!("variable {}: {}", variable.name, variable.description),
                Hit::Variable(i),
            ));
        }
    }
    for (i, type_def) in app.ws.model.types.iter().enumerate() {
        let values: Vec<&str> = type_def.values.iter().map(|v| v.value.as_str()).collect();
        if matches(
            query,
            &format!(
                "{} {} {}",
                type_def.name,
                type_def.description,
                values.join(" ")
            ),
        ) {
            hits.push((
                format!("type {}: {}", type_def.name, values.join(" ")),
                Hit::Type(i),
            ));
        }
    }
    for (i, test) in app.ws.tests.tests.iter().enumerate() {
        if matches(
            query,
            &format!("{} {} {} {}", test.id, test.name, test.premise, test.claim),
        ) {
            hits.push((format!("test {}: {}", test.id, test.label()), Hit::Test(i)));
        }
    }
    for (i, span) in app.ws.spans.iter().enumerate() {
        if matches(query, &span.text) {
            hits.push((
                format!("document: {}", excerpt_at_match(&span.text, query)),
                Hit::Span(i),
            ));
        }
    }
    hits
}

/// Characters of context kept before the first matching word of a long text.
const CONTEXT_BEFORE_MATCH: usize = 24;

/// `text` from a little before the first word of `query` it contains, so a
/// match deep in a long paragraph shows in a one-line list.
fn excerpt_at_match(text: &str, query: &str) -> String {
    // The lower-cased text, and for each of its bytes the index of the
    // character of `text` it came from (lower case may be longer).
    let mut lower = String::with_capacity(text.len());
    let mut origin: Vec<usize> = Vec::with_capacity(text.len());
    for (index, c) in text.chars().enumerate() {
        for l in c.to_lowercase() {
            lower.push(l);
            origin.extend(std::iter::repeat_n(index, l.len_utf8()));
        }
    }
    let Some(at) = query
        .to_lowercase()
        .split_whitespace()
        .filter_map(|word| lower.find(word))
        .min()
    else {
        return text.to_string();
    };
    let chars_before = origin.get(at).copied().unwrap_or(0);
    if chars_before <= CONTEXT_BEFORE_MATCH {
        return text.to_string();
    }
    let skip = chars_before - CONTEXT_BEFORE_MATCH;
    let rest: String = text.chars().skip(skip).collect();
    // Start at a word.
    let rest = match rest.find(char::is_whitespace) {
        Some(space) => rest[space..].trim_start(),
        None => rest.as_str(),
    };
    format!("…{rest}")
}

/// (passed, failed) among the natural-language tests that have an outcome.
pub fn answer_test_counts(app: &App) -> (usize, usize) {
    let outcomes = app
        .ws
        .tests
        .nl_tests
        .iter()
        .filter_map(|t| app.answer_tests.outcomes.get(&t.id));
    outcomes.fold(
        (0, 0),
        |(p, f), o| if o.passed { (p + 1, f) } else { (p, f + 1) },
    )
}

#[cfg(test)]
mod tests {
    use super::excerpt_at_match;

    #[test]
    fn a_match_deep_in_a_span_is_shown_with_a_little_context() {
        let text = "Park credits are sold in units of 5 credits. Each credit costs $0.60 and is worth $1 towards the admission fee.";
        assert_eq!(
            excerpt_at_match(text, "WORTH admission"),
            "…costs $0.60 and is worth $1 towards the admission fee."
        );
        // Near the start: the whole text.
        assert_eq!(excerpt_at_match(text, "sold"), text);
        let german = "Über die Straße fährt ein Auto.";
        assert_eq!(excerpt_at_match(german, "straße"), german);
        // Letters whose lower case is longer do not break the cut.
        let dotted = format!("{} match here", "İ".repeat(30));
        assert_eq!(excerpt_at_match(&dotted, "match"), "…match here");
    }
}
