//! Natural-language tests in `precept diff`: decided on both sides from the
//! translations `precept test` stored (against the scripted LLM server),
//! never asking the LLM; those that cannot be decided are named with why.

use super::support::precept_with_llm;
use super::*;
use std::process::Output;

const CANCELLED_QUESTION: &str = "The airline cancelled my flight. Do I get a refund?";
const CANCELLED_ANSWER: &str = "Yes, a cancelled flight is refunded.";
const FEE_QUESTION: &str = "What is the administration fee of a basic fare?";
const FEE_ANSWER: &str = "The fee of a basic fare is 40 dollars.";

fn nl(id: &str, name: &str, question: &str, answer: &str) -> Json {
    json!({"id": id, "name": name, "question": question, "answer": answer, "expected": "VALID"})
}

/// Replaces the project's natural-language tests.
fn set_answer_tests(dir: &Path, tests: Vec<Json>) {
    let path = dir.join("tests.json");
    let mut suite: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    suite["nl_tests"] = Json::Array(tests);
    std::fs::write(&path, serde_json::to_string_pretty(&suite).unwrap()).unwrap();
}

/// Edits the project's model.json.
fn edit_model(dir: &Path, edit: impl FnOnce(&mut Json)) {
    let path = dir.join("model.json");
    let mut model: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut model);
    std::fs::write(&path, serde_json::to_string_pretty(&model).unwrap()).unwrap();
}

fn named<'a>(list: &'a mut Json, key: &str, name: &str) -> &'a mut Json {
    list.as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|item| item[key] == name)
        .unwrap()
}

/// The scripted translator: each question gets its one pair.
fn translator() -> Server {
    let server = Server::start();
    server.respond_with(|request| {
        let prompt = request.user_prompt();
        let pair = if prompt.contains(AIRLINE_QUESTION) {
            (AIRLINE_PREMISE, "isRefundEligible")
        } else if prompt.contains(CANCELLED_QUESTION) {
            (
                "(= disruptionReason AIRLINE_CANCELLATION)",
                "isRefundEligible",
            )
        } else {
            ("(= fareType BASIC)", "(= adminFee 40.0)")
        };
        openai_json(&translation(&[pair], &[]))
    });
    server
}

struct Workspace {
    _dir: tempfile::TempDir,
    config: tempfile::TempDir,
    server: Server,
}

impl Workspace {
    fn dir(&self) -> &Path {
        self._dir.path()
    }

    fn at(&self, n: u32) -> String {
        format!("{}@{n}", self.dir().display())
    }

    fn precept(&self, args: &[&str]) -> Output {
        precept_with_llm(&self.server.url, self.config.path())
            .args(args)
            .output()
            .expect("run precept")
    }

