//! Translates fragment expressions into Z3 terms. This module and `session`
//! are the only places Z3 types exist.

use crate::model::finding::Value;
use crate::smt::{Expr, ExprKind, Op, Sort, Vocabulary, parse_expr};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::HashMap;
use std::str::FromStr;
use z3::ast::{Ast, Bool, Dynamic, Int, Real};
use z3::{FuncDecl, Model};

/// The Z3 declarations of a model's vocabulary.
pub struct Z3Vocabulary {
    enum_sorts: HashMap<String, z3::Sort>,
    /// Each enumeration's values, by enumeration name.
    enum_values: HashMap<String, Vec<String>>,
    /// Each variable's sort, by name.
    sorts: HashMap<String, Sort>,
    values: HashMap<String, Dynamic>,
    variables: HashMap<String, Dynamic>,
    /// Variable names in declaration order, for scenarios.
    order: Vec<(String, Sort)>,
    /// Each variable's position in `order`.
    positions: HashMap<String, usize>,
}

impl Z3Vocabulary {
    pub fn new() -> Z3Vocabulary {
        Z3Vocabulary {
            enum_sorts: HashMap::new(),
            enum_values: HashMap::new(),
            sorts: HashMap::new(),
            values: HashMap::new(),
            variables: HashMap::new(),
            order: Vec::new(),
            positions: HashMap::new(),
        }
    }

    pub fn declare_enum(&mut self, name: &str, values: &[String]) {
        let (sort, constants) = enum_sort(name, values);
        for (value, constant) in values.iter().zip(constants) {
            self.values.insert(value.clone(), constant);
        }
        self.enum_sorts.insert(name.to_string(), sort);
        self.enum_values.insert(name.to_string(), values.to_vec());
    }

    pub fn declare_variable(&mut self, name: &str, sort: &Sort) {
        let constant = match sort {
            Sort::Bool => Dynamic::from_ast(&Bool::new_const(name)),
            Sort::Int => Dynamic::from_ast(&Int::new_const(name)),
            Sort::Real => Dynamic::from_ast(&Real::new_const(name)),
            Sort::Enum(type_name) => match self.enum_sorts.get(type_name) {
                Some(z3_sort) => Dynamic::new_const(name, z3_sort),
                None => return,
            },
        };
        if self.variables.insert(name.to_string(), constant).is_none() {
            self.positions.insert(name.to_string(), self.order.len());
            self.order.push((name.to_string(), sort.clone()));
        }
        self.sorts.insert(name.to_string(), sort.clone());
    }

    /// Declares everything in `vocabulary` (enums first) with variables in `order`.
    pub fn from_vocabulary(
        vocabulary: &Vocabulary,
        enums: &[(String, Vec<String>)],
        variables: &[(String, Sort)],
    ) -> Z3Vocabulary {
        let mut z3_vocabulary = Z3Vocabulary::new();
        for (name, values) in enums {
            z3_vocabulary.declare_enum(name, values);
        }
        for (name, sort) in variables {
            if vocabulary.variable_sort(name).is_some() {
                z3_vocabulary.declare_variable(name, sort);
            }
        }
        z3_vocabulary
    }

    /// The variables of `sort` among `scope` (every variable when `None`),
    /// with their Z3 constants, in declaration order. A scope is looked up
    /// name by name, so a question about a few variables of a large model
    /// does not walk every declaration.
    pub fn variables_of_sort(
        &self,
        sort: &Sort,
        scope: Option<&std::collections::HashSet<String>>,
    ) -> Vec<(&str, &Dynamic)> {
        let mut found: Vec<(usize, &str, &Dynamic)> = match scope {
            Some(scope) => scope
                .iter()
                .filter(|name| self.sorts.get(name.as_str()) == Some(sort))
                .filter_map(|name| {
                    let (key, constant) = self.variables.get_key_value(name.as_str())?;
                    Some((*self.positions.get(name.as_str())?, key.as_str(), constant))
                })
                .collect(),
            None => self
                .order
                .iter()
                .enumerate()
                .filter(|(_, (_, s))| s == sort)
                .filter_map(|(i, (name, _))| Some((i, name.as_str(), self.variables.get(name)?)))
                .collect(),
        };
        found.sort_unstable_by_key(|(position, _, _)| *position);
        found.into_iter().map(|(_, name, c)| (name, c)).collect()
    }

