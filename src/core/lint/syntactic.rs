//! Syntactic checks (no solver): declarations nothing uses, rules that do not
//! compile, duplicate and equivalent rules, unconditional assertions, and
//! missing or shared descriptions.
//!
//! Every check reads the stored model and its compiled form only, so the
//! whole pass is cheap enough to run on every edit.

use super::{Diagnostic, LintCode, ModelEdit, Severity};
use crate::core::model::natural_order;
use crate::core::model::{CompiledModel, ModelIssue, PolicyModel, Rule};
use crate::core::smt::lexer::{TokenKind, tokenize};
use crate::core::smt::printer::quote_symbol;
use crate::core::smt::{Expr, ExprKind, Op, SmtError, Vocabulary, parse_expr};
use std::collections::{HashMap, HashSet};

/// Longest expression quoted in full inside a message.
const QUOTE_LIMIT: usize = 90;

/// All syntactic diagnostics of a model, ordered by code and then by the rule
/// id or name each one is about (in natural order: R2 before R10).
pub fn check(model: &PolicyModel, compiled: &CompiledModel) -> Vec<Diagnostic> {
    let mentioned = mentioned_names(model);
    let mut found = Vec::new();
    unused_variables(model, &mentioned, &mut found);
    unused_types(model, &mentioned, &mut found);
    unused_enum_values(model, &mentioned, &mut found);
    for issue in &compiled.issues {
        found.push(compile_issue(model, compiled, issue));
    }
    duplicate_rules(compiled, &mut found);
    bare_assertions(compiled, &mut found);
    empty_descriptions(model, &mut found);
    shared_descriptions(model, &mut found);
    // Stable: diagnostics about one subject keep the order they were found in.
    found.sort_by(|a, b| {
        a.diagnostic
            .code
            .cmp(&b.diagnostic.code)
            .then_with(|| natural_order(&a.subject, &b.subject))
    });
    found.into_iter().map(|f| f.diagnostic).collect()
}

/// A diagnostic with the name it is sorted by.
struct Found {
    subject: String,
    diagnostic: Diagnostic,
}

impl Found {
    fn new(subject: &str, diagnostic: Diagnostic) -> Found {
        Found {
            subject: subject.to_string(),
            diagnostic,
        }
    }
}

// ---------------------------------------------------------------- usage

/// Every symbol any rule mentions, including rules that do not compile (a
/// broken rule still shows what its author meant to use).
fn mentioned_names(model: &PolicyModel) -> HashSet<String> {
    let mut names = HashSet::new();
    for rule in &model.rules {
        names.extend(symbols_in_text(&rule.expression));
    }
    names
}

fn symbols_in_text(text: &str) -> Vec<String> {
    if let Ok(expr) = parse_expr(text) {
        return expr.symbols().into_iter().map(str::to_string).collect();
    }
    match tokenize(text) {
        Ok(tokens) => tokens
            .into_iter()
            .filter_map(|t| match t.kind {
                TokenKind::Symbol(name) => Some(name),
                _ => None,
            })
            .collect(),
        Err(_) => text
            .split(|c: char| c.is_whitespace() || "()|".contains(c))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
    }
}

// ------------------------------------------------------------ L101-L103

fn unused_variables(model: &PolicyModel, mentioned: &HashSet<String>, found: &mut Vec<Found>) {
    let mut seen = HashSet::new();
    for variable in &model.variables {
        if mentioned.contains(&variable.name) || !seen.insert(variable.name.as_str()) {
            continue;
        }
        let name = &variable.name;
        let message = format!(
            "The variable {} ({}{}) is declared but no rule uses it. The rules say nothing \
             about it, so they can never settle a claim about it: such a claim is SATISFIABLE \
             unless the question's own premise decides it. It is usually left over from an earlier draft, or the \
             rule the document states about it was never written. Delete it, or add that rule.",
            name,
            variable.sort,
            described(&variable.description),
        );
        found.push(Found::new(
            name,
            Diagnostic::new(LintCode::UnusedVariable, Severity::Warning, message)
                .variables([name.as_str()])
                .fix(
                    format!("delete the unused variable {name}"),
                    ModelEdit::DeleteVariable { name: name.clone() },
                ),
        ));
    }
}

