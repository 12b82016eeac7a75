//! Rules and declarations that do not compile, each with the closest
//! declared name as a fix when there is one.

use crate::lint::{Diagnostic, LintCode, ModelEdit, Severity};
use crate::model::{CompiledModel, ModelIssue, PolicyModel, Rule};
use crate::smt::printer::quote_symbol;
pub(super) use crate::smt::suggest::spelling_distance;
use crate::smt::{ExprKind, SmtError, parse_expr};

use super::found::*;

pub(super) fn compile_issue(
    model: &PolicyModel,
    compiled: &CompiledModel,
    issue: &ModelIssue,
) -> Found {
    match &issue.smt_error {
        Some(error) => rule_error(model, compiled, issue, error),
        None => declaration_error(model, issue),
    }
}

/// The rule an issue's field (`rules[3].expression`) points at.
pub(super) fn rule_of_issue<'a>(model: &'a PolicyModel, issue: &ModelIssue) -> Option<&'a Rule> {
    issue
        .field
        .strip_prefix("rules[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|index| index.parse::<usize>().ok())
        .and_then(|index| model.rules.get(index))
        .filter(|rule| rule.id == issue.subject)
        .or_else(|| model.rule(&issue.subject))
}

pub(super) fn rule_error(
    model: &PolicyModel,
    compiled: &CompiledModel,
    issue: &ModelIssue,
    error: &SmtError,
) -> Found {
    let id = issue.subject.as_str();
    let text = rule_of_issue(model, issue).map_or("", |r| r.expression.as_str());
    let left_out = format!("Until it is fixed, {id} is left out of every check.");
    if let Some(name) = error
        .found
        .strip_prefix("the unknown name '")
        .and_then(|rest| {
            rest.strip_suffix('\'')
                .or_else(|| rest.split_once("'; did you mean ").map(|(name, _)| name))
        })
    {
        let declared_elsewhere = model.variables.iter().any(|v| v.name == name)
            || model
                .types
                .iter()
                .any(|t| t.values.iter().any(|v| v.value == name));
        let stop = if error.found.ends_with('?') {
            " "
        } else {
            ". "
        };
        let mut message = format!("Rule {id} does not compile: {error}{stop}");
        let fix = if declared_elsewhere {
            message.push_str(&format!(
                "The model declares '{name}', but that declaration has a problem of its own \
                 (see the type-mismatch diagnostic about it); fix that declaration first. \
                 {left_out}"
            ));
            None
        } else {
            message.push_str(&format!(
                "'{name}' is neither a declared variable nor a value of an enum type. \
                 {left_out} "
            ));
            match suggest_replacement(compiled, text, name) {
                Some((candidate, replaced)) => {
                    message.push_str(&format!(
                        "It looks like a misspelling of '{candidate}'; otherwise declare \
                         '{name}'."
                    ));
                    Some((candidate, replaced))
                }
                None => {
                    message.push_str("Correct the name, or declare it as a variable.");
                    None
                }
            }
        };
        let mut diagnostic = Diagnostic::new(LintCode::UndeclaredName, Severity::Error, message)
            .rules([id])
            .variables([name]);
        if let Some((candidate, replaced)) = fix {
            diagnostic = diagnostic.fix(
                format!("replace '{name}' with '{candidate}' in {id}"),
                ModelEdit::ReplaceRule {
                    id: id.to_string(),
                    expression: replaced,
                },
            );
        }
        return Found::new(id, diagnostic);
    }
    let (what, variables) = match parse_expr(text) {
        Ok(expr) => {
            let vocabulary = &compiled.vocabulary;
            let mut names = Vec::new();
            expr.visit(&mut |e| {
                if let ExprKind::Symbol(name) = &e.kind
                    && e.span.start >= error.span.start
                    && e.span.end <= error.span.end
                    && vocabulary.variable_sort(name).is_some()
                    && !names.contains(name)
                {
                    names.push(name.clone());
                }
            });
            ("does not type-check", names)
        }
        Err(_) => ("cannot be read", Vec::new()),
    };
    let message =
        format!("Rule {id} {what}: {error}. {left_out} Correct the expression at that position.");
    Found::new(
        id,
        Diagnostic::new(LintCode::TypeMismatch, Severity::Error, message)
            .rules([id])
            .variables(variables),
    )
}