    pub fn is_variable(&self, name: &str) -> bool {
        self.variables.contains_key(name)
    }

    /// The sort a variable was declared with.
    pub fn sort_of(&self, variable: &str) -> Option<&Sort> {
        self.sorts.get(variable)
    }

    /// The values of an enumeration variable's sort.
    pub fn values_of(&self, variable: &str) -> Option<&[String]> {
        match self.sorts.get(variable)? {
            Sort::Enum(type_name) => self.enum_values.get(type_name).map(Vec::as_slice),
            _ => None,
        }
    }

    /// The Z3 constant of a declared variable.
    pub fn constant(&self, name: &str) -> Option<&Dynamic> {
        self.variables.get(name)
    }

    /// Encodes an elaborated Bool formula.
    pub fn formula(&self, expr: &Expr) -> Result<Bool, EncodeError> {
        self.term(expr)?
            .as_bool()
            .ok_or_else(|| EncodeError::from(format!("'{expr}' is not a Bool formula")))
    }

    /// Encodes an elaborated term. Errors only on expressions the type checker
    /// would have rejected.
    pub fn term(&self, expr: &Expr) -> Result<Dynamic, EncodeError> {
        match &expr.kind {
            ExprKind::Bool(b) => Ok(Dynamic::from_ast(&Bool::from_bool(*b))),
            ExprKind::Int(i) => Int::from_str(&i.to_string())
                .map(|i| Dynamic::from_ast(&i))
                .map_err(|_| EncodeError::from(format!("bad integer {i}"))),
            ExprKind::Decimal(r) => Ok(Dynamic::from_ast(&real_literal(r)?)),
            ExprKind::Symbol(name) => self
                .variables
                .get(name)
                .or_else(|| self.values.get(name))
                .cloned()
                .ok_or_else(|| EncodeError::from(format!("unknown name '{name}'"))),
            ExprKind::App(op, args) => {
                let args = args
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<Vec<_>, _>>()?;
                apply(*op, &args)
            }
        }
    }

    /// The value of every variable in `model` (only those in `scope`, when
    /// given), in declaration order.
    pub fn scenario(
        &self,
        model: &Model,
        scope: Option<&std::collections::HashSet<String>>,
    ) -> crate::model::finding::Scenario {
        self.scenario_joined(&|_| model, scope)
    }

    /// A scenario whose values come from several models, each variable's
    /// from the model `model_of` names for it.
    pub fn scenario_joined<'m>(
        &self,
        model_of: &dyn Fn(&str) -> &'m Model,
        scope: Option<&std::collections::HashSet<String>>,
    ) -> crate::model::finding::Scenario {
        // A scope names a few of the model's variables: they are looked up
        // rather than every variable tested against the scope.
        let chosen: Vec<usize> = match scope {
            Some(scope) => {
                let mut at: Vec<usize> = scope
                    .iter()
                    .filter_map(|name| self.positions.get(name).copied())
                    .collect();
                at.sort_unstable();
                at
            }
            None => (0..self.order.len()).collect(),
        };
        let values = chosen
            .into_iter()
            .map(|at| &self.order[at])
            .filter_map(|(name, sort)| {
                let value = self.value_in(model_of(name), name)?;
                Some((name.clone(), read_value(&value, sort)))
            })
            .collect();
        crate::model::finding::Scenario { values }
    }

    /// The variable's value in `model`: the interpretation the model holds,
    /// read directly; a constant the model leaves free gets the value
    /// evaluation with completion gives it (evaluating every constant costs
    /// an evaluator each). `None` for an undeclared name.
    pub fn value_in(&self, model: &Model, name: &str) -> Option<Dynamic> {
        let constant = self.variables.get(name)?;
        model
            .get_const_interp(constant)
            .or_else(|| model.eval(constant, true))
    }
}