fn unused_types(model: &PolicyModel, mentioned: &HashSet<String>, found: &mut Vec<Found>) {
    let mut seen = HashSet::new();
    for type_def in &model.types {
        let name = &type_def.name;
        if model.variables.iter().any(|v| &v.sort == name) || !seen.insert(name.as_str()) {
            continue;
        }
        let values: Vec<&str> = type_def.values.iter().map(|v| v.value.as_str()).collect();
        let any_named = values.iter().any(|v| mentioned.contains(*v));
        let mut rules_naming: Vec<&str> = model
            .rules
            .iter()
            .filter(|r| {
                any_named
                    && symbols_in_text(&r.expression)
                        .iter()
                        .any(|s| values.contains(&s.as_str()))
            })
            .map(|r| r.id.as_str())
            .collect();
        rules_naming.sort_by(|a, b| natural_order(a, b));
        let head = if values.is_empty() {
            format!("The type {name} (with no values) is declared but no variable has it.")
        } else {
            format!(
                "The type {name} (values {}) is declared but no variable has it.",
                list(&values)
            )
        };
        let diagnostic = if rules_naming.is_empty() {
            Diagnostic::new(
                LintCode::UnusedType,
                Severity::Warning,
                format!(
                    "{head} It takes no part in any check. Delete it, or give it to the \
                     variable it was meant for."
                ),
            )
            .fix(
                format!("delete the unused type {name}"),
                ModelEdit::DeleteType { name: name.clone() },
            )
        } else {
            Diagnostic::new(
                LintCode::UnusedType,
                Severity::Warning,
                format!(
                    "{head} Yet {} {} its values, comparing them only with each other, which \
                     says nothing about the policy. Give the type to the variable it was meant \
                     for, or correct those rules and then delete the type.",
                    list(&rules_naming),
                    if rules_naming.len() == 1 {
                        "mentions"
                    } else {
                        "mention"
                    },
                ),
            )
            .rules(rules_naming)
        };
        found.push(Found::new(name, diagnostic));
    }
}

fn unused_enum_values(model: &PolicyModel, mentioned: &HashSet<String>, found: &mut Vec<Found>) {
    let mut seen = HashSet::new();
    for type_def in &model.types {
        let name = &type_def.name;
        let holders = unique(
            model
                .variables
                .iter()
                .filter(|v| &v.sort == name && mentioned.contains(&v.name))
                .map(|v| v.name.as_str()),
        );
        // A type whose variables no rule uses gets unused-variable instead.
        if holders.is_empty() || !seen.insert(name.as_str()) {
            continue;
        }
        for value in &type_def.values {
            if mentioned.contains(&value.value) {
                continue;
            }
            let value_name = &value.value;
            let message = format!(
                "No rule mentions the value {value_name}{} of the type {name} (the type of {}). \
                 The solver still counts it as a possible value, governed only by rules that \
                 rule out other values. That is fine when the document has nothing special to \
                 say about it. If the document has no such case, delete the value; if it has a \
                 rule for it, that rule is missing.",
                in_parentheses(&value.description),
                list(&holders),
            );
            let mut diagnostic =
                Diagnostic::new(LintCode::UnusedEnumValue, Severity::Info, message)
                    .variables(holders.iter().copied());
            if type_def.values.len() > 1 {
                diagnostic = diagnostic.fix(
                    format!(
                        "delete the value {value_name} from {name} (it stops being a possible \
                         value)"
                    ),
                    ModelEdit::DeleteEnumValue {
                        type_name: name.clone(),
                        value: value_name.clone(),
                    },
                );
            }
            found.push(Found::new(name, diagnostic));
        }
    }
}

// ------------------------------------------------------------ L110, L111

fn compile_issue(model: &PolicyModel, compiled: &CompiledModel, issue: &ModelIssue) -> Found {
    match &issue.smt_error {
        Some(error) => rule_error(model, compiled, issue, error),
        None => declaration_error(model, issue),
    }
}

/// The rule an issue's field (`rules[3].expression`) points at.
fn rule_of_issue<'a>(model: &'a PolicyModel, issue: &ModelIssue) -> Option<&'a Rule> {
    issue
        .field
        .strip_prefix("rules[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|index| index.parse::<usize>().ok())
        .and_then(|index| model.rules.get(index))
        .filter(|rule| rule.id == issue.subject)
        .or_else(|| model.rule(&issue.subject))
}

