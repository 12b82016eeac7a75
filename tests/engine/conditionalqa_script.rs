//! scripts/conditionalqa_to_jsonl.py: it turns ConditionalQA yes/no questions
//! into the JSONL of `precept eval DIR --qa FILE.jsonl`, each usable question
//! once with its gold answer (valid) and once with the opposite (invalid), and
//! refuses bad input with exit code 2, a message naming the file, and no
//! `--out` file.

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn script() -> PathBuf {
    manifest().join("scripts").join("conditionalqa_to_jsonl.py")
}

fn convert(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .expect("python3 must be on PATH to run scripts/conditionalqa_to_jsonl.py")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("the script writes UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A scratch folder under the system temp dir, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "precept-conditionalqa-{}-{test}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The JSONL lines of a successful run, each checked for the required
/// fields, their values and their order.
fn parse_lines(text: &str) -> Vec<Value> {
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the output must end with a newline: {text:?}"
    );
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
            let object = value
                .as_object()
                .unwrap_or_else(|| panic!("not a JSON object: {line}"));
            for key in ["id", "question", "answer", "label"] {
                assert!(
                    object.get(key).is_some_and(Value::is_string),
                    "missing string field {key:?}: {line}"
                );
            }
            assert!(
                ["valid", "invalid"].contains(&object["label"].as_str().unwrap()),
                "label must be valid or invalid: {line}"
            );
            assert!(
                ["Yes.", "No."].contains(&object["answer"].as_str().unwrap()),
                "answer must be Yes. or No.: {line}"
            );
            if let Some(scenario) = object.get("scenario") {
                assert!(
                    scenario.as_str().is_some_and(|s| !s.trim().is_empty()),
                    "a scenario, when present, is non-empty text: {line}"
                );
            }
            if let Some(conditional) = object.get("conditional") {
                assert_eq!(conditional, &json!(true), "{line}");
            }
            let keys: Vec<&str> = object.keys().map(String::as_str).collect();
            let order: Vec<&str> = [
                "id",
                "scenario",
                "question",
                "answer",
                "label",
                "conditional",
            ]
            .into_iter()
            .filter(|key| object.contains_key(*key))
            .collect();
            assert_eq!(keys, order, "unexpected keys or key order: {line}");
            value
        })
        .collect()
}

fn ids(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .map(|line| line["id"].as_str().unwrap())
        .collect()
}

fn yes_no(text: &str) -> Option<&'static str> {
    match text.trim().to_lowercase().trim_end_matches('.') {
        "yes" => Some("yes"),
        "no" => Some("no"),
        _ => None,
    }
}

fn sentence(word: &str) -> &'static str {
    if word == "yes" { "Yes." } else { "No." }
}

fn opposite(word: &str) -> &'static str {
    if word == "yes" { "no" } else { "yes" }
}

/// A usable question as the test reads it from the input on its own.
struct Usable {
    id: String,
    scenario: String,
    question: String,
    gold: &'static str,
    conditional: bool,
}

fn usable_questions(questions: &[Value]) -> Vec<Usable> {
    let mut usable = Vec::new();
    for q in questions {
        if q["not_answerable"] == json!(true) {
            continue;
        }
        let answers = q["answers"].as_array().expect("answers is a list");
        let words: Vec<Option<&'static str>> = answers
            .iter()
            .map(|a| yes_no(a[0].as_str().expect("answer text")))
            .collect();
        let Some(Some(gold)) = words.first().copied() else {
            continue;
        };
        if words.iter().any(|w| *w != Some(gold)) {
            continue;
        }
        usable.push(Usable {
            id: q["id"].as_str().unwrap().to_string(),
            scenario: q["scenario"].as_str().unwrap_or("").trim().to_string(),
            question: q["question"].as_str().unwrap().trim().to_string(),
            gold,
            conditional: answers.iter().any(|a| !a[1].as_array().unwrap().is_empty()),
        });
    }
    usable
}

