//! Sort checking against a vocabulary of variables and enumerations.
//!
//! Checking also *elaborates*: where Int and Real meet (as Z3 allows), the
//! Int side is wrapped in an explicit `to_real`, so the result is accepted by
//! strict solvers and means exactly what Z3 would make of the original.

use super::ast::{Expr, ExprKind, Op, Sort};
use super::error::SmtError;
use super::suggest::{did_you_mean, nearest_names};
use std::collections::HashMap;

/// The names a policy model declares: variables with their sorts, and
/// enumerations with their values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Vocabulary {
    variables: HashMap<String, Sort>,
    enums: HashMap<String, Vec<String>>,
    value_sorts: HashMap<String, String>,
}

/// Why a declaration cannot be added to the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationError {
    #[error("the type name '{0}' is already declared")]
    TypeTaken(String),
    #[error("the enum value '{value}' is already a value of '{owner}'")]
    ValueTaken { value: String, owner: String },
    #[error("the enum value '{0}' is already a variable")]
    ValueIsVariable(String),
    #[error("the value '{value}' appears twice in '{type_name}'")]
    ValueTwice { value: String, type_name: String },
    #[error("the variable '{0}' is already declared")]
    VariableTaken(String),
    #[error("'{name}' is already a value of the enum '{owner}'")]
    VariableIsValue { name: String, owner: String },
    #[error("'{0}' is reserved and cannot name a variable")]
    Reserved(String),
    #[error("the type '{0}' is not declared")]
    UnknownType(String),
}

impl Vocabulary {
    pub fn new() -> Vocabulary {
        Vocabulary::default()
    }

    /// Declares an enumeration. Fails with a message when a name is taken.
    pub fn declare_enum(&mut self, name: &str, values: &[String]) -> Result<(), DeclarationError> {
        if matches!(name, "Bool" | "Int" | "Real") || self.enums.contains_key(name) {
            return Err(DeclarationError::TypeTaken(name.to_string()));
        }
        for value in values {
            if let Some(owner) = self.value_sorts.get(value) {
                return Err(DeclarationError::ValueTaken {
                    value: value.clone(),
                    owner: owner.clone(),
                });
            }
            if self.variables.contains_key(value) {
                return Err(DeclarationError::ValueIsVariable(value.clone()));
            }
        }
        for (i, value) in values.iter().enumerate() {
            if values[..i].contains(value) {
                return Err(DeclarationError::ValueTwice {
                    value: value.clone(),
                    type_name: name.to_string(),
                });
            }
        }
        for value in values {
            self.value_sorts.insert(value.clone(), name.to_string());
        }
        self.enums.insert(name.to_string(), values.to_vec());
        Ok(())
    }

    /// Declares a variable. Fails with a message when the name is taken or the sort unknown.
    pub fn declare_variable(&mut self, name: &str, sort: Sort) -> Result<(), DeclarationError> {
        if self.variables.contains_key(name) {
            return Err(DeclarationError::VariableTaken(name.to_string()));
        }
        if let Some(owner) = self.value_sorts.get(name) {
            return Err(DeclarationError::VariableIsValue {
                name: name.to_string(),
                owner: owner.clone(),
            });
        }
        if matches!(name, "true" | "false") || Op::from_symbol(name).is_some() {
            return Err(DeclarationError::Reserved(name.to_string()));
        }
        if let Sort::Enum(type_name) = &sort
            && !self.enums.contains_key(type_name)
        {
            return Err(DeclarationError::UnknownType(type_name.clone()));
        }
        self.variables.insert(name.to_string(), sort);
        Ok(())
    }

    pub fn variable_sort(&self, name: &str) -> Option<&Sort> {
        self.variables.get(name)
    }

    /// The enumeration a value belongs to.
    pub fn value_enum(&self, value: &str) -> Option<&str> {
        self.value_sorts.get(value).map(String::as_str)
    }

    pub fn enum_values(&self, name: &str) -> Option<&[String]> {
        self.enums.get(name).map(Vec::as_slice)
    }

    /// The declared variables and enum values nearest to an unknown name,
    /// best first (at most three; none when nothing is close).
    pub fn nearest_names(&self, unknown: &str) -> Vec<&str> {
        let names = self
            .variables
            .keys()
            .chain(self.value_sorts.keys())
            .map(String::as_str);
        nearest_names(unknown, names)
    }

