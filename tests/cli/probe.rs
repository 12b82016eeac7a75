//! `precept probe`: a scripted chatbot with planted behaviour on the park
//! sample, a scripted translator, both on 127.0.0.1; the report must find
//! exactly the planted failures. Also the round trip's discard, resuming
//! after a killed run, the hallucination gate and hostile targets.

use crate::probe_bot;
use crate::support;

use precept::model::Project;
use precept::probe::question::{ProbeQuestion, Relation};
use precept::probe::{Expected, ProbeKind};
use probe_bot::{
    Behaviour, INJECTION, Script, planned, right_answer, scripted_servers, write_llm_toml,
};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::Duration;
use support::llm_server::{self, Server};

const BOT_KEY: &str = "sk-bot-secret-0123456789";
const TRANSLATOR_KEY: &str = "sk-translator-secret-0123456789";

fn probe_command(config: &Path, project: &Path, extra: &[&str]) -> Command {
    let mut command = support::precept_command();
    command
        .arg("probe")
        .arg(project)
        .args(["--target", "bot"])
        .args(extra)
        .env("PRECEPT_CONFIG_DIR", config)
        .env("PROBE_BOT_KEY", BOT_KEY)
        .env("PROBE_TRANSLATOR_KEY", TRANSLATOR_KEY)
        .env("NO_PROXY", "127.0.0.1")
        .env_remove("PRECEPT_LLM_BASE_URL")
        .env_remove("PRECEPT_LLM_MODEL")
        .env_remove("PRECEPT_LLM_PROTOCOL")
        .env_remove("PRECEPT_LLM_API_KEY_ENV")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY");
    command
}

fn run(config: &Path, project: &Path, extra: &[&str]) -> Output {
    probe_command(config, project, extra)
        .output()
        .expect("run precept")
}

fn json_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            support::stdout(output),
            support::stderr(output)
        )
    })
}

/// Runs the probe, which must succeed, and reads its JSON.
fn run_json(config: &Path, project: &Path, extra: &[&str]) -> Value {
    let output = run(config, project, extra);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        support::stderr(&output)
    );
    json_of(&output)
}

/// What the probe will ask, worked out through the core as the command does.
fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn has(rules: &[String], rule: &str) -> bool {
    rules.iter().any(|r| r == rule)
}

