//! Precept's SMT-LIB fragment: QF_NRIA with enumerations (ARC, Fig. 6),
//! read with positions, checked, printed canonically and rendered in English.

pub mod ast;
pub mod build;
pub mod english;
pub mod error;
pub mod lexer;
pub mod number;
pub mod numeral_limits;
pub mod parser;
pub mod printer;
pub mod reading;
pub mod sexp;
pub mod span;
pub mod suggest;
pub mod typecheck;
pub mod wording;

pub use ast::{Expr, ExprKind, Op, Sort};
pub use error::SmtError;
pub use parser::{Command, parse_expr, parse_script};
pub use span::{Position, Span};
pub use typecheck::Vocabulary;