    /// Checks `expr` (read from `source`) and returns its elaborated form and sort.
    pub fn check(&self, source: &str, expr: &Expr) -> Result<(Expr, Sort), SmtError> {
        Checker {
            vocabulary: self,
            source,
        }
        .check(expr)
    }

    /// Checks that `expr` is a Bool term and returns its elaborated form.
    /// Numerals too long for the solver to stay interruptible are refused
    /// (`numeral_limits.rs`).
    pub fn check_formula(&self, source: &str, expr: &Expr) -> Result<Expr, SmtError> {
        super::numeral_limits::check_numeral_sizes(source, expr)?;
        let (elaborated, sort) = self.check(source, expr)?;
        if sort != Sort::Bool {
            return Err(SmtError::new(
                source,
                expr.span,
                format!("a term of sort {sort}"),
                "a Bool formula",
            ));
        }
        Ok(elaborated)
    }
}

struct Checker<'a> {
    vocabulary: &'a Vocabulary,
    source: &'a str,
}

impl Checker<'_> {
    fn error(
        &self,
        expr: &Expr,
        found: impl Into<String>,
        expected: impl Into<String>,
    ) -> SmtError {
        SmtError::new(self.source, expr.span, found, expected)
    }

    fn check(&self, expr: &Expr) -> Result<(Expr, Sort), SmtError> {
        match &expr.kind {
            ExprKind::Bool(_) => Ok((expr.clone(), Sort::Bool)),
            ExprKind::Int(_) => Ok((expr.clone(), Sort::Int)),
            ExprKind::Decimal(_) => Ok((expr.clone(), Sort::Real)),
            ExprKind::Symbol(name) => {
                if let Some(sort) = self.vocabulary.variable_sort(name) {
                    Ok((expr.clone(), sort.clone()))
                } else if let Some(enum_name) = self.vocabulary.value_enum(name) {
                    Ok((expr.clone(), Sort::Enum(enum_name.to_string())))
                } else {
                    let mut found = format!("the unknown name '{name}'");
                    if let Some(hint) = did_you_mean(&self.vocabulary.nearest_names(name)) {
                        found.push_str("; ");
                        found.push_str(&hint);
                    }
                    Err(self.error(expr, found, "a declared variable or enum value"))
                }
            }
            ExprKind::App(op, args) => self.check_app(expr, *op, args),
        }
    }

    fn check_app(&self, expr: &Expr, op: Op, args: &[Expr]) -> Result<(Expr, Sort), SmtError> {
        let (min, max) = arity(op);
        if args.len() < min || max.is_some_and(|max| args.len() > max) {
            let expected = match max {
                Some(max) if max == min => format!("{min} argument(s) for '{}'", op.symbol()),
                _ => format!("at least {min} argument(s) for '{}'", op.symbol()),
            };
            return Err(self.error(expr, format!("{} argument(s)", args.len()), expected));
        }
        let checked = args
            .iter()
            .map(|arg| self.check(arg))
            .collect::<Result<Vec<_>, _>>()?;
        let rebuild = |args: Vec<Expr>| Expr {
            kind: ExprKind::App(op, args),
            span: expr.span,
        };
        match op {
            Op::And | Op::Or | Op::Not | Op::Implies => {
                let args = self.expect_all(args, checked, &Sort::Bool)?;
                Ok((rebuild(args), Sort::Bool))
            }
            Op::Eq | Op::Distinct => {
                let (args, _) = self.unify(args, checked, "terms of one sort")?;
                Ok((rebuild(args), Sort::Bool))
            }
            Op::Ite => {
                let mut checked = checked;
                let branches = checked.split_off(1);
                let condition = self.expect_all(&args[..1], checked, &Sort::Bool)?;
                let (branches, sort) =
                    self.unify(&args[1..], branches, "two branches of one sort")?;
                let mut all = condition;
                all.extend(branches);
                Ok((rebuild(all), sort))
            }
            Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                let (args, _) = self.numeric(args, checked)?;
                Ok((rebuild(args), Sort::Bool))
            }
            Op::Add | Op::Sub | Op::Mul => {
                let (args, sort) = self.numeric(args, checked)?;
                Ok((rebuild(args), sort))
            }
            Op::Div => {
                let (args, _) = self.numeric(args, checked)?;
                let args = args
                    .into_iter()
                    .map(|a| to_real_if_int(a, self.vocabulary))
                    .collect();
                Ok((rebuild(args), Sort::Real))
            }
            Op::ToReal => {
                let args = self.expect_all(args, checked, &Sort::Int)?;
                Ok((rebuild(args), Sort::Real))
            }
            Op::ToInt => {
                let args = self.expect_all(args, checked, &Sort::Real)?;
                Ok((rebuild(args), Sort::Int))
            }
        }
    }

    fn expect_all(
        &self,
        originals: &[Expr],
        checked: Vec<(Expr, Sort)>,
        want: &Sort,
    ) -> Result<Vec<Expr>, SmtError> {
        checked
            .into_iter()
            .zip(originals)
            .map(|((elaborated, sort), original)| {
                if &sort == want {
                    Ok(elaborated)
                } else {
                    Err(self.error(
                        original,
                        format!("{} of sort {sort}", describe(self.source, original)),
                        format!("a term of sort {want}"),
                    ))
                }
            })
            .collect()
    }

    /// All arguments share one sort, with Int promoted to Real when both occur.
    fn unify(
        &self,
        originals: &[Expr],
        checked: Vec<(Expr, Sort)>,
        expected: &str,
    ) -> Result<(Vec<Expr>, Sort), SmtError> {
        let all_numeric = checked.iter().all(|(_, s)| s.is_numeric());
        if all_numeric {
            return self.numeric(originals, checked);
        }
        let first = checked[0].1.clone();
        for ((_, sort), original) in checked.iter().zip(originals) {
            if *sort != first {
                return Err(self.error(
                    original,
                    format!("{} of sort {sort}", describe(self.source, original)),
                    format!("{expected} (the first is {first})"),
                ));
            }
        }
        Ok((checked.into_iter().map(|(e, _)| e).collect(), first))
    }

    fn numeric(
        &self,
        originals: &[Expr],
        checked: Vec<(Expr, Sort)>,
    ) -> Result<(Vec<Expr>, Sort), SmtError> {
        for ((_, sort), original) in checked.iter().zip(originals) {
            if !sort.is_numeric() {
                return Err(self.error(
                    original,
                    format!("{} of sort {sort}", describe(self.source, original)),
                    "an Int or Real term",
                ));
            }
        }
        let any_real = checked.iter().any(|(_, s)| *s == Sort::Real);
        if !any_real {
            return Ok((checked.into_iter().map(|(e, _)| e).collect(), Sort::Int));
        }
        let promoted = checked
            .into_iter()
            .map(|(e, sort)| {
                if sort == Sort::Int {
                    wrap_to_real(e)
                } else {
                    e
                }
            })
            .collect();
        Ok((promoted, Sort::Real))
    }
}

