//! The expression tree of Precept's SMT-LIB fragment (QF_NRIA plus enums).

use super::span::Span;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A sort: the three theory sorts or a declared enumeration.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sort {
    Bool,
    Int,
    Real,
    Enum(String),
}

impl Sort {
    /// Reads a sort name as written in SMT-LIB or in a project file.
    pub fn from_name(name: &str) -> Sort {
        match name {
            "Bool" => Sort::Bool,
            "Int" => Sort::Int,
            "Real" => Sort::Real,
            other => Sort::Enum(other.to_string()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Sort::Bool => "Bool",
            Sort::Int => "Int",
            Sort::Real => "Real",
            Sort::Enum(name) => name,
        }
    }

    pub fn is_numeric(&self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote_symbol(self.name()))
    }
}

/// The operators of the fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    And,
    Or,
    Not,
    Implies,
    Eq,
    Distinct,
    Ite,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    ToReal,
    ToInt,
}

impl Op {
    pub const ALL: [Op; 17] = [
        Op::And,
        Op::Or,
        Op::Not,
        Op::Implies,
        Op::Eq,
        Op::Distinct,
        Op::Ite,
        Op::Lt,
        Op::Le,
        Op::Gt,
        Op::Ge,
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::ToReal,
        Op::ToInt,
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            Op::And => "and",
            Op::Or => "or",
            Op::Not => "not",
            Op::Implies => "=>",
            Op::Eq => "=",
            Op::Distinct => "distinct",
            Op::Ite => "ite",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::ToReal => "to_real",
            Op::ToInt => "to_int",
        }
    }

    pub fn from_symbol(symbol: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.symbol() == symbol)
    }
}

/// An expression with the span of source text it was read from. Equality
/// ignores spans: two expressions are equal when they have the same structure.
#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Bool(bool),
    /// A non-negative integer numeral.
    Int(BigInt),
    /// A non-negative decimal literal such as `0.75` (always finite).
    Decimal(BigRational),
    /// A variable or an enum value; the type checker says which.
    Symbol(String),
    App(Op, Vec<Expr>),
}

impl PartialEq for Expr {
    fn eq(&self, other: &Expr) -> bool {
        self.kind == other.kind
    }
}

impl Expr {
    pub fn new(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    pub fn app(op: Op, args: Vec<Expr>) -> Expr {
        Expr::new(ExprKind::App(op, args))
    }

    pub fn symbol(name: &str) -> Expr {
        Expr::new(ExprKind::Symbol(name.to_string()))
    }

    /// Every symbol the expression mentions, in order of first appearance.
    pub fn symbols(&self) -> Vec<&str> {
        let mut found = Vec::new();
        self.visit(&mut |e| {
            if let ExprKind::Symbol(name) = &e.kind
                && !found.contains(&name.as_str())
            {
                found.push(name.as_str());
            }
        });
        found
    }

    /// Calls `f` on this expression and every sub-expression, parents first.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        if let ExprKind::App(_, args) = &self.kind {
            for arg in args {
                arg.visit(f);
            }
        }
    }

    /// A copy with every symbol renamed by `rename` (None keeps the name).
    pub fn rename_symbols(&self, rename: &impl Fn(&str) -> Option<String>) -> Expr {
        let kind = match &self.kind {
            ExprKind::Symbol(name) => {
                ExprKind::Symbol(rename(name).unwrap_or_else(|| name.clone()))
            }
            ExprKind::App(op, args) => {
                ExprKind::App(*op, args.iter().map(|a| a.rename_symbols(rename)).collect())
            }
            other => other.clone(),
        };
        Expr {
            kind,
            span: self.span,
        }
    }
}

const RESERVED: [&str; 10] = [
    "true", "false", "!", "_", "as", "let", "exists", "forall", "match", "par",
];

/// A symbol as SMT-LIB must write it: bare when it is a simple symbol,
/// otherwise between bars.
pub fn quote_symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c))
        && !RESERVED.contains(&name)
        && Op::from_symbol(name).is_none();
    if simple {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}
