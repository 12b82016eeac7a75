mod support;
use precept::core::probe::run::{ProbeOptions};
use precept::core::probe::question::{SourceSettings, source_questions};
use precept::core::probe::variants::variants_of;
use precept::core::probe::wording::WordingContext;
use precept::core::model::Project;
use std::time::Duration;

#[test]
fn explore() {
    let project = Project::load(&support::sample("park-admission")).unwrap();
    let compiled = project.compile_strict().unwrap();
    let worker = support::worker(&compiled, Duration::from_secs(10));
    let options = ProbeOptions::default();
    let qs = source_questions(&worker, &SourceSettings{model:&project.model, compiled:&compiled, document: project.document.as_deref(), max: 300, seed: 0, kinds: &options.kinds});
    let words = WordingContext::new(&project.model, &compiled);
    for q in &qs {
        println!("{} {:?} {} | {} | {} | {:?}\n   {}", q.id, q.kind, q.expected, q.facts, q.claim, q.rules, q.text);
    }
    for v in variants_of(&worker, &words, &qs[0]) {
        println!("{} {} | {} | {}\n   {}", v.id, v.expected, v.facts, v.claim, v.text);
    }
}
