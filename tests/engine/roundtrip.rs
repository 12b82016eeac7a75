//! The printer is canonical: parse(print(x)) == x for every expression of
//! the fragment, and printing is a fixed point.

use num_bigint::BigInt;
use num_rational::BigRational;
use precept::smt::{Expr, ExprKind, Op, parse_expr};
use proptest::prelude::*;

/// Reserved words and operator names cannot name variables (the vocabulary
/// refuses them), quoted or not.
fn is_nameable(name: &str) -> bool {
    ![
        "true", "false", "as", "let", "par", "match", "forall", "exists",
    ]
    .contains(&name)
        && Op::from_symbol(name).is_none()
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        any::<bool>().prop_map(|b| Expr::new(ExprKind::Bool(b))),
        (0u64..1_000_000).prop_map(|n| Expr::new(ExprKind::Int(BigInt::from(n)))),
        (0u64..100_000, 0u32..5).prop_map(|(n, places)| Expr::new(ExprKind::Decimal(
            BigRational::new(BigInt::from(n), BigInt::from(10u32).pow(places))
        ))),
        "[a-zA-Z_][a-zA-Z0-9_.!?-]{0,8}"
            // Reserved words and operator names cannot name variables.
            .prop_filter("reserved", |name| ![
                "true", "false", "as", "let", "par", "match", "forall", "exists"
            ]
            .contains(&name.as_str())
                && Op::from_symbol(name).is_none())
            .prop_map(|name| Expr::new(ExprKind::Symbol(name))),
        "[a-z ]{1,6}"
            .prop_filter("reserved", |name: &String| is_nameable(name))
            .prop_map(|name| Expr::new(ExprKind::Symbol(name))),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(4, 48, 4, |inner| {
        (
            proptest::sample::select(Op::ALL.to_vec()),
            proptest::collection::vec(inner, 1..4),
        )
            .prop_map(|(op, args)| Expr::app(op, args))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_of_print_is_identity(expr in expr()) {
        let printed = expr.to_string();
        let reparsed = parse_expr(&printed).map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
        prop_assert_eq!(&reparsed, &expr);
        prop_assert_eq!(reparsed.to_string(), printed);
    }

    #[test]
    fn pretty_printing_reads_back_the_same(expr in expr(), width in 10usize..80) {
        let pretty = precept::smt::printer::pretty(&expr, width);
        prop_assert_eq!(parse_expr(&pretty).unwrap(), expr);
    }

    #[test]
    fn the_parser_never_panics_on_arbitrary_text(text in "[()a-z0-9 .|;:#\"\\n=<>+*/-]{0,40}") {
        let _ = parse_expr(&text);
        let _ = precept::smt::parse_script(&text);
    }
}
