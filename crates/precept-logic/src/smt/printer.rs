//! The canonical SMT-LIB printer. `parse_expr(&expr.to_string())` gives back
//! an equal expression.

use super::ast::{Expr, ExprKind};
use super::number::finite_decimal;
use std::fmt;

// Symbols are quoted where the AST lives (a sort's name prints the same
// way); re-exported here, where the printer's callers look for it.
pub use super::ast::quote_symbol;

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Bool(value) => write!(f, "{value}"),
            ExprKind::Int(value) => write!(f, "{value}"),
            ExprKind::Decimal(value) => match finite_decimal(value, false) {
                Some(text) => f.write_str(&text),
                None => write!(f, "(/ {}.0 {}.0)", value.numer(), value.denom()),
            },
            ExprKind::Symbol(name) => f.write_str(&quote_symbol(name)),
            ExprKind::App(op, args) => {
                write!(f, "({}", op.symbol())?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// An indented rendering for reading long rules: a term that fits in
/// `width` columns stays on one line, otherwise its arguments go one per line.
pub fn pretty(expr: &Expr, width: usize) -> String {
    let mut out = String::new();
    pretty_into(expr, 0, width, &mut out);
    out
}

fn pretty_into(expr: &Expr, indent: usize, width: usize, out: &mut String) {
    let flat = expr.to_string();
    match &expr.kind {
        ExprKind::App(op, args) if indent + flat.len() > width && !args.is_empty() => {
            out.push('(');
            out.push_str(op.symbol());
            for arg in args {
                out.push('\n');
                out.push_str(&" ".repeat(indent + 2));
                pretty_into(arg, indent + 2, width, out);
            }
            out.push(')');
        }
        _ => out.push_str(&flat),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parser::parse_expr;
    use super::*;

    #[test]
    fn prints_canonically() {
        let expr = parse_expr("( =>  isLow\n (= fee (* 0.750 base 2)))").unwrap();
        assert_eq!(expr.to_string(), "(=> isLow (= fee (* 0.75 base 2)))");
    }

    #[test]
    fn odd_symbols_are_quoted() {
        assert_eq!(quote_symbol("two words"), "|two words|");
        assert_eq!(quote_symbol("and"), "|and|");
        assert_eq!(quote_symbol("x1"), "x1");
        let expr = parse_expr("(= |two words| 1)").unwrap();
        assert_eq!(parse_expr(&expr.to_string()).unwrap(), expr);
    }

    #[test]
    fn pretty_breaks_long_terms() {
        let expr = parse_expr("(=> (and isSenior isLowSeason) (= admissionFee (* 0.75 baseFee)))")
            .unwrap();
        let text = pretty(&expr, 30);
        assert!(text.lines().count() > 1, "{text}");
        assert_eq!(parse_expr(&text).unwrap(), expr);
    }
}