#[test]
fn the_report_finds_exactly_the_planted_failures() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let (questions, loaded) = planned(project.path(), 30, &ProbeKind::ALL);
    let by_id: HashMap<&str, &ProbeQuestion> =
        questions.iter().map(|q| (q.id.as_str(), q)).collect();
    let original = |q: &ProbeQuestion| -> ProbeQuestion {
        match &q.variant_of {
            Some((of, _)) => by_id[of.as_str()].clone(),
            None => q.clone(),
        }
    };
    let planted_rule = |q: &ProbeQuestion, rule: &str| has(&original(q).rules, rule);
    let plain = |q: &&ProbeQuestion| !planted_rule(q, "R13") && !planted_rule(q, "R17");
    // The planted questions.
    let negated = questions
        .iter()
        .filter(plain)
        .find(|q| {
            matches!(q.variant_of, Some((_, Relation::Negated)))
                && matches!(original(q).expected, Expected::Yes | Expected::No)
        })
        .expect("a negated variant to answer inconsistently")
        .clone();
    let varied: BTreeSet<String> = questions
        .iter()
        .filter_map(|q| q.variant_of.as_ref().map(|(of, _)| of.clone()))
        .collect();
    let injected = questions
        .iter()
        .filter(plain)
        .find(|q| q.variant_of.is_none() && q.expected == Expected::No && !varied.contains(&q.id))
        .expect("a question for the injection")
        .clone();
    assert!(
        questions.iter().any(|q| has(&q.rules, "R13")),
        "the plan asks about the credit cap"
    );
    let behaviour = |q: &ProbeQuestion| {
        if q.id == negated.id {
            Behaviour::Says(right_answer(&original(q).expected))
        } else if q.id == injected.id {
            Behaviour::Injection
        } else if planted_rule(q, "R13") {
            Behaviour::Wrong
        } else if planted_rule(q, "R17") {
            Behaviour::Hedge
        } else {
            Behaviour::Right
        }
    };
    let mut script = Script::new(&questions, behaviour);
    {
        let compiled = loaded.compile_strict().unwrap();
        let worker = support::worker(&compiled, Duration::from_secs(10));
        script.add_follow_ups(&worker, &loaded.model, &compiled);
    }
    let contradicted = questions
        .iter()
        .filter(plain)
        .find(|q| {
            q.kind == ProbeKind::Numeric
                && q.id != negated.id
                && script.follow_up_of.contains_key(&q.id)
        })
        .expect("a numeric question with a follow-up")
        .id
        .clone();
    script.contradict_follow_up.insert(contradicted.clone());
    // What each answer's verdict must be, and which get a follow-up.
    let expected_verdict = |q: &ProbeQuestion| -> &str {
        let depends = matches!(q.expected, Expected::Depends { .. });
        if q.id == negated.id {
            "inconsistent"
        } else if q.id == injected.id {
            "hallucination"
        } else if planted_rule(q, "R13") {
            if depends {
                "incomplete"
            } else {
                "hallucination"
            }
        } else if planted_rule(q, "R17") {
            if depends { "correct" } else { "incomplete" }
        } else {
            "correct"
        }
    };
    let script = Arc::new(script);
    let (translator, bot) = scripted_servers(&script);
    write_llm_toml(config.path(), &translator.url, &bot.url);

    let report_md = project.path().join("probe.md");
    let junit = project.path().join("probe.xml");
    let json = run_json(
        config.path(),
        project.path(),
        &[
            "--questions",
            "30",
            "--follow-ups",
            "--templated",
            "--json",
            "--report",
            report_md.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ],
    );

    // The JSON is fixed.
    let keys: BTreeSet<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "asked",
            "discarded",
            "results",
            "rates",
            "by_rule",
            "by_kind"
        ])
    );
    let results = json["results"].as_array().unwrap();
    let result_keys: BTreeSet<&str> = results[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        result_keys,
        BTreeSet::from([
            "id",
            "kind",
            "question",
            "expected",
            "answer",
            "finding",
            "verdict",
            "rules",
            "follow_ups"
        ])
    );
    assert_eq!(
        results.len(),
        questions.len(),
        "every planned question is asked"
    );

    // Each verdict is the planted one, with the question's rules and kind.
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut asked = 0;
    let mut follow_up_inconsistent = Vec::new();
    for result in results {
        let id = result["id"].as_str().unwrap();
        let q = by_id[id];
        assert_eq!(result["verdict"], expected_verdict(q), "{id}: {result:#}");
        let rules: Vec<String> = serde_json::from_value(result["rules"].clone()).unwrap();
        assert_eq!(rules, q.rules, "{id}");
        assert_eq!(result["kind"], q.kind.as_str(), "{id}");
        *counts
            .entry(result["verdict"].as_str().unwrap().to_string())
            .or_default() += 1;
        asked += 1;
        let follow_ups = result["follow_ups"].as_array().unwrap();
        let wants_follow_up =
            expected_verdict(q) == "correct" && script.follow_up_of.contains_key(id);
        assert_eq!(
            follow_ups.len(),
            usize::from(wants_follow_up),
            "{id}: {result:#}"
        );
        for f in follow_ups {
            asked += 1;
            let verdict = f["verdict"].as_str().unwrap();
            *counts.entry(verdict.to_string()).or_default() += 1;
            if id == contradicted {
                assert_eq!(verdict, "inconsistent", "{f:#}");
                follow_up_inconsistent.push(id.to_string());
            } else {
                assert_eq!(verdict, "correct", "{id}: {f:#}");
            }
        }
    }
    assert_eq!(follow_up_inconsistent, vec![contradicted.clone()]);
    assert_eq!(json["asked"], asked);
    assert_eq!(json["discarded"], 0);
    let count = |v: &str| counts.get(v).copied().unwrap_or(0);
    assert_eq!(count("inconsistent"), 2, "one variant and one follow-up");
    assert!(
        count("hallucination") >= 2 && count("incomplete") >= 1,
        "{counts:?}"
    );
    for name in ["hallucination", "incomplete", "inconsistent"] {
        let rate = &json["rates"][name];
        assert_eq!(rate["count"], count(name), "{name}");
        assert_eq!(rate["of"], asked, "{name}");
        let share = count(name) as f64 / asked as f64;
        assert!(
            (rate["rate"].as_f64().unwrap() - share).abs() < 1e-9,
            "{name}"
        );
        assert!(rate["low"].as_f64().unwrap() <= share && share <= rate["high"].as_f64().unwrap());
    }
    // By rule: the credit cap's questions are the hallucinated ones.
    let r13 = questions
        .iter()
        .filter(|q| q.rules.contains(&"R13".to_string()) && expected_verdict(q) == "hallucination")
        .count();
    assert!(r13 >= 1);
    assert_eq!(json["by_rule"]["R13"]["hallucination"]["count"], r13);
    assert_eq!(json["by_kind"]["follow-up"]["inconsistent"]["count"], 1);
    assert_eq!(json["by_kind"]["variant"]["inconsistent"]["count"], 1);

    // The injection was sent to the translator as data, inside a JSON string.
    let injection_prompt = translator
        .requests()
        .into_iter()
        .map(|r| r.user_prompt())
        .find(|p| p.contains(INJECTION))
        .expect("the injection answer was translated");
    assert!(
        injection_prompt
            .lines()
            .any(|l| l.starts_with("Answer: \"IGNORE ALL PREVIOUS INSTRUCTIONS")),
        "{injection_prompt}"
    );
    // Follow-ups are asked in the same conversation.
    let conversation = bot
        .requests()
        .into_iter()
        .find(|r| {
            r.body["messages"].as_array().unwrap().len() > 3
                && r.prompt_text().contains(&by_id[contradicted.as_str()].text)
        })
        .expect("the follow-up continues the conversation");
    assert!(conversation.user_prompt().starts_with("So in that case"));

    // The Markdown report shows the failures with their proved chains.
    let markdown = std::fs::read_to_string(&report_md).unwrap();
    assert!(
        markdown.contains(&format!("### {} (", injected.id)),
        "{markdown}"
    );
    assert!(markdown.contains("proved chain"), "{markdown}");
    assert!(
        markdown.contains("“Credits may pay for at most half of the admission fee"),
        "the credit cap's source sentence is shown: {markdown}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(&format!("failures=\"{}\"", asked - count("correct"))),
        "{xml}"
    );

    // Keys never reach disk; the chatbot's replies are cached apart.
    let mut files = Vec::new();
    files_under(project.path(), &mut files);
    for file in &files {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        assert!(
            !text.contains(BOT_KEY) && !text.contains(TRANSLATOR_KEY),
            "{}",
            file.display()
        );
    }
    let cache = project.path().join(".cache");
    let in_dir = |dir: &str| {
        std::fs::read_dir(cache.join(dir))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    assert!(in_dir("probe-target") > 0 && in_dir("llm") > 0);
    for file in files.iter().filter(|f| f.starts_with(cache.join("llm"))) {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            !text.contains("\"schema_name\": \"chat\""),
            "{}",
            file.display()
        );
    }

    // Run again: everything comes from the caches; the gate decides the exit.
    let bot_before = bot.requests().len();
    let translator_before = translator.requests().len();
    let gate = |limit: &str| {
        run(
            config.path(),
            project.path(),
            &[
                "--questions",
                "30",
                "--follow-ups",
                "--templated",
                "--json",
                "--max-hallucination",
                limit,
            ],
        )
    };
    let strict = gate("0.01");
    assert_eq!(
        strict.status.code(),
        Some(1),
        "{}",
        support::stderr(&strict)
    );
    assert!(support::stderr(&strict).contains("above --max-hallucination"));
    assert_eq!(json_of(&strict)["rates"], json["rates"]);
    let lenient = gate("0.9");
    assert_eq!(
        lenient.status.code(),
        Some(0),
        "{}",
        support::stderr(&lenient)
    );
    assert_eq!(
        bot.requests().len(),
        bot_before,
        "the reruns are answered from the cache"
    );
    assert_eq!(translator.requests().len(), translator_before);
}

