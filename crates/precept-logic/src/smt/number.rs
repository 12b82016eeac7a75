//! Exact numbers: reading literals and writing rationals as decimals when finite.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// Reads `digits.digits` exactly.
pub fn parse_decimal(text: &str) -> Option<BigRational> {
    let (whole, fraction) = text.split_once('.')?;
    let digits: BigInt = format!("{whole}{fraction}").parse().ok()?;
    let scale = BigInt::from(10u32).pow(fraction.len() as u32);
    Some(BigRational::new(digits, scale))
}

/// The exact decimal expansion of `value` if it is finite (its reduced
/// denominator has no prime factors but 2 and 5), e.g. `38.125`, `-2.0`, `5`
/// for integers when `integers_plain` is set.
pub fn finite_decimal(value: &BigRational, integers_plain: bool) -> Option<String> {
    let numer = value.numer().clone();
    let denom = value.denom().clone();
    let mut rest = denom.clone();
    let (mut twos, mut fives) = (0u32, 0u32);
    let two = BigInt::from(2u32);
    let five = BigInt::from(5u32);
    while (&rest % &two).is_zero() {
        rest /= &two;
        twos += 1;
    }
    while (&rest % &five).is_zero() {
        rest /= &five;
        fives += 1;
    }
    if !rest.is_one() {
        return None;
    }
    let places = twos.max(fives);
    let scaled = numer.abs() * BigInt::from(10u32).pow(places) / denom;
    let sign = if numer.is_negative() { "-" } else { "" };
    if places == 0 {
        return Some(if integers_plain {
            format!("{sign}{scaled}")
        } else {
            format!("{sign}{scaled}.0")
        });
    }
    let digits = format!(
        "{:0>width$}",
        scaled.to_string(),
        width = places as usize + 1
    );
    let (whole, fraction) = digits.split_at(digits.len() - places as usize);
    Some(format!("{sign}{whole}.{fraction}"))
}

/// How a scenario shows a rational: a finite decimal, or `p/q` with an
/// approximation when the decimal would not end.
pub fn display_rational(value: &BigRational) -> String {
    match finite_decimal(value, true) {
        Some(decimal) => decimal,
        None => {
            let approx = approximate(value, 6);
            format!("{}/{} (≈{approx})", value.numer(), value.denom())
        }
    }
}

/// `value` rounded toward zero to `places` decimal places.
pub fn approximate(value: &BigRational, places: u32) -> String {
    let scale = BigInt::from(10u32).pow(places);
    let scaled = (value.numer().abs() * &scale) / value.denom();
    let digits = format!(
        "{:0>width$}",
        scaled.to_string(),
        width = places as usize + 1
    );
    let (whole, fraction) = digits.split_at(digits.len() - places as usize);
    let sign = if value.is_negative() { "-" } else { "" };
    format!("{sign}{whole}.{fraction}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(parse_decimal("0.75"), Some(ratio(3, 4)));
        assert_eq!(parse_decimal("35.40"), Some(ratio(177, 5)));
        assert_eq!(finite_decimal(&ratio(305, 8), false).unwrap(), "38.125");
        assert_eq!(finite_decimal(&ratio(-1, 20), false).unwrap(), "-0.05");
        assert_eq!(finite_decimal(&ratio(2, 1), false).unwrap(), "2.0");
        assert_eq!(finite_decimal(&ratio(2, 1), true).unwrap(), "2");
        assert_eq!(finite_decimal(&ratio(1, 3), false), None);
    }

    #[test]
    fn repeating_values_show_as_fractions() {
        assert_eq!(display_rational(&ratio(1, 3)), "1/3 (≈0.333333)");
        assert_eq!(display_rational(&ratio(-7, 4)), "-1.75");
    }
}