fn wrap_to_real(expr: Expr) -> Expr {
    let span = expr.span;
    Expr {
        kind: ExprKind::App(Op::ToReal, vec![expr]),
        span,
    }
}

/// After numeric unification every argument has one sort; `/` needs Real.
fn to_real_if_int(expr: Expr, vocabulary: &Vocabulary) -> Expr {
    if sort_of_elaborated(&expr, vocabulary) == Some(Sort::Int) {
        wrap_to_real(expr)
    } else {
        expr
    }
}

/// The sort of an already elaborated expression (cheap: no errors possible).
pub fn sort_of_elaborated(expr: &Expr, vocabulary: &Vocabulary) -> Option<Sort> {
    match &expr.kind {
        ExprKind::Bool(_) => Some(Sort::Bool),
        ExprKind::Int(_) => Some(Sort::Int),
        ExprKind::Decimal(_) => Some(Sort::Real),
        ExprKind::Symbol(name) => vocabulary.variable_sort(name).cloned().or_else(|| {
            vocabulary
                .value_enum(name)
                .map(|e| Sort::Enum(e.to_string()))
        }),
        ExprKind::App(op, args) => match op {
            Op::And | Op::Or | Op::Not | Op::Implies | Op::Eq | Op::Distinct => Some(Sort::Bool),
            Op::Lt | Op::Le | Op::Gt | Op::Ge => Some(Sort::Bool),
            Op::Ite => sort_of_elaborated(args.get(1)?, vocabulary),
            Op::Add | Op::Sub | Op::Mul => sort_of_elaborated(args.first()?, vocabulary),
            Op::Div | Op::ToReal => Some(Sort::Real),
            Op::ToInt => Some(Sort::Int),
        },
    }
}