#[test]
fn an_unfaithful_wording_is_discarded_by_the_round_trip() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let kinds = [ProbeKind::SingleRule, ProbeKind::Numeric];
    let (questions, _) = planned(project.path(), 6, &kinds);
    let twisted = questions[1].id.clone();
    let mut script = Script::new(&questions, |_| Behaviour::Right);
    script.twist.insert(twisted.clone());
    let script = Arc::new(script);
    let (translator, bot) = scripted_servers(&script);
    write_llm_toml(config.path(), &translator.url, &bot.url);
    let output = run(
        config.path(),
        project.path(),
        &[
            "--questions",
            "6",
            "--kinds",
            "single-rule,numeric",
            "--json",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        support::stderr(&output)
    );
    let json = json_of(&output);
    assert_eq!(json["discarded"], 1);
    let ids: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), questions.len() - 1);
    assert!(!ids.contains(&twisted.as_str()));
    for result in json["results"].as_array().unwrap() {
        assert!(
            result["question"]
                .as_str()
                .unwrap()
                .starts_with(probe_bot::FAITHFUL),
            "the LLM's faithful wording is asked: {result:#}"
        );
        assert_eq!(result["verdict"], "correct", "{result:#}");
    }
    assert!(support::stderr(&output).contains(&format!("{twisted} discarded")));
}

