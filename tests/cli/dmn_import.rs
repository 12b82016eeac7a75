//! `precept import MODEL.dmn --out DIR` through the real binary: the TCK
//! cases import with their test cases and pass `precept test`; lint reads
//! each table by its hit policy; bad files are refused with the file, the
//! line and the cell, and leave nothing behind.

use crate::support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::dmn::one_table;
use support::{precept, repo, stderr, stdout};

const TCK_CASES: [(&str, usize, &str); 4] = [
    ("0004-simpletable-U", 3, "UNIQUE"),
    ("0020-vacation-days", 7, "COLLECT"),
    ("0108-first-hitpolicy", 3, "FIRST"),
    ("0111-first-hitpolicy-singleoutputcol", 3, "FIRST"),
];

fn tck_model(name: &str) -> PathBuf {
    repo()
        .join("tests/data/dmn")
        .join(name)
        .join(format!("{name}.dmn"))
}

fn import(file: &Path, out: &Path) -> std::process::Output {
    precept(&[
        "import",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_tck_case_imports_and_passes_precept_test() {
    for (name, cases, policy) in TCK_CASES {
        let scratch = tempfile::tempdir().unwrap();
        let out = scratch.path().join("project");
        let imported = import(&tck_model(name), &out);
        assert!(imported.status.success(), "{name}: {}", stderr(&imported));
        assert!(
            stdout(&imported).contains(&format!("imported {cases} TCK test cases")),
            "{name}: {}",
            stdout(&imported)
        );
        let model = read_json(&out.join("model.json"));
        let tables = model["decision_tables"].as_array().unwrap();
        assert!(
            tables.iter().all(|t| t["hit_policy"] == policy),
            "{name}: {tables:?}"
        );
        let tests = read_json(&out.join("tests.json"));
        assert_eq!(tests["tests"].as_array().unwrap().len(), cases);
        let run = precept(&["test", out.to_str().unwrap()]);
        assert!(
            run.status.success(),
            "{name}: {}{}",
            stdout(&run),
            stderr(&run)
        );
        assert!(
            stdout(&run).contains(&format!("{cases} passed, 0 failed")),
            "{name}: {}",
            stdout(&run)
        );
    }
}

#[test]
fn a_wrong_expectation_in_a_tck_file_fails_the_test_run() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "0111-first-hitpolicy-singleoutputcol";
    let source = tck_model(name);
    std::fs::copy(&source, scratch.path().join(format!("{name}.dmn"))).unwrap();
    let tests = std::fs::read_to_string(source.with_file_name(format!("{name}-test-01.xml")))
        .unwrap()
        .replace("Videogames</value>", "Toys</value>");
    std::fs::write(scratch.path().join(format!("{name}-test-01.xml")), tests).unwrap();
    let out = scratch.path().join("project");
    let imported = import(&scratch.path().join(format!("{name}.dmn")), &out);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let run = precept(&["test", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stdout(&run));
    assert!(
        stdout(&run).contains("2 passed, 1 failed"),
        "{}",
        stdout(&run)
    );
}

fn lint_codes(xml: &str) -> Vec<(String, String)> {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("table.dmn");
    std::fs::write(&file, xml).unwrap();
    let out = scratch.path().join("project");
    let imported = import(&file, &out);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let lint = precept(&["lint", "--json", out.to_str().unwrap()]);
    let diagnostics: Value = serde_json::from_slice(&lint.stdout).unwrap();
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Two rows that overlap at 65 and over, with the same output.
const AGREEING_ROWS: &[(&[&str], &str)] = &[
    (&["<18"], "\"Minor\""),
    (&[">=18"], "\"Adult\""),
    (&[">=65"], "\"Adult\""),
];

#[test]
fn lint_reports_overlaps_by_the_tables_hit_policy() {
    let unique = lint_codes(&one_table(
        "hitPolicy=\"UNIQUE\"",
        &[("Age", "number")],
        "string",
        "",
        AGREEING_ROWS,
    ));
    let overlap = unique.iter().find(|(code, _)| code == "L206");
    assert!(
        overlap.is_some_and(|(_, m)| m.contains("R2 and R3") && m.contains("UNIQUE")),
        "{unique:?}"
    );
    for policy in ["ANY", "FIRST", "COLLECT"] {
        let codes = lint_codes(&one_table(
            &format!("hitPolicy=\"{policy}\""),
            &[("Age", "number")],
            "string",
            "",
            AGREEING_ROWS,
        ));
        assert!(
            !codes.iter().any(|(c, _)| c == "L206"),
            "{policy}: {codes:?}"
        );
    }
    // Rows that disagree where they overlap: a conflict in an ANY table,
    // the table's order in a FIRST table.
    let disagreeing: &[(&[&str], &str)] = &[
        (&[">=18"], "\"Adult\""),
        (&[">=65"], "\"Senior\""),
        (&["<18"], "\"Minor\""),
    ];
    let any = lint_codes(&one_table(
        "hitPolicy=\"ANY\"",
        &[("Age", "number")],
        "string",
        "",
        disagreeing,
    ));
    assert!(any.iter().any(|(c, _)| c == "L206"), "{any:?}");
    let first = lint_codes(&one_table(
        "hitPolicy=\"FIRST\"",
        &[("Age", "number")],
        "string",
        "",
        disagreeing,
    ));
    assert!(!first.iter().any(|(c, _)| c == "L206"), "{first:?}");
}

#[test]
fn lint_reports_gaps_except_where_collect_allows_no_match() {
    let rows: &[(&[&str], &str)] = &[(&["<18"], "\"Minor\""), (&["[18..65)"], "\"Adult\"")];
    let unique = lint_codes(&one_table(
        "hitPolicy=\"UNIQUE\"",
        &[("Age", "number")],
        "string",
        "",
        rows,
    ));
    assert!(
        unique
            .iter()
            .any(|(c, m)| c == "L207" && m.contains("result")),
        "{unique:?}"
    );
    let sums: &[(&[&str], &str)] = &[(&["<18"], "1"), (&["[18..65)"], "2")];
    let collect = lint_codes(&one_table(
        "hitPolicy=\"COLLECT\" aggregation=\"SUM\"",
        &[("Age", "number")],
        "number",
        "",
        sums,
    ));
    assert!(!collect.iter().any(|(c, _)| c == "L207"), "{collect:?}");
    let with_default = lint_codes(&one_table(
        "hitPolicy=\"UNIQUE\"",
        &[("Age", "number")],
        "string",
        "<defaultOutputEntry><text>\"Senior\"</text></defaultOutputEntry>",
        rows,
    ));
    assert!(
        !with_default.iter().any(|(c, _)| c == "L207"),
        "{with_default:?}"
    );
}

/// Imports `xml` as `name` and expects a refusal (exit 2) that leaves no
/// project behind; returns the message.
fn refused(name: &str, xml: &[u8]) -> String {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join(name);
    std::fs::write(&file, xml).unwrap();
    let out = scratch.path().join("project");
    let output = import(&file, &out);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    assert!(
        !out.join("model.json").exists(),
        "a refused import wrote a project"
    );
    let message = stderr(&output);
    assert!(message.contains(&file.display().to_string()), "{message}");
    message
}

#[test]
fn malformed_xml_is_refused_with_its_line() {
    let model = std::fs::read_to_string(tck_model("0004-simpletable-U")).unwrap();
    let broken = model.replacen("</inputEntry>", "</inputEntr>", 1);
    let message = refused("broken.dmn", broken.as_bytes());
    assert!(message.contains("broken.dmn:41:17:"), "{message}");
    assert!(message.contains("expected well-formed XML"), "{message}");
}

#[test]
fn unsupported_feel_is_refused_naming_the_cell() {
    let xml = one_table(
        "hitPolicy=\"UNIQUE\"",
        &[("Age", "number")],
        "string",
        "",
        &[
            (&["<18"], "\"Minor\""),
            (&[">= 18, date(\"2020-01-01\")"], "\"Adult\""),
        ],
    );
    let message = refused("feel.dmn", xml.as_bytes());
    assert!(message.contains("feel.dmn:14:51:"), "{message}");
    assert!(
        message.contains("decision 'Result', rule 2, input 'Age' (element row2_in1)"),
        "{message}"
    );
    assert!(message.contains("found 'date'"), "{message}");
}

#[test]
fn a_broken_tck_file_is_refused_with_its_own_name_and_line() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "0111-first-hitpolicy-singleoutputcol";
    std::fs::copy(tck_model(name), scratch.path().join(format!("{name}.dmn"))).unwrap();
    let tests =
        std::fs::read_to_string(tck_model(name).with_file_name(format!("{name}-test-01.xml")))
            .unwrap()
            .replace(">13</value>", ">thirteen</value>");
    let test_file = scratch.path().join(format!("{name}-test-01.xml"));
    std::fs::write(&test_file, tests).unwrap();
    let out = scratch.path().join("project");
    let output = import(&scratch.path().join(format!("{name}.dmn")), &out);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains(&format!("{}:23:", test_file.display())),
        "{message}"
    );
    assert!(
        message.contains("test case 002, 'age'") && message.contains("found 'thirteen'"),
        "{message}"
    );
    assert!(!out.join("model.json").exists());
}

#[test]
fn an_entity_expansion_bomb_is_refused_without_expanding() {
    let mut bomb = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE definitions [\n <!ENTITY a \"aaaaaaaaaa\">\n",
    );
    for level in 1..10 {
        let previous = (b'a' + level - 1) as char;
        let refs: String = std::iter::repeat_n(format!("&{previous};"), 10).collect();
        bomb.push_str(&format!(
            " <!ENTITY {} \"{refs}\">\n",
            (b'a' + level) as char
        ));
    }
    bomb.push_str(
        "]>\n<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\" name=\"&j;\"/>\n",
    );
    let message = refused("bomb.dmn", bomb.as_bytes());
    assert!(message.contains("bomb.dmn:"), "{message}");
    assert!(message.contains("DTD"), "{message}");
}

#[test]
fn a_file_of_a_hundred_megabytes_is_refused_before_it_is_parsed() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("huge.dmn");
    {
        use std::io::Write;
        let mut writer = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        writer
            .write_all(b"<?xml version=\"1.0\"?>\n<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\" name=\"huge\"><decision name=\"D\"><decisionTable>\n")
            .unwrap();
        let row = b"<rule><inputEntry><text>&gt;= 18</text></inputEntry><outputEntry><text>\"yes\"</text></outputEntry></rule>\n";
        for _ in 0..(100 * 1024 * 1024 / row.len()) {
            writer.write_all(row).unwrap();
        }
    }
    assert!(std::fs::metadata(&file).unwrap().len() >= 100 * 1024 * 1024 - 200);
    let out = scratch.path().join("project");
    let output = import(&file, &out);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("huge.dmn:1:1") && message.contains("at most 16 MiB"),
        "{message}"
    );
    assert!(!out.exists());
}