    fn diff_json(&self) -> Json {
        let out = self.precept(&["diff", &self.at(1), self.dir().to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    }
}

fn flipped_ids_contain(diff: &Json, id: &str) -> bool {
    diff["tests_flipped"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == id)
}

fn notes(diff: &Json) -> Vec<String> {
    diff["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

/// The natural-language tests that flip.
fn nl_flipped(diff: &Json) -> Vec<String> {
    diff["tests_flipped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"] == "natural_language")
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect()
}

/// The airline sample with two natural-language tests translated by
/// `precept test`, a third added after that run, frozen as version 1; then
/// the draft's R7 loses its exceptions, so the denied-boarding answer
/// becomes impossible in the draft.
fn frozen_then_unrepaired() -> Workspace {
    let project = Workspace {
        _dir: copy_sample("airline-refunds"),
        config: tempfile::tempdir().unwrap(),
        server: translator(),
    };
    let dir = project.dir().to_str().unwrap().to_string();
    set_answer_tests(
        project.dir(),
        vec![
            nl(
                "N1",
                "Denied boarding is refunded",
                AIRLINE_QUESTION,
                AIRLINE_ANSWER,
            ),
            nl(
                "N2",
                "A cancelled flight is refunded",
                CANCELLED_QUESTION,
                CANCELLED_ANSWER,
            ),
        ],
    );
    let out = project.precept(&["test", &dir, "--filter", "N"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert_eq!(
        project.server.requests().len(),
        6,
        "k = 3 for each question"
    );
    set_answer_tests(
        project.dir(),
        vec![
            nl(
                "N1",
                "Denied boarding is refunded",
                AIRLINE_QUESTION,
                AIRLINE_ANSWER,
            ),
            nl(
                "N2",
                "A cancelled flight is refunded",
                CANCELLED_QUESTION,
                CANCELLED_ANSWER,
            ),
            nl("N3", "A basic fare's fee", FEE_QUESTION, FEE_ANSWER),
        ],
    );
    let out = project.precept(&["version", &dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    edit_model(project.dir(), |model| {
        named(&mut model["rules"], "id", "R7")["expression"] = json!(UNVETTED_R7);
    });
    project
}

#[test]
fn diff_decides_nl_tests_from_their_stored_translations_and_names_those_it_cannot() {
    let project = frozen_then_unrepaired();
    let dir = project.dir().to_str().unwrap().to_string();

    let diff = project.diff_json();
    let flipped = diff["tests_flipped"].as_array().unwrap();
    let n1 = flipped.iter().find(|t| t["id"] == "N1").expect("N1 flips");
    assert_eq!(n1["kind"], "natural_language");
    assert_eq!(n1["name"], "Denied boarding is refunded");
    assert_eq!(n1["expected"], "VALID");
    assert_eq!(n1["a"], "VALID");
    assert_eq!(n1["b"], "IMPOSSIBLE");
    let t1 = flipped.iter().find(|t| t["id"] == "T1").expect("T1 flips");
    assert_eq!(t1["kind"], "logic");
    assert_eq!(
        nl_flipped(&diff),
        ["N1"],
        "a cancelled flight is refunded on both sides"
    );
    let noted = notes(&diff);
    let n3 = format!(
        "natural-language test N3 not compared: no stored translation on A: run `precept test \
         {dir}@1`; no stored translation on B: run `precept test {dir}`"
    );
    assert!(noted.contains(&n3), "{noted:#?}");
    assert!(
        noted.iter().all(|n| !n.contains("N1") && !n.contains("N2")),
        "{noted:#?}"
    );
    assert_eq!(
        project.server.requests().len(),
        6,
        "the diff never asks the LLM"
    );

    let out = project.precept(&["diff", &project.at(1), &dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "  N1 Denied boarding is refunded: VALID → IMPOSSIBLE (expected VALID, natural-language)\n"
        ),
        "{text}"
    );
    assert!(text.contains(&format!("  note: {n3}\n")), "{text}");
    assert!(!text.contains("N2 A cancelled"), "{text}");

    // `precept test DIR@1` translates N3 into the project's cache (not into
    // the frozen version's folder): then the diff decides it on both sides,
    // and as it does not flip, it is neither listed nor noted.
    let out = project.precept(&["test", &project.at(1), "--filter", "N3"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains("PASS N3"), "{}", stdout(&out));
    assert_eq!(project.server.requests().len(), 9);
    assert!(!project.dir().join("versions/1/.cache").exists());
    let diff = project.diff_json();
    assert_eq!(nl_flipped(&diff), ["N1"]);
    assert!(
        notes(&diff).iter().all(|n| !n.contains("natural-language")),
        "{:#?}",
        notes(&diff)
    );

    // The draft redescribes a variable N1's translation uses: that stored
    // translation no longer serves the draft, and the diff says so.
    edit_model(project.dir(), |model| {
        named(&mut model["variables"], "name", "didFlightOperate")["description"] =
            json!("Whether the flight left with passengers on board");
    });
    let diff = project.diff_json();
    assert_eq!(nl_flipped(&diff), Vec::<String>::new());
    assert!(
        flipped_ids_contain(&diff, "T1"),
        "the logic tests still flip"
    );
    assert!(
        notes(&diff).contains(&format!(
            "natural-language test N1 not compared: its translation uses variable \
             didFlightOperate, which B changed: run `precept test {dir}`"
        )),
        "{:#?}",
        notes(&diff)
    );
    assert_eq!(project.server.requests().len(), 9, "still no LLM request");
}
