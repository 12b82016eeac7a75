//! Turns s-expressions into fragment expressions and script commands.

use super::ast::{Expr, ExprKind, Op, Sort};
use super::error::SmtError;
use super::lexer::TokenKind;
use super::number::parse_decimal;
use super::sexp::{SExpr, parse_sexprs};
use super::span::Span;

/// A top-level SMT-LIB command that Precept understands.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// An enumeration: `declare-datatype` or one entry of `declare-datatypes`
    /// whose constructors all take no arguments.
    DeclareEnum {
        name: String,
        values: Vec<String>,
        span: Span,
    },
    /// `declare-const`, or `declare-fun` with no arguments.
    DeclareConst {
        name: String,
        sort: Sort,
        span: Span,
    },
    Assert(Expr),
    /// set-logic, set-info, set-option, check-sat, get-model, push, pop, exit:
    /// accepted and ignored.
    Ignored(String),
    /// `(set-info :keyword "text")`: a string attribute of the script
    /// (Precept's export carries each definition in one).
    Info {
        keyword: String,
        value: String,
        span: Span,
    },
}

/// Commands that are read and ignored on import.
const IGNORED_COMMANDS: [&str; 10] = [
    "set-logic",
    "set-info",
    "set-option",
    "check-sat",
    "get-model",
    "get-value",
    "get-info",
    "push",
    "pop",
    "exit",
];

/// Parses one expression; the whole text must be exactly one term.
pub fn parse_expr(source: &str) -> Result<Expr, SmtError> {
    let sexprs = parse_sexprs(source)?;
    match sexprs.as_slice() {
        [single] => expr_from(source, single),
        [] => Err(SmtError::new(
            source,
            Span::new(0, source.len()),
            "nothing",
            "an expression",
        )),
        [_, extra, ..] => Err(SmtError::new(
            source,
            extra.span(),
            extra.describe(source),
            "the end of the expression",
        )),
    }
}

/// Parses an SMT-LIB script in the fragment.
pub fn parse_script(source: &str) -> Result<Vec<Command>, SmtError> {
    let mut commands = Vec::new();
    for sexpr in parse_sexprs(source)? {
        commands.extend(command_from(source, &sexpr)?);
    }
    Ok(commands)
}

fn command_from(source: &str, sexpr: &SExpr) -> Result<Vec<Command>, SmtError> {
    let SExpr::List(items, span) = sexpr else {
        return Err(SmtError::new(
            source,
            sexpr.span(),
            sexpr.describe(source),
            "a command in parentheses",
        ));
    };
    let Some(head) = items.first().and_then(SExpr::as_symbol) else {
        return Err(SmtError::new(source, *span, "'()'", "a command name"));
    };
    let args = &items[1..];
    match head {
        "assert" => {
            let [term] = args else {
                return Err(arity_error(source, *span, "assert", "exactly one term"));
            };
            Ok(vec![Command::Assert(expr_from(source, term)?)])
        }
        "declare-const" => {
            let [name, sort] = args else {
                return Err(arity_error(
                    source,
                    *span,
                    "declare-const",
                    "a name and a sort",
                ));
            };
            Ok(vec![Command::DeclareConst {
                name: symbol_from(source, name, "a constant name")?,
                sort: sort_from(source, sort)?,
                span: *span,
            }])
        }
        "declare-fun" => {
            let [name, params, sort] = args else {
                return Err(arity_error(
                    source,
                    *span,
                    "declare-fun",
                    "a name, '()' and a sort",
                ));
            };
            match params {
                SExpr::List(p, _) if p.is_empty() => {}
                other => {
                    return Err(SmtError::new(
                        source,
                        other.span(),
                        other.describe(source),
                        "'()': functions with arguments are outside the fragment",
                    ));
                }
            }
            Ok(vec![Command::DeclareConst {
                name: symbol_from(source, name, "a function name")?,
                sort: sort_from(source, sort)?,
                span: *span,
            }])
        }
        "declare-datatype" => {
            let [name, constructors] = args else {
                return Err(arity_error(
                    source,
                    *span,
                    "declare-datatype",
                    "a name and a list of constructors",
                ));
            };
            Ok(vec![Command::DeclareEnum {
                name: symbol_from(source, name, "a datatype name")?,
                values: enum_values(source, constructors)?,
                span: *span,
            }])
        }
        "declare-datatypes" => declare_datatypes(source, args, *span),
        "set-info" => match args {
            [SExpr::Atom(keyword), SExpr::Atom(value)] => match (&keyword.kind, &value.kind) {
                (TokenKind::Keyword(keyword), TokenKind::StringLit(value)) => {
                    Ok(vec![Command::Info {
                        keyword: keyword.clone(),
                        value: value.clone(),
                        span: *span,
                    }])
                }
                _ => Ok(vec![Command::Ignored("set-info".into())]),
            },
            _ => Ok(vec![Command::Ignored("set-info".into())]),
        },
        ignored if IGNORED_COMMANDS.contains(&ignored) => {
            Ok(vec![Command::Ignored(ignored.into())])
        }
        other => Err(SmtError::new(
            source,
            items[0].span(),
            format!("'{other}'"),
            "a command of the fragment: declare-datatype(s), declare-const, declare-fun with no arguments, or assert",
        )),
    }
}