pub(super) fn declaration_error(model: &PolicyModel, issue: &ModelIssue) -> Found {
    let subject = issue.subject.as_str();
    let where_ = &issue.field;
    let problem = &issue.message;
    let twice = problem.contains("is already declared");
    let diagnostic = if where_.starts_with("variables[") {
        let consequence = if twice {
            "The first declaration stands and this one is ignored; rename or delete it.".into()
        } else if where_.ends_with(".type") {
            format!("Every rule that mentions {subject} fails to compile until this is fixed.")
        } else {
            format!(
                "The declaration is ignored, so rules that mention {subject} do not mean this \
                 variable; rename it."
            )
        };
        Diagnostic::new(
            LintCode::TypeMismatch,
            Severity::Error,
            format!(
                "The variable {subject} cannot be declared ({where_}): {problem}. {consequence}"
            ),
        )
        .variables([subject])
    } else if where_.starts_with("types[") {
        let (consequence, holders) = if twice {
            (
                "The first declaration stands and this one is ignored; rename or delete it.",
                Vec::new(),
            )
        } else {
            (
                "Until this is fixed its values cannot be used and no variable can have it.",
                unique(
                    model
                        .variables
                        .iter()
                        .filter(|v| v.sort == subject)
                        .map(|v| v.name.as_str()),
                ),
            )
        };
        Diagnostic::new(
            LintCode::TypeMismatch,
            Severity::Error,
            format!("The type {subject} cannot be declared ({where_}): {problem}. {consequence}"),
        )
        .variables(holders)
    } else {
        let named = if subject.trim().is_empty() {
            format!("The rule at {where_}")
        } else {
            format!("Rule {subject}")
        };
        let diagnostic = Diagnostic::new(
            LintCode::TypeMismatch,
            Severity::Error,
            format!(
                "{named} has no id of its own: {problem}. It is left out of every check until \
                 it gets a fresh id."
            ),
        );
        if subject.trim().is_empty() {
            diagnostic
        } else {
            diagnostic.rules([subject])
        }
    };
    let key = if subject.trim().is_empty() {
        where_.as_str()
    } else {
        subject
    };
    Found::new(key, diagnostic)
}

/// A declared name close to `unknown` (a likely misspelling) and the rule
/// text with every occurrence replaced, when the result compiles.
pub(super) fn suggest_replacement(
    compiled: &CompiledModel,
    text: &str,
    unknown: &str,
) -> Option<(String, String)> {
    let candidates = compiled
        .variables
        .iter()
        .map(|(name, _)| name.as_str())
        .chain(
            compiled
                .enums
                .iter()
                .flat_map(|(_, values)| values.iter().map(String::as_str)),
        );
    let limit = if unknown.chars().count() <= 4 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for candidate in candidates {
        let distance = spelling_distance(unknown, candidate);
        if distance > limit {
            continue;
        }
        match best {
            Some((d, _)) if distance > d => {}
            Some((d, _)) if distance == d => tied = true,
            _ => {
                best = Some((distance, candidate));
                tied = false;
            }
        }
    }
    let (_, candidate) = best.filter(|_| !tied)?;
    let expr = parse_expr(text).ok()?;
    let mut spans = Vec::new();
    expr.visit(&mut |e| {
        if matches!(&e.kind, ExprKind::Symbol(name) if name == unknown) {
            spans.push(e.span);
        }
    });
    spans.sort_by_key(|s| std::cmp::Reverse(s.start));
    let mut replaced = text.to_string();
    for span in spans {
        replaced.replace_range(span.start..span.end, &quote_symbol(candidate));
    }
    compiled.check_formula(&replaced).ok()?;
    Some((candidate.to_string(), replaced))
}

// ------------------------------------------------------------ L120, L121