#[test]
fn a_killed_run_resumes_from_the_cache() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let (questions, _) = planned(project.path(), 12, &ProbeKind::ALL);
    let script = Arc::new(Script::new(&questions, |_| Behaviour::Right));
    let (translator, bot) = scripted_servers(&script);
    bot.set_latency(Duration::from_millis(150));
    write_llm_toml(config.path(), &translator.url, &bot.url);
    let args = ["--questions", "12", "--templated", "--json"];
    let mut child = probe_command(config.path(), project.path(), &args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while bot.requests().len() < 6 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    let _ = child.wait();
    let first = bot.requests().len();
    assert!(
        first >= 6 && first < questions.len(),
        "killed midway: {first}"
    );
    let json = run_json(config.path(), project.path(), &args);
    assert_eq!(json["results"].as_array().unwrap().len(), questions.len());
    let second = bot.requests().len() - first;
    // Only what was not answered yet is asked again (at most the requests
    // in flight when it was killed are repeated).
    assert!(
        first + second <= questions.len() + 4,
        "first {first}, second {second}, {} questions",
        questions.len()
    );
    assert!(second < questions.len());
    // Questions ran concurrently, under the profile's limit of 4.
    assert!(
        (2..=4).contains(&bot.max_concurrent()),
        "{}",
        bot.max_concurrent()
    );
    assert!(translator.max_concurrent() <= 4);
}