fn arity_error(source: &str, span: Span, command: &str, expected: &str) -> SmtError {
    SmtError::new(source, span, format!("a malformed '{command}'"), expected)
}

fn declare_datatypes(source: &str, args: &[SExpr], span: Span) -> Result<Vec<Command>, SmtError> {
    let [SExpr::List(heads, _), SExpr::List(bodies, bodies_span)] = args else {
        return Err(arity_error(
            source,
            span,
            "declare-datatypes",
            "'((Name 0) ...)' followed by one constructor list per name",
        ));
    };
    if heads.len() != bodies.len() {
        return Err(SmtError::new(
            source,
            *bodies_span,
            format!(
                "{} constructor lists for {} names",
                bodies.len(),
                heads.len()
            ),
            "one constructor list per declared name",
        ));
    }
    let mut commands = Vec::new();
    for (head, body) in heads.iter().zip(bodies) {
        let name = match head {
            SExpr::List(parts, _) if parts.len() == 2 => {
                let arity_zero =
                    matches!(&parts[1], SExpr::Atom(t) if t.kind == TokenKind::Numeral("0".into()));
                if !arity_zero {
                    return Err(SmtError::new(
                        source,
                        parts[1].span(),
                        parts[1].describe(source),
                        "0: parametric datatypes are outside the fragment",
                    ));
                }
                symbol_from(source, &parts[0], "a datatype name")?
            }
            other => {
                return Err(SmtError::new(
                    source,
                    other.span(),
                    other.describe(source),
                    "'(Name 0)'",
                ));
            }
        };
        commands.push(Command::DeclareEnum {
            name,
            values: enum_values(source, body)?,
            span: head.span().to(body.span()),
        });
    }
    Ok(commands)
}

fn enum_values(source: &str, constructors: &SExpr) -> Result<Vec<String>, SmtError> {
    let SExpr::List(items, span) = constructors else {
        return Err(SmtError::new(
            source,
            constructors.span(),
            constructors.describe(source),
            "a list of constructors such as '((RED) (GREEN))' or '(RED GREEN)'",
        ));
    };
    if items.is_empty() {
        return Err(SmtError::new(
            source,
            *span,
            "no constructors",
            "at least one constructor",
        ));
    }
    items
        .iter()
        .map(|item| match item {
            SExpr::List(parts, _) if parts.len() == 1 => {
                symbol_from(source, &parts[0], "a constructor name")
            }
            // The ARC paper's shorthand: `(declare-datatype Tier (GOLD SILVER))`.
            SExpr::Atom(_) => {
                symbol_from(source, item, "a constructor name, such as 'RED' or '(RED)'")
            }
            SExpr::List(parts, _) if parts.len() > 1 => Err(SmtError::new(
                source,
                parts[1].span(),
                parts[1].describe(source),
                "')': constructors with fields are outside the fragment (only enumerations)",
            )),
            other => Err(SmtError::new(
                source,
                other.span(),
                other.describe(source),
                "a constructor such as 'RED' or '(RED)'",
            )),
        })
        .collect()
}

fn symbol_from(source: &str, sexpr: &SExpr, what: &str) -> Result<String, SmtError> {
    sexpr
        .as_symbol()
        .map(str::to_string)
        .ok_or_else(|| SmtError::new(source, sexpr.span(), sexpr.describe(source), what))
}

fn sort_from(source: &str, sexpr: &SExpr) -> Result<Sort, SmtError> {
    match sexpr.as_symbol() {
        Some(name) => Ok(Sort::from_name(name)),
        None => Err(SmtError::new(
            source,
            sexpr.span(),
            sexpr.describe(source),
            "a sort: Bool, Int, Real or a declared enumeration",
        )),
    }
}