impl Default for Z3Vocabulary {
    fn default() -> Self {
        Z3Vocabulary::new()
    }
}

/// An enumeration sort made in Z3: its values, the sort and its constants.
type MadeEnum = (Vec<String>, z3::Sort, Vec<Dynamic>);

/// An enumeration's name in one Z3 context (its address).
type EnumKey = (usize, String);

thread_local! {
    /// Enumeration sorts already made in this thread's Z3 contexts, by
    /// context and name. Z3 refuses a second sort of the same name, so a
    /// reloaded model reuses an identical enumeration and gives a changed
    /// one a fresh internal name.
    static ENUM_SORTS: std::cell::RefCell<HashMap<EnumKey, Vec<MadeEnum>>> = std::cell::RefCell::new(HashMap::new());
}

/// The address of this thread's current Z3 context.
pub(super) fn context_address() -> usize {
    z3::Context::thread_local().get_z3_context().as_ptr() as usize
}

/// Forgets the enumeration sorts made in the context at `address`, before
/// that context goes.
pub(super) fn forget_enum_sorts(address: usize) {
    ENUM_SORTS.with(|registry| registry.borrow_mut().retain(|(at, _), _| *at != address));
}

fn enum_sort(name: &str, values: &[String]) -> (z3::Sort, Vec<Dynamic>) {
    ENUM_SORTS.with(|registry| {
        let mut registry = registry.borrow_mut();
        let made = registry
            .entry((context_address(), name.to_string()))
            .or_default();
        if let Some((_, sort, constants)) = made.iter().find(|(v, _, _)| v == values) {
            return (sort.clone(), constants.clone());
        }
        let internal_name = if made.is_empty() {
            name.to_string()
        } else {
            format!("{name}!{}", made.len())
        };
        let symbols: Vec<z3::Symbol> = values
            .iter()
            .map(|v| z3::Symbol::String(v.clone()))
            .collect();
        let (sort, declarations, _testers): (z3::Sort, Vec<FuncDecl>, Vec<FuncDecl>) =
            z3::Sort::enumeration(z3::Symbol::String(internal_name), &symbols);
        let constants: Vec<Dynamic> = declarations.iter().map(|d| d.apply(&[])).collect();
        made.push((values.to_vec(), sort.clone(), constants.clone()));
        (sort, constants)
    })
}

/// An expression Z3 cannot be given: only expressions the type checker
/// would have rejected get here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EncodeError(pub String);

impl From<String> for EncodeError {
    fn from(message: String) -> EncodeError {
        EncodeError(message)
    }
}

impl From<&str> for EncodeError {
    fn from(message: &str) -> EncodeError {
        EncodeError(message.to_string())
    }
}

pub(super) fn real_literal(r: &BigRational) -> Result<Real, EncodeError> {
    Real::from_rational_str(&r.numer().to_string(), &r.denom().to_string())
        .ok_or_else(|| EncodeError::from(format!("bad rational {r}")))
}

fn bools(args: &[Dynamic]) -> Result<Vec<Bool>, EncodeError> {
    args.iter()
        .map(|a| {
            a.as_bool()
                .ok_or_else(|| EncodeError::from(format!("'{a}' is not Bool")))
        })
        .collect()
}

fn ints(args: &[Dynamic]) -> Option<Vec<Int>> {
    args.iter().map(Dynamic::as_int).collect()
}

fn reals(args: &[Dynamic]) -> Result<Vec<Real>, EncodeError> {
    args.iter()
        .map(|a| {
            a.as_real()
                .ok_or_else(|| EncodeError::from(format!("'{a}' is not Real")))
        })
        .collect()
}

