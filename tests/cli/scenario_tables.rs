//! Scenario tables in `precept verify`'s text: the rows that differ between
//! the scenarios first, each with its variable's description.

use crate::support;

use support::{precept, sample, stderr, stdout};

#[test]
fn verify_text_puts_differing_rows_first_with_descriptions() {
    let out = precept(&[
        "verify",
        sample("park-admission").to_str().unwrap(),
        "--premise",
        "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))",
        "--claim",
        "(not isEntryAllowed)",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("variable"))
        .collect();
    assert_eq!(
        table[0],
        "      variable            claims true  claims false  description"
    );
    assert_eq!(
        table[4],
        "    * creditUnits         0            3             Number of 5-credit units the visitor uses"
    );
    let markers: Vec<bool> = table[1..]
        .iter()
        .map(|l| l.trim_start().starts_with('*'))
        .collect();
    assert_eq!(markers.iter().filter(|m| **m).count(), 9, "{text}");
    assert!(
        markers.windows(2).all(|w| w[0] || !w[1]),
        "a differing row after an equal one:\n{text}"
    );
    assert_eq!(
        table[10],
        "      ageClass            SENIOR       SENIOR        The visitor's age class"
    );
}