fn expr_from(source: &str, sexpr: &SExpr) -> Result<Expr, SmtError> {
    let span = sexpr.span();
    let kind = match sexpr {
        SExpr::Atom(token) => match &token.kind {
            TokenKind::Symbol(name) if name == "true" => ExprKind::Bool(true),
            TokenKind::Symbol(name) if name == "false" => ExprKind::Bool(false),
            TokenKind::Symbol(name) => {
                if Op::from_symbol(name).is_some() {
                    return Err(SmtError::new(
                        source,
                        span,
                        format!("the operator '{name}' without arguments"),
                        format!("'({name} ...)'"),
                    ));
                }
                ExprKind::Symbol(name.clone())
            }
            TokenKind::Numeral(digits) => {
                ExprKind::Int(digits.parse().map_err(|_| {
                    SmtError::new(source, span, format!("'{digits}'"), "an integer")
                })?)
            }
            TokenKind::Decimal(text) => ExprKind::Decimal(
                parse_decimal(text)
                    .ok_or_else(|| SmtError::new(source, span, format!("'{text}'"), "a decimal"))?,
            ),
            TokenKind::BitVector(text) => {
                return Err(SmtError::new(
                    source,
                    span,
                    format!("the bit-vector literal '{text}'"),
                    "a Bool, Int, Real or enum term (bit-vectors are outside the fragment)",
                ));
            }
            TokenKind::StringLit(_) | TokenKind::Keyword(_) => {
                return Err(SmtError::new(
                    source,
                    span,
                    sexpr.describe(source),
                    "a term",
                ));
            }
            TokenKind::Open | TokenKind::Close => unreachable_token(source, span)?,
        },
        SExpr::List(items, _) => {
            let Some(head) = items.first() else {
                return Err(SmtError::new(source, span, "'()'", "a term"));
            };
            let Some(name) = head.as_symbol() else {
                return Err(SmtError::new(
                    source,
                    head.span(),
                    head.describe(source),
                    "an operator name",
                ));
            };
            if name == "!" {
                // An annotated term `(! t :named n)`: keep the term, drop the annotation.
                let Some(term) = items.get(1) else {
                    return Err(SmtError::new(
                        source,
                        span,
                        "'(!)'",
                        "'(! term :attribute ...)'",
                    ));
                };
                return expr_from(source, term);
            }
            let Some(op) = Op::from_symbol(name) else {
                let expected = if matches!(name, "let" | "forall" | "exists" | "match") {
                    "a quantifier-free, let-free term of the fragment"
                } else {
                    "an operator of the fragment: and or not => = distinct ite < <= > >= + - * / to_real to_int"
                };
                return Err(SmtError::new(
                    source,
                    head.span(),
                    format!("'{name}'"),
                    expected,
                ));
            };
            let args = items[1..]
                .iter()
                .map(|item| expr_from(source, item))
                .collect::<Result<Vec<_>, _>>()?;
            ExprKind::App(op, args)
        }
    };
    Ok(Expr { kind, span })
}

fn unreachable_token(source: &str, span: Span) -> Result<ExprKind, SmtError> {
    Err(SmtError::new(source, span, "a parenthesis", "a term"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nested_terms_with_spans() {
        let source = "(=> isLowSeason (= fee (* 0.75 baseFee)))";
        let expr = parse_expr(source).unwrap();
        let ExprKind::App(Op::Implies, args) = &expr.kind else {
            panic!("not an implication: {expr:?}");
        };
        assert_eq!(
            &source[args[1].span.start..args[1].span.end],
            "(= fee (* 0.75 baseFee))"
        );
        assert_eq!(expr.symbols(), vec!["isLowSeason", "fee", "baseFee"]);
    }

    #[test]
    fn unknown_operator_is_an_error_with_position() {
        let err = parse_expr("(and a\n  (select m 1))").unwrap_err();
        assert_eq!(err.position.line, 2);
        assert_eq!(err.position.column, 4);
        assert_eq!(err.found, "'select'");
    }

    #[test]
    fn script_accepts_declarations_and_ignores_housekeeping() {
        let script = "(set-logic QF_LIA)(set-info :status sat)\n\
            (declare-datatypes ((Age 0)) (((CHILD) (ADULT))))\n\
            (declare-datatype Color ((RED) (GREEN)))\n\
            (declare-fun x () Int)(declare-const a Age)\n(assert (> x 0))(check-sat)(exit)";
        let commands = parse_script(script).unwrap();
        let declared: Vec<_> = commands
            .iter()
            .filter(|c| !matches!(c, Command::Ignored(_)))
            .collect();
        assert_eq!(declared.len(), 5);
        assert!(
            matches!(declared[0], Command::DeclareEnum { name, values, .. } if name == "Age" && values.len() == 2)
        );
    }

    #[test]
    fn enumerations_in_the_arc_papers_shorthand_are_accepted() {
        let commands = parse_script(
            "(declare-datatype Tier (GOLD SILVER))\n(declare-datatypes ((Age 0)) ((CHILD ADULT)))",
        )
        .unwrap();
        let enums: Vec<(String, Vec<String>)> = commands
            .into_iter()
            .filter_map(|c| match c {
                Command::DeclareEnum { name, values, .. } => Some((name, values)),
                _ => None,
            })
            .collect();
        assert_eq!(
            enums,
            vec![
                (
                    "Tier".to_string(),
                    vec!["GOLD".to_string(), "SILVER".to_string()]
                ),
                (
                    "Age".to_string(),
                    vec!["CHILD".to_string(), "ADULT".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn a_constructor_that_is_not_a_name_is_refused_with_its_position() {
        let err = parse_script("(declare-datatype Tier (GOLD 3))").unwrap_err();
        assert_eq!(err.position.column, 30, "{err}");
        assert!(err.expected.contains("constructor name"), "{err}");
    }

    #[test]
    fn functions_with_arguments_are_rejected() {
        let err = parse_script("(declare-fun f (Int) Int)").unwrap_err();
        assert!(err.expected.contains("outside the fragment"), "{err}");
        assert_eq!(err.position.column, 16);
    }
}