fn rule_error(
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
        .and_then(|rest| rest.strip_suffix('\''))
    {
        let declared_elsewhere = model.variables.iter().any(|v| v.name == name)
            || model
                .types
                .iter()
                .any(|t| t.values.iter().any(|v| v.value == name));
        let mut message = format!("Rule {id} does not compile: {error}. ");
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

fn declaration_error(model: &PolicyModel, issue: &ModelIssue) -> Found {
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
fn suggest_replacement(
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

/// Edit distance, where a difference of letter case alone costs nothing.
fn spelling_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

// ------------------------------------------------------------ L120, L121

fn is_commutative(op: Op) -> bool {
    matches!(
        op,
        Op::And | Op::Or | Op::Eq | Op::Distinct | Op::Add | Op::Mul
    )
}

/// The expression with `>`/`>=` turned into `<`/`<=` (arguments reversed)
/// and the arguments of commutative operators sorted by `key`. Nested
/// operators are not flattened.
fn reorder(expr: &Expr, key: &dyn Fn(&Expr) -> String) -> Expr {
    match &expr.kind {
        ExprKind::App(op, args) => {
            let mut args: Vec<Expr> = args.iter().map(|a| reorder(a, key)).collect();
            let op = match op {
                Op::Gt => {
                    args.reverse();
                    Op::Lt
                }
                Op::Ge => {
                    args.reverse();
                    Op::Le
                }
                other => *other,
            };
            if is_commutative(op) {
                args.sort_by_cached_key(|a| key(a));
            }
            Expr::app(op, args)
        }
        _ => expr.clone(),
    }
}

/// The printed form with each variable replaced by a placeholder of its sort.
fn shape(expr: &Expr, vocabulary: &Vocabulary) -> String {
    match &expr.kind {
        ExprKind::Symbol(name) => match vocabulary.variable_sort(name) {
            Some(sort) => format!("?{}", sort.name()),
            None => quote_symbol(name),
        },
        ExprKind::App(op, args) => {
            let mut out = format!("({}", op.symbol());
            for arg in args {
                out.push(' ');
                out.push_str(&shape(arg, vocabulary));
            }
            out.push(')');
            out
        }
        _ => expr.to_string(),
    }
}

/// The canonical form up to consistent renaming of variables (each renamed by
/// its sort and the order it first appears), and the variables in that order.
fn renamed_form(expr: &Expr, vocabulary: &Vocabulary) -> (String, Vec<String>) {
    // Ties between arguments of one shape are broken by their names, so rules
    // that share most variables line them up the same way.
    let ordered = reorder(expr, &|e| format!("{}\u{1}{e}", shape(e, vocabulary)));
    let order: Vec<String> = ordered
        .symbols()
        .into_iter()
        .filter(|s| vocabulary.variable_sort(s).is_some())
        .map(str::to_string)
        .collect();
    let numbers: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let renamed = ordered.rename_symbols(&|name| {
        let number = numbers.get(name)?;
        let sort = vocabulary.variable_sort(name)?;
        Some(format!("?{}#{number}", sort.name()))
    });
    (renamed.to_string(), order)
}

fn duplicate_rules(compiled: &CompiledModel, found: &mut Vec<Found>) {
    let rules = &compiled.rules;
    let vocabulary = &compiled.vocabulary;
    let texts: Vec<String> = rules.iter().map(|r| r.written.to_string()).collect();
    let canonical: Vec<String> = rules
        .iter()
        .map(|r| reorder(&r.written, &|e| e.to_string()).to_string())
        .collect();
    // The first rule with each text, and with each canonical form.
    let mut first_text: HashMap<&str, usize> = HashMap::new();
    let mut first_canonical: HashMap<&str, usize> = HashMap::new();
    for (i, (text, form)) in texts.iter().zip(&canonical).enumerate() {
        first_text.entry(text.as_str()).or_insert(i);
        first_canonical.entry(form.as_str()).or_insert(i);
    }
    // The first rule of each class of rules equal up to argument order.
    let mut representatives = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let later = rule.id.as_str();
        let same_text = first_text[texts[i].as_str()];
        let same_canonical = first_canonical[canonical[i].as_str()];
        if same_text < i {
            let j = same_text;
            let earlier = rules[j].id.as_str();
            let message = format!(
                "Rule {later} is the same rule as {earlier}: {}. The copy adds nothing to the \
                 model, doubles the reviewing, and an edit to one copy leaves the other behind. \
                 Delete {later}.",
                quote(&rule.written)
            );
            found.push(Found::new(
                later,
                Diagnostic::new(LintCode::DuplicateRule, Severity::Warning, message)
                    .rules([later, earlier])
                    .variables(declared_symbols(&rule.written, vocabulary))
                    .fix(
                        format!("delete {later}, a copy of {earlier}"),
                        ModelEdit::DeleteRule {
                            id: later.to_string(),
                        },
                    ),
            ));
        } else if same_canonical < i {
            let j = same_canonical;
            let earlier = rules[j].id.as_str();
            let message = format!(
                "Rule {later} says the same as {earlier}, only with the arguments of an \
                 operator such as and, or, =, + or * (or the sides of a comparison) in another \
                 order: {} against {}. Keeping both adds nothing and an edit to one leaves the \
                 other behind. Delete {later}.",
                quote(&rule.written),
                quote(&rules[j].written)
            );
            found.push(Found::new(
                later,
                Diagnostic::new(LintCode::EquivalentRule, Severity::Warning, message)
                    .rules([later, earlier])
                    .variables(declared_symbols(&rule.written, vocabulary))
                    .fix(
                        format!("delete {later}, a reordering of {earlier}"),
                        ModelEdit::DeleteRule {
                            id: later.to_string(),
                        },
                    ),
            ));
        } else {
            representatives.push(i);
        }
    }
    let mut first_of_shape: HashMap<String, (Vec<String>, usize)> = HashMap::new();
    for i in representatives {
        let (form, order) = renamed_form(&rules[i].written, vocabulary);
        let Some((earlier_order, j)) = first_of_shape.get(&form) else {
            first_of_shape.insert(form, (order, i));
            continue;
        };
        let later = rules[i].id.as_str();
        let earlier = rules[*j].id.as_str();
        let mut pairs: Vec<(&str, &str)> = order
            .iter()
            .zip(earlier_order)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        // In the order the later rule mentions them as written.
        let written = rules[i].written.symbols();
        pairs.sort_by_key(|(now, _)| written.iter().position(|s| s == now));
        let swaps: Vec<String> = pairs
            .iter()
            .map(|(now, before)| format!("{now} where {earlier} has {before}"))
            .collect();
        let message = format!(
            "Rule {later} has the same shape as {earlier} over different variables: {later} \
             uses {}. That is often intended (the same rule for two products or two cases), \
             but a rule copied and only partly adapted looks the same way, with the same \
             numbers and values. Check that the document really gives both cases this \
             treatment.",
            list(&swaps)
        );
        let variables = unique(
            pairs
                .iter()
                .map(|(now, _)| *now)
                .chain(pairs.iter().map(|(_, before)| *before)),
        );
        found.push(Found::new(
            later,
            Diagnostic::new(LintCode::EquivalentRule, Severity::Info, message)
                .rules([later, earlier])
                .variables(variables),
        ));
    }
}

// ------------------------------------------------------------------ L130

/// An implication, or a conjunction of conditional parts.
fn is_conditional(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::App(Op::Implies, _) => true,
        ExprKind::App(Op::And, args) => args.iter().all(is_conditional),
        _ => false,
    }
}

/// The variable a rule of the form `(= var expr)` defines, when `var` does
/// not occur in `expr`.
fn defined_variable<'a>(expr: &'a Expr, vocabulary: &Vocabulary) -> Option<(&'a str, &'a Expr)> {
    let ExprKind::App(Op::Eq, args) = &expr.kind else {
        return None;
    };
    let [left, right] = args.as_slice() else {
        return None;
    };
    for (side, other) in [(left, right), (right, left)] {
        if let ExprKind::Symbol(name) = &side.kind
            && vocabulary.variable_sort(name).is_some()
            && !other.symbols().contains(&name.as_str())
        {
            return Some((name, other));
        }
    }
    None
}

const CONSEQUENCE: &str = "hold in every scenario and are a common cause of surprising \
                           IMPOSSIBLE results: any question whose premise contradicts one is \
                           impossible.";

fn bare_assertions(compiled: &CompiledModel, found: &mut Vec<Found>) {
    let vocabulary = &compiled.vocabulary;
    for rule in &compiled.rules {
        let expr = &rule.written;
        if is_conditional(expr) {
            continue;
        }
        let id = rule.id.as_str();
        let message = match defined_variable(expr, vocabulary) {
            Some((variable, value)) => format!(
                "Rule {id} is a definition with no condition: it sets {variable} to {} in \
                 every scenario. Definitions like this are common and usually fine, but \
                 unconditional facts {CONSEQUENCE} Check that the document states it without \
                 exceptions; if it holds only in some cases, put it under that condition \
                 with =>.",
                quote(value),
            ),
            None => format!(
                "Rule {id} is a constraint with no condition: {} must hold in every scenario. \
                 Unconditional facts {CONSEQUENCE} Check that the document really states it \
                 unconditionally; if it holds only in some cases, put it under that condition \
                 with =>.",
                quote(expr)
            ),
        };
        found.push(Found::new(
            id,
            Diagnostic::new(LintCode::BareAssertion, Severity::Info, message)
                .rules([id])
                .variables(declared_symbols(expr, vocabulary)),
        ));
    }
}

// ------------------------------------------------------------ L140, L141

const DESCRIPTION_MATTERS: &str = "Automated reasoning checks translate questions and answers \
                                   into logic by matching their words against the \
                                   descriptions, so without one the translator has to guess.";

fn empty_descriptions(model: &PolicyModel, found: &mut Vec<Found>) {
    for type_def in &model.types {
        let name = &type_def.name;
        if type_def.description.trim().is_empty() {
            let message = format!(
                "The type {name} has no description. {DESCRIPTION_MATTERS} Say in the \
                 document's words what it classifies."
            );
            found.push(Found::new(
                name,
                Diagnostic::new(LintCode::EmptyDescription, Severity::Warning, message),
            ));
        }
        for value in &type_def.values {
            if value.description.trim().is_empty() {
                let message = format!(
                    "The value {} of the type {name} has no description. {DESCRIPTION_MATTERS} \
                     Say in the document's words which case it stands for.",
                    value.value
                );
                found.push(Found::new(
                    name,
                    Diagnostic::new(LintCode::EmptyDescription, Severity::Warning, message),
                ));
            }
        }
    }
    for variable in &model.variables {
        if variable.description.trim().is_empty() {
            let name = &variable.name;
            let message = format!(
                "The variable {name} has no description. {DESCRIPTION_MATTERS} Say in the \
                 document's words what it means, with its unit if it is a number."
            );
            found.push(Found::new(
                name,
                Diagnostic::new(LintCode::EmptyDescription, Severity::Warning, message)
                    .variables([name.as_str()]),
            ));
        }
    }
}

fn shared_descriptions(model: &PolicyModel, found: &mut Vec<Found>) {
    let mut groups: Vec<(String, &str, Vec<&str>)> = Vec::new();
    for variable in &model.variables {
        let key = variable
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if key.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, _, names)) => {
                if !names.contains(&variable.name.as_str()) {
                    names.push(&variable.name);
                }
            }
            None => groups.push((key, variable.description.trim(), vec![&variable.name])),
        }
    }
    for (_, description, mut names) in groups {
        if names.len() < 2 {
            continue;
        }
        names.sort_by(|a, b| natural_order(a, b));
        let message = format!(
            "The variables {} all have the description \"{description}\". The translator picks \
             variables by their descriptions, so it cannot tell these apart and may put a fact \
             about one into another. Say in each description what sets it apart, or merge them \
             if they are the same thing.",
            list(&names)
        );
        found.push(Found::new(
            names[0],
            Diagnostic::new(LintCode::SharedDescription, Severity::Warning, message)
                .variables(names.iter().copied()),
        ));
    }
}

