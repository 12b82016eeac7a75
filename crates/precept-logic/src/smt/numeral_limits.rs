//! Limits on the size of numerals in a formula. Z3 does its bignum
//! arithmetic (multiplying constants, isolating roots of non-linear
//! constraints) in loops that no interrupt reaches, so a question with a
//! 10,000-digit numeral can hold a solver for many times its deadline.
//! Policies never need such numbers: a numeral may have at most
//! `MAX_NUMERAL_DIGITS` digits, and the numerals under one product or
//! quotient at most `MAX_PRODUCT_DIGITS` in all (their product is about
//! that long).

use super::ast::{Expr, ExprKind, Op};
use super::error::SmtError;

/// The most digits one numeral may have (integer and fraction digits).
pub const MAX_NUMERAL_DIGITS: usize = 100;
/// The most digits the numerals under one `*` or `/` may have together.
pub const MAX_PRODUCT_DIGITS: usize = 300;

/// Fails on the first numeral longer than `MAX_NUMERAL_DIGITS`, or the first
/// product or quotient whose numerals hold more than `MAX_PRODUCT_DIGITS`,
/// naming its position in `source` (the text `expr` was parsed from).
pub fn check_numeral_sizes(source: &str, expr: &Expr) -> Result<(), SmtError> {
    digits_within(source, expr, false).map(|_| ())
}

/// The digits of the numerals in `expr`, checked on the way. Products
/// inside a product are checked once, at the outermost one.
fn digits_within(source: &str, expr: &Expr, in_product: bool) -> Result<usize, SmtError> {
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Decimal(_) => {
            let digits = numeral_digits(source, expr);
            if digits > MAX_NUMERAL_DIGITS {
                return Err(SmtError::new(
                    source,
                    expr.span,
                    format!("a numeral of {digits} digits"),
                    format!("a numeral of at most {MAX_NUMERAL_DIGITS} digits"),
                ));
            }
            Ok(digits)
        }
        ExprKind::Bool(_) | ExprKind::Symbol(_) => Ok(0),
        ExprKind::App(op, args) => {
            let product = matches!(op, Op::Mul | Op::Div);
            let mut total = 0;
            for arg in args {
                total += digits_within(source, arg, in_product || product)?;
            }
            if product && !in_product && total > MAX_PRODUCT_DIGITS {
                return Err(SmtError::new(
                    source,
                    expr.span,
                    format!("a product whose numerals have {total} digits in all"),
                    format!("at most {MAX_PRODUCT_DIGITS} digits in the numerals of one product"),
                ));
            }
            Ok(total)
        }
    }
}

/// The digits the numeral was written with, or of its value when it has no
/// place in `source` (a built expression).
fn numeral_digits(source: &str, expr: &Expr) -> usize {
    let written = source
        .get(expr.span.start..expr.span.end)
        .filter(|text| !text.is_empty())
        .map(|text| text.bytes().filter(u8::is_ascii_digit).count());
    written.unwrap_or_else(|| match &expr.kind {
        ExprKind::Int(value) => value.to_string().len(),
        ExprKind::Decimal(value) => {
            value.numer().to_string().len() + value.denom().to_string().len()
        }
        _ => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    fn check(text: &str) -> Result<(), SmtError> {
        check_numeral_sizes(text, &parse_expr(text).unwrap())
    }

    #[test]
    fn ordinary_numbers_pass() {
        assert!(check("(and (= x 12345678901234567890123456789) (< (* 2 y) 0.75))").is_ok());
        let at_limit = "9".repeat(MAX_NUMERAL_DIGITS);
        assert!(check(&format!("(= x {at_limit})")).is_ok());
    }

    #[test]
    fn a_long_numeral_is_refused_at_its_position() {
        let long = "9".repeat(10_000);
        let error = check(&format!("(and p\n  (= x {long}))")).unwrap_err();
        assert_eq!((error.position.line, error.position.column), (2, 8));
        assert_eq!(error.found, "a numeral of 10000 digits");
        assert!(error.expected.contains("at most 100 digits"), "{error}");
        let decimal = format!("(= x 0.{})", "1".repeat(MAX_NUMERAL_DIGITS));
        assert!(check(&decimal).is_err());
    }

    #[test]
    fn a_product_of_many_long_numerals_is_refused() {
        let factor = "9".repeat(90);
        let factors = [factor.as_str(); 4].join(" ");
        let error = check(&format!("(= (* x (+ 1 (* {factors}))) y)")).unwrap_err();
        assert_eq!((error.position.line, error.position.column), (1, 4));
        assert!(error.found.contains("361 digits"), "{error}");
        // The same numerals in a sum are fine: adding does not grow them.
        assert!(check(&format!("(= x (+ {factors}))")).is_ok());
    }
}