fn arity(op: Op) -> (usize, Option<usize>) {
    match op {
        Op::Not | Op::ToReal | Op::ToInt => (1, Some(1)),
        Op::Ite => (3, Some(3)),
        Op::And | Op::Or => (1, None),
        Op::Sub => (1, None),
        Op::Implies | Op::Eq | Op::Distinct | Op::Lt | Op::Le | Op::Gt | Op::Ge => (2, None),
        Op::Add | Op::Mul | Op::Div => (2, None),
    }
}

fn describe(source: &str, expr: &Expr) -> String {
    let text = source.get(expr.span.start..expr.span.end).unwrap_or("");
    if text.is_empty() || text.len() > 40 {
        format!("'{}'", truncate(&expr.to_string(), 40))
    } else {
        format!("'{text}'")
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::super::parser::parse_expr;
    use super::*;

    fn vocabulary() -> Vocabulary {
        let mut v = Vocabulary::new();
        v.declare_enum("AgeClass", &["CHILD".into(), "SENIOR".into()])
            .unwrap();
        v.declare_variable("ageClass", Sort::Enum("AgeClass".into()))
            .unwrap();
        v.declare_variable("fee", Sort::Real).unwrap();
        v.declare_variable("units", Sort::Int).unwrap();
        v.declare_variable("isLow", Sort::Bool).unwrap();
        v
    }

    fn elaborate(text: &str) -> Result<String, SmtError> {
        let expr = parse_expr(text)?;
        vocabulary()
            .check_formula(text, &expr)
            .map(|e| e.to_string())
    }

    #[test]
    fn mixed_arithmetic_promotes_int_to_real_explicitly() {
        assert_eq!(
            elaborate("(= fee (* 5 units))").unwrap(),
            "(= fee (to_real (* 5 units)))"
        );
        assert_eq!(
            elaborate("(>= (/ units 2) 1)").unwrap(),
            "(>= (/ (to_real units) (to_real 2)) (to_real 1))"
        );
        assert_eq!(elaborate("(> units 2)").unwrap(), "(> units 2)");
    }

    #[test]
    fn enum_values_compare_with_their_variables_only() {
        assert!(elaborate("(= ageClass SENIOR)").is_ok());
        let err = elaborate("(= ageClass 3)").unwrap_err().to_string();
        assert_eq!(
            err,
            "1:13: expected terms of one sort (the first is AgeClass), found '3' of sort Int"
        );
    }

    #[test]
    fn unknown_names_and_wrong_sorts_are_located() {
        assert_eq!(
            elaborate("(and isLow\n     (> feee 3))")
                .unwrap_err()
                .to_string(),
            "2:9: expected a declared variable or enum value, found the unknown name 'feee'; did you mean fee?"
        );
        assert_eq!(
            elaborate("(not fee)").unwrap_err().to_string(),
            "1:6: expected a term of sort Bool, found 'fee' of sort Real"
        );
        assert_eq!(
            elaborate("(+ fee 1)").unwrap_err().to_string(),
            "1:1: expected a Bool formula, found a term of sort Real"
        );
        assert!(
            elaborate("(ite isLow 1)")
                .unwrap_err()
                .to_string()
                .contains("3 argument(s) for 'ite'")
        );
    }

    #[test]
    fn unknown_names_suggest_the_nearest_declared_names() {
        assert_eq!(
            elaborate("(> feee 3)").unwrap_err().to_string(),
            "1:4: expected a declared variable or enum value, found the unknown name 'feee'; did you mean fee?"
        );
        assert_eq!(
            elaborate("(= ageClass SENOIR)").unwrap_err().to_string(),
            "1:13: expected a declared variable or enum value, found the unknown name 'SENOIR'; did you mean SENIOR?"
        );
        assert_eq!(
            elaborate("(> price 3)").unwrap_err().to_string(),
            "1:4: expected a declared variable or enum value, found the unknown name 'price'"
        );
    }

    #[test]
    fn declarations_reject_clashes() {
        let mut v = vocabulary();
        assert!(v.declare_variable("SENIOR", Sort::Bool).is_err());
        assert!(v.declare_variable("fee", Sort::Int).is_err());
        assert!(v.declare_variable("x", Sort::Enum("Nope".into())).is_err());
        assert!(v.declare_enum("Other", &["CHILD".into()]).is_err());
    }
}