#[test]
fn the_system_prompt_and_document_reach_the_chatbot_and_the_request_cap_holds() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let (questions, loaded) = planned(project.path(), 10, &ProbeKind::ALL);
    let script = Arc::new(Script::new(&questions, |_| Behaviour::Right));
    let (translator, bot) = scripted_servers(&script);
    write_llm_toml(config.path(), &translator.url, &bot.url);
    let prompt = config.path().join("bot-prompt.txt");
    std::fs::write(&prompt, "You are Parky, the park's helpful assistant.").unwrap();
    let output = run(
        config.path(),
        project.path(),
        &[
            "--questions",
            "10",
            "--templated",
            "--json",
            "--max-requests",
            "6",
            "--system-prompt",
            prompt.to_str().unwrap(),
            "--with-document",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        support::stderr(&output)
    );
    assert!(support::stderr(&output).contains("--max-requests"));
    let json = json_of(&output);
    let answered = json["results"].as_array().unwrap().len();
    assert!(answered >= 1 && answered < questions.len(), "{answered}");
    // At most the cap, plus what was already in flight when it was reached.
    let sent = bot.requests().len() + translator.requests().len();
    assert!(sent <= 6 + 2 * 4, "{sent}");
    let system = bot.requests()[0].body["messages"][0].clone();
    assert_eq!(system["role"], "system");
    let system = system["content"].as_str().unwrap();
    assert!(system.starts_with("You are Parky"), "{system}");
    let document = loaded.document.unwrap();
    assert!(
        system.contains(document.trim()),
        "the policy document is in the prompt"
    );
    // The translator never sees the chatbot's system prompt.
    for request in translator.requests() {
        assert!(!request.prompt_text().contains("You are Parky"));
    }
    // A missing prompt file is named.
    let missing = run(
        config.path(),
        project.path(),
        &["--system-prompt", "/nonexistent/prompt.txt"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(support::stderr(&missing).contains("/nonexistent/prompt.txt"));
    let bad_kind = run(config.path(), project.path(), &["--kinds", "chain,riddles"]);
    assert_eq!(bad_kind.status.code(), Some(2));
    assert!(support::stderr(&bad_kind).contains("unknown kind 'riddles'"));
}

#[test]
fn an_unreachable_target_is_a_clear_error() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let translator = Server::start();
    let refusing = support::RefusingAddress::new();
    write_llm_toml(config.path(), &translator.url, &refusing.url());
    let output = run(
        config.path(),
        project.path(),
        &["--questions", "3", "--templated"],
    );
    assert_eq!(output.status.code(), Some(2));
    let error = support::stderr(&output);
    assert!(
        error.contains("profile 'bot'") && error.contains("resume"),
        "{error}"
    );
}

#[test]
fn hostile_answers_are_classified_and_a_garbage_translator_never_stops_the_run() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let (questions, _) = planned(project.path(), 4, &[ProbeKind::SingleRule]);
    let huge = "la ".repeat(40_000);
    let answers = [
        String::new(),
        huge,
        "Das hängt davon ab.".into(),
        "}{\u{0}garbage".into(),
    ];
    let by_text: HashMap<String, String> = questions
        .iter()
        .zip(answers.iter().cycle())
        .map(|(q, a)| (q.text.clone(), a.clone()))
        .collect();
    let (translator, bot) = (Server::start(), Server::start());
    translator.respond_with(|_| llm_server::openai_reply("this is not JSON at all"));
    bot.respond_with(move |r| {
        let text = r.user_prompt();
        llm_server::openai_reply(by_text.get(&text).map(String::as_str).unwrap_or(""))
    });
    write_llm_toml(config.path(), &translator.url, &bot.url);
    let output = run(
        config.path(),
        project.path(),
        &["--questions", "4", "--kinds", "single-rule", "--json"],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        support::stderr(&output)
    );
    let json = json_of(&output);
    let results = json["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        questions.len(),
        "templated fallback, nothing dropped"
    );
    assert!(
        support::stderr(&output).contains("the translator could not word Q1"),
        "{}",
        support::stderr(&output)
    );
    for (result, question) in results.iter().zip(&questions) {
        assert_eq!(
            result["question"],
            question.text.as_str(),
            "fell back to the template"
        );
        assert_eq!(result["verdict"], "untranslatable", "{result:#}");
    }
    assert_eq!(json["asked"], questions.len());
}