// ---------------------------------------------------------------- words

/// The declared variables an expression mentions, in order of appearance.
fn declared_symbols(expr: &Expr, vocabulary: &Vocabulary) -> Vec<String> {
    expr.symbols()
        .into_iter()
        .filter(|s| vocabulary.variable_sort(s).is_some())
        .map(str::to_string)
        .collect()
}

fn unique<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for name in names {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[impl AsRef<str>]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(|s| s.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// `, "description"` when there is one.
fn described(description: &str) -> String {
    let description = description.trim();
    if description.is_empty() {
        String::new()
    } else {
        format!(", \"{description}\"")
    }
}

/// ` ("description")` when there is one.
fn in_parentheses(description: &str) -> String {
    let description = description.trim();
    if description.is_empty() {
        String::new()
    } else {
        format!(" (\"{description}\")")
    }
}

/// An expression as printed, cut short when long.
fn quote(expr: &Expr) -> String {
    let text = expr.to_string();
    if text.chars().count() <= QUOTE_LIMIT {
        text
    } else {
        format!("{}...", text.chars().take(QUOTE_LIMIT).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::compile;
    use crate::core::model::import::import_smtlib;

    const SOURCE: &str = "(declare-datatype Tier ((GOLD) (SILVER)))
        (declare-const tier Tier)
        (declare-const a Bool)
        (declare-const b Bool)
        (declare-const x Real)
        (declare-const y Real)
        (declare-const n Int)
        (assert (=> (= tier GOLD) (> x 1.0)))";

    fn vocabulary() -> Vocabulary {
        compile(&import_smtlib(SOURCE).unwrap()).vocabulary
    }

    fn expr(text: &str) -> Expr {
        parse_expr(text).unwrap()
    }

    fn plain(text: &str) -> String {
        reorder(&expr(text), &|e| e.to_string()).to_string()
    }

    fn codes(model: &PolicyModel) -> Vec<&'static str> {
        check(model, &compile(model))
            .iter()
            .map(|d| d.code.code())
            .collect()
    }

    #[test]
    fn reordering_sorts_commutative_arguments_and_mirrors_comparisons() {
        assert_eq!(plain("(and b a)"), plain("(and a b)"));
        assert_eq!(plain("(= (+ 2.0 y) x)"), plain("(= x (+ y 2.0))"));
        assert_eq!(plain("(> x y)"), "(< y x)");
        assert_eq!(plain("(>= x y n)"), "(<= n y x)");
        // Not commutative: order kept.
        assert_eq!(plain("(- x y)"), "(- x y)");
        assert_eq!(plain("(=> a b)"), "(=> a b)");
        assert_ne!(plain("(=> a b)"), plain("(=> b a)"));
        // Not flattened: nesting is kept.
        assert_ne!(plain("(and a (and b x))"), plain("(and (and a b) x)"));
        assert_eq!(plain("(and a (and b a))"), plain("(and (and a b) a)"));
    }

    #[test]
    fn renamed_forms_are_equal_only_for_consistent_renamings_of_one_sort() {
        let v = vocabulary();
        let form = |text: &str| renamed_form(&expr(text), &v);
        assert_eq!(form("(=> a (> x 1.0))").0, form("(=> b (> y 1.0))").0);
        assert_eq!(form("(=> a (> x y))").0, form("(=> b (< x y))").0);
        // x used twice must map to one variable.
        assert_ne!(form("(> (+ x x) 1.0)").0, form("(> (+ x y) 1.0)").0);
        // Real and Int variables are not interchangeable.
        assert_ne!(form("(> x 1)").0, form("(> n 1)").0);
        // Enum values are constants, not variables.
        assert_ne!(form("(= tier GOLD)").0, form("(= tier SILVER)").0);
        assert_eq!(
            form("(and (= tier GOLD) a)").1,
            vec!["tier".to_string(), "a".to_string()]
        );
    }

    #[test]
    fn conditional_rules_and_definitions() {
        let v = vocabulary();
        assert!(is_conditional(&expr("(=> a b)")));
        assert!(is_conditional(&expr("(and (=> a b) (=> b a))")));
        assert!(!is_conditional(&expr("(and (=> a b) b)")));
        assert!(!is_conditional(&expr("(= x 1.0)")));
        let defined = |text: &str| {
            let e = expr(text);
            defined_variable(&e, &v).map(|(name, _)| name.to_string())
        };
        assert_eq!(defined("(= x 1.0)").as_deref(), Some("x"));
        assert_eq!(defined("(= (* 2.0 y) x)").as_deref(), Some("x"));
        assert_eq!(defined("(= x (+ x 1.0))"), None);
        assert_eq!(defined("(= tier GOLD)").as_deref(), Some("tier"));
        assert_eq!(defined("(= GOLD GOLD)"), None);
        assert_eq!(defined("(= x y n)"), None);
    }

    #[test]
    fn spelling_distance_ignores_case() {
        assert_eq!(spelling_distance("baseFee", "basefee"), 0);
        assert_eq!(spelling_distance("feee", "fee"), 1);
        assert_eq!(spelling_distance("fee", "fie"), 1);
        assert_eq!(spelling_distance("", "abc"), 3);
        assert_eq!(spelling_distance("price", "fee"), 4);
    }

    #[test]
    fn broken_rules_still_count_as_using_their_names() {
        assert_eq!(symbols_in_text("(> fee 1.0)"), vec!["fee"]);
        // Unbalanced: the lexer still finds the symbols.
        assert_eq!(
            symbols_in_text("(> fee |two words|"),
            vec![">", "fee", "two words"]
        );
        // Not even lexable.
        assert!(symbols_in_text("(> fee |open").contains(&"fee".to_string()));
    }

    #[test]
    fn words() {
        assert_eq!(list(&["a"]), "a");
        assert_eq!(list(&["a", "b"]), "a and b");
        assert_eq!(list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(unique(["x", "y", "x"]), vec!["x", "y"]);
        let long = expr(&format!("(and {})", vec!["a"; 60].join(" ")));
        assert!(quote(&long).ends_with("..."));
    }

    #[test]
    fn a_clean_model_has_no_diagnostics() {
        let mut model = import_smtlib(
            "(declare-datatype Tier ((GOLD) (SILVER)))
             (declare-const tier Tier)
             (declare-const fee Real)
             (assert (=> (= tier GOLD) (> fee 10.0)))
             (assert (=> (= tier SILVER) (< fee 5.0)))",
        )
        .unwrap();
        model.types[0].description = "membership tier".into();
        model.types[0].values[0].description = "gold members".into();
        model.types[0].values[1].description = "silver members".into();
        model.variables[0].description = "the member's tier".into();
        model.variables[1].description = "fee in dollars".into();
        assert!(codes(&model).is_empty(), "{:?}", codes(&model));
    }

    #[test]
    fn diagnostics_come_ordered_by_code_then_subject() {
        let mut model = import_smtlib(
            "(declare-datatype Tier ((GOLD) (SILVER)))
             (declare-const tier Tier)
             (declare-const x10 Real)
             (declare-const x9 Real)
             (declare-const fee Real)
             (assert (= fee 1.0))
             (assert (= fee 1.0))",
        )
        .unwrap();
        model.rules.push(Rule {
            id: "R3".into(),
            expression: "(> fe 1.0)".into(),
            source_span: None,
            review: Default::default(),
            note: String::new(),
        });
        let compiled = compile(&model);
        let diagnostics = check(&model, &compiled);
        let summary: Vec<(String, String)> = diagnostics
            .iter()
            .map(|d| {
                let subject = d.rules.first().or(d.variables.first());
                (
                    d.code.code().to_string(),
                    subject.cloned().unwrap_or_default(),
                )
            })
            .collect();
        let expected = [
            ("L101", "tier"),
            ("L101", "x9"),
            ("L101", "x10"),
            ("L110", "R3"),
            ("L120", "R2"),
            ("L130", "R1"),
            ("L130", "R2"),
            ("L140", ""),
            ("L140", ""),
            ("L140", ""),
            ("L140", "fee"),
            ("L140", "tier"),
            ("L140", "x9"),
            ("L140", "x10"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(c, s)| (c.to_string(), s.to_string()))
            .collect();
        assert_eq!(summary, expected);
        let fix = diagnostics[3].fix.as_ref().unwrap();
        assert_eq!(
            fix.edit,
            ModelEdit::ReplaceRule {
                id: "R3".into(),
                expression: "(> fee 1.0)".into()
            }
        );
    }
}