/// `(op a b c)` for a chainable relation: `(and (op a b) (op b c))`.
fn chain(
    args: &[Dynamic],
    relation: impl Fn(&Dynamic, &Dynamic) -> Result<Bool, EncodeError>,
) -> Result<Dynamic, EncodeError> {
    let links = args
        .windows(2)
        .map(|w| relation(&w[0], &w[1]))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Dynamic::from_ast(&Bool::and(&links)))
}

fn compare(op: Op, a: &Dynamic, b: &Dynamic) -> Result<Bool, EncodeError> {
    if let (Some(a), Some(b)) = (a.as_int(), b.as_int()) {
        return Ok(match op {
            Op::Lt => a.lt(&b),
            Op::Le => a.le(&b),
            Op::Gt => a.gt(&b),
            _ => a.ge(&b),
        });
    }
    let (a, b) = (
        a.as_real().ok_or(EncodeError::from("not numeric"))?,
        b.as_real().ok_or(EncodeError::from("not numeric"))?,
    );
    Ok(match op {
        Op::Lt => a.lt(&b),
        Op::Le => a.le(&b),
        Op::Gt => a.gt(&b),
        _ => a.ge(&b),
    })
}

fn apply(op: Op, args: &[Dynamic]) -> Result<Dynamic, EncodeError> {
    let result = match op {
        Op::And => Dynamic::from_ast(&Bool::and(&bools(args)?)),
        Op::Or => Dynamic::from_ast(&Bool::or(&bools(args)?)),
        Op::Not => Dynamic::from_ast(&bools(args)?[0].not()),
        Op::Implies => {
            let parts = bools(args)?;
            let (last, init) = parts.split_last().ok_or(EncodeError::from("empty =>"))?;
            let folded = init
                .iter()
                .rev()
                .fold(last.clone(), |acc, premise| premise.implies(&acc));
            Dynamic::from_ast(&folded)
        }
        Op::Eq => chain(args, |a, b| {
            a.safe_eq(b.clone())
                .map_err(|e| EncodeError::from(format!("{e:?}")))
        })?,
        Op::Distinct => Dynamic::from_ast(&Dynamic::distinct(args)),
        Op::Ite => {
            let condition = args[0]
                .as_bool()
                .ok_or(EncodeError::from("ite condition is not Bool"))?;
            condition.ite(&args[1], &args[2])
        }
        Op::Lt | Op::Le | Op::Gt | Op::Ge => chain(args, |a, b| compare(op, a, b))?,
        Op::Add | Op::Sub | Op::Mul => {
            if let Some(ints) = ints(args) {
                let result = match (op, ints.len()) {
                    (Op::Sub, 1) => ints[0].unary_minus(),
                    (Op::Add, _) => Int::add(&ints),
                    (Op::Sub, _) => Int::sub(&ints),
                    _ => Int::mul(&ints),
                };
                Dynamic::from_ast(&result)
            } else {
                let reals = reals(args)?;
                let result = match (op, reals.len()) {
                    (Op::Sub, 1) => reals[0].unary_minus(),
                    (Op::Add, _) => Real::add(&reals),
                    (Op::Sub, _) => Real::sub(&reals),
                    _ => Real::mul(&reals),
                };
                Dynamic::from_ast(&result)
            }
        }
        Op::Div => {
            let reals = reals(args)?;
            let (first, rest) = reals.split_first().ok_or(EncodeError::from("empty /"))?;
            Dynamic::from_ast(&rest.iter().fold(first.clone(), |acc, d| acc.div(d)))
        }
        Op::ToReal => Dynamic::from_ast(
            &args[0]
                .as_int()
                .ok_or(EncodeError::from("to_real of a non-Int"))?
                .to_real(),
        ),
        Op::ToInt => Dynamic::from_ast(
            &args[0]
                .as_real()
                .ok_or(EncodeError::from("to_int of a non-Real"))?
                .to_int(),
        ),
    };
    Ok(result)
}