#[test]
fn the_core_run_reports_progress_and_stops_when_cancelled() {
    use precept::answer::{AnswerVerifier, VerifyOptions, samples_of};
    use precept::llm::Cancel;
    use precept::probe::chatbot::Chatbot;
    use precept::probe::run::{ProbeEvent, ProbeOptions, ProbeSetup, probe};
    use std::sync::Mutex;

    let project = Project::load(&support::sample("park-admission")).unwrap();
    let compiled = project.compile_strict().unwrap();
    let worker = support::worker(&compiled, Duration::from_secs(10));
    let (questions, _) = planned(
        &support::sample("park-admission"),
        5,
        &[ProbeKind::SingleRule],
    );
    let script = Arc::new(Script::new(&questions, |_| Behaviour::Right));
    let (translator, bot) = scripted_servers(&script);
    let chatbot = Chatbot::new(
        Arc::new(llm_server::scripted_client(&bot, None)),
        None,
        None,
    );
    let verifier = AnswerVerifier::new(
        &project.model,
        &compiled,
        samples_of(Arc::new(llm_server::scripted_client(&translator, None)), 1),
        VerifyOptions::default(),
    );
    let cancel = Cancel::new();
    let setup = ProbeSetup {
        model: &project.model,
        compiled: &compiled,
        document: None,
        worker: &worker,
        chatbot: &chatbot,
        verifier: &verifier,
        translator: None,
        translator_name: "scripted".into(),
        cancel: Some(&cancel),
    };
    let options = ProbeOptions {
        questions: 5,
        kinds: vec![ProbeKind::SingleRule],
        templated: true,
        concurrency: 1,
        ..ProbeOptions::default()
    };
    // Cancel after the second answer: the run stops there.
    let events = Mutex::new(Vec::new());
    let report = probe(&setup, &options, &|event| {
        if let ProbeEvent::Answered { done: 2, .. } = event {
            cancel.cancel();
        }
        events.lock().unwrap().push(event);
    });
    let events = events.into_inner().unwrap();
    assert!(matches!(events[0], ProbeEvent::Planned { questions: 5 }));
    let answered: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            ProbeEvent::Answered { result, .. } => Some(result.id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(answered, ["Q1", "Q2"]);
    assert_eq!(report.results.len(), 2);
    assert_eq!(report.stopped.as_deref(), Some("the probe was cancelled"));
    assert!(matches!(events.last(), Some(ProbeEvent::Stopped { .. })));
    assert_eq!(report.requests[0].role, "target");
    assert_eq!(report.requests[0].sent, 2);
    assert_eq!(bot.requests().len(), 2);
}

#[test]
fn the_translator_words_questions_and_paraphrases_but_not_the_other_variants() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let kinds = [ProbeKind::SingleRule, ProbeKind::Variant];
    let (questions, _) = planned(project.path(), 2, &kinds);
    let script = Arc::new(Script::new(&questions, |_| Behaviour::Right));
    let (translator, bot) = scripted_servers(&script);
    write_llm_toml(config.path(), &translator.url, &bot.url);
    let json = run_json(
        config.path(),
        project.path(),
        &[
            "--questions",
            "2",
            "--kinds",
            "single-rule,variant",
            "--json",
        ],
    );
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), questions.len());
    for result in results {
        let id = result["id"].as_str().unwrap();
        let asked = result["question"].as_str().unwrap();
        let worded = !id.contains('.') || id.ends_with(".paraphrase");
        assert_eq!(asked.starts_with(probe_bot::FAITHFUL), worded, "{result:#}");
        assert_eq!(result["verdict"], "correct", "{result:#}");
    }
    let paraphrase_requests = translator
        .requests()
        .iter()
        .filter(|r| r.user_prompt().contains("Word it differently"))
        .count();
    assert_eq!(
        paraphrase_requests, 1,
        "one paraphrase, worded in other words"
    );
}

/// The chatbot under test may not be the translator: its answers would be
/// checked by the model that wrote them. The run is refused before any
/// question is asked, and nothing reaches either server.
#[test]
fn the_translators_own_profile_is_refused_as_the_target() {
    let project = support::copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let translator = Server::start();
    let bot = Server::start();
    write_llm_toml(config.path(), &translator.url, &bot.url);
    let output = run(
        config.path(),
        project.path(),
        &["--profile", "bot", "--questions", "3", "--templated"],
    );
    assert_eq!(output.status.code(), Some(2));
    let error = support::stderr(&output);
    assert!(
        error.contains("--target bot: the chatbot under test must not be the translator's profile"),
        "{error}"
    );
    assert!(translator.requests().is_empty());
    assert!(bot.requests().is_empty());
}