#[test]
fn picked_motorcycle_questions_become_gold_and_opposite_pairs() {
    let input = manifest()
        .join("tests")
        .join("data")
        .join("conditionalqa")
        .join("picked")
        .join("motorcycle_cbt.questions.json");
    assert!(
        input.is_file(),
        "missing ConditionalQA picked file {} (tests/data/conditionalqa)",
        input.display()
    );
    let picked: Value = serde_json::from_str(&fs::read_to_string(&input).unwrap()).unwrap();
    let questions = picked["questions"].as_array().expect("a questions list");
    let usable = usable_questions(questions);
    // All five picked questions are plain yes/no questions.
    assert_eq!(usable.len(), 5, "the picked file changed");

    let out = convert(&[path_str(&input)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = parse_lines(&stdout(&out));
    assert_eq!(
        lines.len(),
        2 * usable.len(),
        "two lines per usable question"
    );

    for (pair, q) in lines.chunks(2).zip(&usable) {
        let (gold, other) = (&pair[0], &pair[1]);
        assert_eq!(gold["id"], json!(format!("{}:gold", q.id)));
        assert_eq!(other["id"], json!(format!("{}:opposite", q.id)));
        assert_eq!(gold["label"], "valid");
        assert_eq!(other["label"], "invalid");
        assert_eq!(gold["answer"], sentence(q.gold));
        assert_eq!(other["answer"], sentence(opposite(q.gold)));
        assert_ne!(gold["answer"], other["answer"]);
        for line in pair {
            assert_eq!(line["question"], json!(q.question));
            if q.scenario.is_empty() {
                assert!(line.get("scenario").is_none(), "{line}");
            } else {
                assert_eq!(line["scenario"], json!(q.scenario));
            }
            assert_eq!(
                line.get("conditional").is_some(),
                q.conditional,
                "conditional flag of {line}"
            );
        }
    }
    let labels: Vec<&str> = lines.iter().map(|l| l["label"].as_str().unwrap()).collect();
    for (i, label) in labels.iter().enumerate() {
        assert_eq!(*label, if i % 2 == 0 { "valid" } else { "invalid" });
    }

    // dev-65: "Do I need to take Compulsory basic training to ride my moped?" – gold "no".
    let dev65: Vec<&Value> = lines
        .iter()
        .filter(|l| l["id"].as_str().unwrap().starts_with("dev-65:"))
        .collect();
    assert_eq!(dev65.len(), 2, "{lines:?}");
    assert_eq!(dev65[0]["id"], "dev-65:gold");
    assert_eq!(dev65[0]["answer"], "No.");
    assert_eq!(dev65[0]["label"], "valid");
    assert_eq!(dev65[1]["id"], "dev-65:opposite");
    assert_eq!(dev65[1]["answer"], "Yes.");
    assert_eq!(dev65[1]["label"], "invalid");
    assert!(stderr(&out).contains(" 0 skipped"), "{}", stderr(&out));
}

#[test]
fn dev_json_questions_that_are_not_plain_yes_no_are_skipped_and_counted() {
    let scratch = Scratch::new("skips");
    let dev = json!([
        {
            "url": "https://www.gov.uk/a", "id": "dev-1", "scenario": "",
            "question": "Can I apply?", "not_answerable": false,
            "answers": [["yes", ["<p>If you live in England.</p>"]]], "evidences": []
        },
        {
            "url": "https://www.gov.uk/a", "id": "dev-2", "scenario": "I live in Wales.",
            "question": "Can I apply?", "not_answerable": false,
            "answers": [["no", []]], "evidences": []
        },
        {
            "url": "https://www.gov.uk/a", "id": "dev-3", "scenario": "I am 17.",
            "question": "Will I get the grant?", "not_answerable": true,
            "answers": [], "evidences": []
        },
        {
            "url": "https://www.gov.uk/a", "id": "dev-4", "scenario": "I study in 2021.",
            "question": "How much can I borrow?", "not_answerable": false,
            "answers": [["£11,570", []]], "evidences": []
        },
        {
            "url": "https://www.gov.uk/a", "id": "dev-5", "scenario": "I trade abroad.",
            "question": "Must I register?", "not_answerable": false,
            "answers": [["no", []], ["yes", ["<p>If you sell to the UK.</p>"]]],
            "evidences": []
        }
    ]);
    let input = scratch.write("dev.json", &dev.to_string());

    let out = convert(&[path_str(&input)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = parse_lines(&stdout(&out));
    assert_eq!(
        ids(&lines),
        [
            "dev-1:gold",
            "dev-1:opposite",
            "dev-2:gold",
            "dev-2:opposite"
        ]
    );
    let answers: Vec<&str> = lines
        .iter()
        .map(|l| l["answer"].as_str().unwrap())
        .collect();
    assert_eq!(answers, ["Yes.", "No.", "No.", "Yes."]);
    // dev-1 has no scenario and a conditional answer; dev-2 the opposite.
    for line in &lines[..2] {
        assert!(line.get("scenario").is_none(), "{line}");
        assert_eq!(line["conditional"], json!(true), "{line}");
    }
    for line in &lines[2..] {
        assert_eq!(line["scenario"], "I live in Wales.");
        assert!(line.get("conditional").is_none(), "{line}");
    }
    let message = stderr(&out);
    assert!(message.contains("3 skipped"), "{message}");
    assert!(
        message.contains("not answerable 1, not yes/no 1, disagreeing 1"),
        "{message}"
    );
}

#[test]
fn malformed_json_exits_2_naming_the_file_and_position_and_writes_nothing() {
    let scratch = Scratch::new("malformed");
    let input = scratch.write("broken.questions.json", "{\"questions\": [");
    let target = scratch.0.join("out.jsonl");

    let out = convert(&[path_str(&input), "--out", path_str(&target)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert_eq!(message.lines().count(), 1, "one line: {message}");
    assert!(
        message.contains(&format!("{}:1:16", input.display())),
        "the file and line:column of the error: {message}"
    );
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(!target.exists(), "--out must not be created on error");
    let leftovers: Vec<_> = fs::read_dir(&scratch.0).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");

    // An existing --out file is left as it was.
    fs::write(&target, "before\n").unwrap();
    let out = convert(&[path_str(&input), "--out", path_str(&target)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&target).unwrap(), "before\n");
}

#[test]
fn missing_files_and_files_of_neither_shape_exit_2() {
    let scratch = Scratch::new("shape");
    let missing = scratch.0.join("absent.json");
    let string = scratch.write("string.json", "\"a string\"");
    let object = scratch.write("object.json", "{\"title\": \"no questions\"}");
    for input in [&missing, &string, &object] {
        let out = convert(&[path_str(input)]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let message = stderr(&out);
        assert_eq!(message.lines().count(), 1, "one line: {message}");
        assert!(message.contains(path_str(input)), "{message}");
        assert!(out.stdout.is_empty(), "{}", stdout(&out));
    }
    let message = stderr(&convert(&[path_str(&object)]));
    assert!(message.contains("expected"), "{message}");
}

#[test]
fn url_selects_the_questions_of_one_document() {
    let scratch = Scratch::new("url");
    let question = |url: &str, id: &str, answer: &str| {
        json!({
            "url": url, "id": id, "scenario": "I am a student.",
            "question": format!("Question {id}?"), "not_answerable": false,
            "answers": [[answer, []]], "evidences": []
        })
    };
    let dev = json!([
        question("https://www.gov.uk/masters-loan", "dev-1", "yes"),
        question("https://www.gov.uk/vat-registration", "dev-2", "no"),
        question("https://www.gov.uk/masters-loan", "dev-3", "no"),
        question("https://www.gov.uk/motorcycle-cbt", "dev-4", "yes")
    ]);
    let input = scratch.write("dev.json", &dev.to_string());
    let target = scratch.0.join("loan.jsonl");

    let out = convert(&[
        path_str(&input),
        "--url",
        "https://www.gov.uk/masters-loan",
        "--out",
        path_str(&target),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "--out writes nothing to stdout");
    let lines = parse_lines(&fs::read_to_string(&target).unwrap());
    assert_eq!(
        ids(&lines),
        [
            "dev-1:gold",
            "dev-1:opposite",
            "dev-3:gold",
            "dev-3:opposite"
        ]
    );

    // Without --url every question is used.
    let out = convert(&[path_str(&input)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(parse_lines(&stdout(&out)).len(), 8);

    // A URL no question has is an error, not an empty file.
    let none = scratch.0.join("none.jsonl");
    let out = convert(&[
        path_str(&input),
        "--url",
        "https://www.gov.uk/nowhere",
        "--out",
        path_str(&none),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(path_str(&input)), "{}", stderr(&out));
    assert!(!none.exists());
}