impl Z3Vocabulary {
    /// How a model value of `sort` reads in a scenario.
    pub fn scenario_value(&self, value: &Dynamic, sort: &Sort) -> String {
        read_value(value, sort).to_string()
    }
}

/// Reads a model value exactly. Z3 prints numerals as `5`, `(- 5)`,
/// `(/ 3 4)` or `2.5`; irrational values as `(root-obj ...)`.
fn read_value(value: &Dynamic, sort: &Sort) -> Value {
    // Printing a term is slow (Z3's pretty printer): numerals and Booleans
    // are read directly, and only other terms are printed.
    match sort {
        Sort::Bool => {
            if let Some(b) = value.as_bool().and_then(|b| b.as_bool()) {
                return Value::Bool(b);
            }
        }
        Sort::Int => {
            if let Some(r) = numeral_value(value)
                && r.is_integer()
            {
                return Value::Int(r.to_integer());
            }
        }
        Sort::Real => {
            if let Some(r) = numeral_value(value) {
                return Value::Real(r);
            }
        }
        Sort::Enum(_) => {}
    }
    let text = value.to_string();
    match sort {
        Sort::Bool => Value::Bool(text == "true"),
        Sort::Enum(_) => Value::Enum(text.trim_matches('|').to_string()),
        Sort::Int => match constant_value(&text) {
            Some(r) if r.is_integer() => Value::Int(r.to_integer()),
            _ => Value::Algebraic(text),
        },
        Sort::Real => match constant_value(&text) {
            Some(r) => Value::Real(r),
            None => Value::Algebraic(value.as_real().map(|r| r.approx(10)).unwrap_or(text)),
        },
    }
}

/// The exact value of a rational numeral term (`None` for any other term),
/// from Z3's own digits ("-401/4", "7") rather than the printed term.
fn numeral_value(value: &Dynamic) -> Option<BigRational> {
    let context = value.get_ctx().get_z3_context();
    let ast = value.get_z3_ast();
    // SAFETY: `value` keeps the term alive in its context for this call;
    // the string Z3 returns is copied before the next call into Z3.
    let digits = unsafe {
        if !z3_sys::Z3_is_numeral_ast(context, ast) {
            return None;
        }
        let raw = z3_sys::Z3_get_numeral_string(context, ast);
        if raw.is_null() {
            return None;
        }
        std::ffi::CStr::from_ptr(raw).to_str().ok()?.to_owned()
    };
    let (numerator, denominator) = digits.split_once('/').unwrap_or((&digits, "1"));
    let numerator = BigInt::from_str(numerator).ok()?;
    let denominator = BigInt::from_str(denominator).ok()?;
    if denominator == BigInt::from(0) {
        return None;
    }
    Some(BigRational::new(numerator, denominator))
}

/// Evaluates a constant numeral term as Z3 prints it.
fn constant_value(text: &str) -> Option<BigRational> {
    // Most values are plain numerals ("5", "2.5"): read them directly.
    if let Some(value) = crate::smt::number::parse_decimal(text) {
        return Some(value);
    }
    let expr = parse_expr(text).ok()?;
    evaluate(&expr)
}

fn evaluate(expr: &Expr) -> Option<BigRational> {
    match &expr.kind {
        ExprKind::Int(i) => Some(BigRational::from_integer(i.clone())),
        ExprKind::Decimal(r) => Some(r.clone()),
        ExprKind::App(Op::Sub, args) if args.len() == 1 => Some(-evaluate(&args[0])?),
        ExprKind::App(Op::Div, args) if args.len() == 2 => {
            let denominator = evaluate(&args[1])?;
            if denominator == BigRational::from_integer(BigInt::from(0)) {
                return None;
            }
            Some(evaluate(&args[0])? / denominator)
        }
        ExprKind::App(Op::ToReal, args) => evaluate(&args[0]),
        _ => None,
    }
}
