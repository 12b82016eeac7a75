//! The document-wide vocabulary pass. Before any span is formalized, each
//! section of the document (bounded in size) is read once and the LLM
//! proposes the shared vocabulary: enum types for mutually exclusive cases
//! and variables with descriptions and the spans that mention them. The
//! sections' proposals are merged by the same clustering and type rules as
//! composition. Each span is then formalized against the part of the shared
//! vocabulary relevant to it, and may add a variable only with a reason.
//!
//! ARC (§3.1) keeps the declarations in the LLM's context within a span;
//! this extends that across the document, so that one fact gets one name.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::task::JoinSet;

use super::unify::compose_sections;
use crate::formalize::span_job::SpanOutcome;
use crate::formalize::span_task::SpanTask;
use crate::formalize::unit::{PolicyUnit, UnitType, UnitVariable, check_unit, type_schema};
use crate::formalize::vocabulary::{SharedVariable, SharedVocabulary, section_title};
use crate::llm::embeddings::Embedder;
use crate::llm::prompts::{FRAGMENT_GRAMMAR, VOCABULARY_SECTION, render};
use crate::llm::{LlmClient, LlmError, LlmRequest};

/// The most characters of span text one vocabulary request carries; a
/// longer section is read in several parts.
pub const SECTION_BUDGET: usize = 6_000;

/// One vocabulary request: part of a section and the spans in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionPart {
    pub title: String,
    /// Indices into the tasks.
    pub spans: Vec<usize>,
}

/// Groups the spans by top-level section, cutting a section into parts of
/// at most `budget` characters of span text.
pub fn plan_sections(tasks: &[SpanTask], budget: usize) -> Vec<SectionPart> {
    let mut parts: Vec<SectionPart> = Vec::new();
    let mut size = 0;
    for (index, task) in tasks.iter().enumerate() {
        let title = section_title(task);
        let fits = parts
            .last()
            .is_some_and(|p| p.title == title && size + task.text.len() <= budget.max(1));
        if !fits {
            parts.push(SectionPart {
                title,
                spans: Vec::new(),
            });
            size = 0;
        }
        size += task.text.len();
        if let Some(last) = parts.last_mut() {
            last.spans.push(index);
        }
    }
    parts
}

fn reply_schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": "object",
        "properties": {
            "types": {"type": "array", "items": type_schema()},
            "variables": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "name": text, "type": text, "description": text,
                    "reading": crate::formalize::unit::reading_schema(),
                    "spans": {"type": "array", "items": text}
                },
                "required": ["name", "type", "description", "reading", "spans"],
                "additionalProperties": false
            }}
        },
        "required": ["types", "variables"],
        "additionalProperties": false
    })
}

/// The request for one part of a section; `proposed` lists the vocabulary
/// earlier sections proposed (`proposed_so_far`), or is empty.
pub fn section_request(
    client: &LlmClient,
    title: Option<&str>,
    part: &SectionPart,
    tasks: &[SpanTask],
    proposed: &str,
) -> LlmRequest {
    let mut spans = String::new();
    for &i in &part.spans {
        let task = &tasks[i];
        let mut text = task.text.clone();
        if let Some(lead_in) = &task.context.lead_in {
            text = format!("({lead_in}) {text}");
        }
        spans.push_str(&format!("{}: {}\n", task.id, text.replace('\n', " ")));
    }
    let values = [
        ("grammar", FRAGMENT_GRAMMAR),
        ("title", title.unwrap_or("(untitled)")),
        ("section", part.title.as_str()),
        ("spans", spans.as_str()),
        ("proposed", proposed),
    ];
    LlmRequest {
        system: render(VOCABULARY_SECTION.system(), &values),
        prompt: render(VOCABULARY_SECTION.user(), &values),
        schema_name: "shared_vocabulary".into(),
        schema: reply_schema(),
        temperature: client.profile().temperature,
        max_tokens: 4096,
    }
}

#[derive(Deserialize)]
struct SectionReply {
    #[serde(default)]
    types: Vec<UnitType>,
    #[serde(default)]
    variables: Vec<SharedVariable>,
}

/// The vocabulary earlier sections proposed, as the prompt lists it (empty
/// when they proposed nothing).
pub fn proposed_so_far(types: &[UnitType], variables: &[SharedVariable]) -> String {
    if types.is_empty() && variables.is_empty() {
        return String::new();
    }
    let mut text = String::from("Vocabulary already proposed by earlier sections:\n");
    for t in types {
        let values: Vec<&str> = t.values.iter().map(|v| v.value.as_str()).collect();
        text.push_str(&format!("- type {} = {}\n", t.name, values.join(" | ")));
    }
    for v in variables {
        text.push_str(&format!("- {} ({}): {}\n", v.name, v.sort, v.description));
    }
    text.push('\n');
    text
}

/// Asks for the first part of the document alone, then for every other part
/// at once (the client's concurrency limit applies), each seeing what the
/// first proposed, so that the decision the document is about keeps the
/// name it got first; then merges the proposals (one name proposed by
/// several sections with one type is one variable, `merge`). A part that
/// cannot be read contributes nothing; a missing configuration or a cancel
/// stops the pass.
pub async fn propose_vocabulary(
    client: Arc<LlmClient>,
    tasks: &[SpanTask],
    document: &str,
    embedder: &dyn Embedder,
    threshold: f32,
) -> Result<SharedVocabulary, LlmError> {
    let title = tasks.first().and_then(|t| t.context.title.clone());
    let parts = plan_sections(tasks, SECTION_BUDGET);
    let mut replies: Vec<Option<SectionReply>> = (0..parts.len()).map(|_| None).collect();
    let mut problems = Vec::new();
    let asking = Asking {
        client: &client,
        title: title.as_deref(),
        parts: &parts,
        tasks,
    };
    let first: Vec<usize> = (0..parts.len().min(1)).collect();
    asking.ask(&first, "", &mut replies, &mut problems).await?;
    let proposed = replies
        .first()
        .and_then(Option::as_ref)
        .map(|r| proposed_so_far(&r.types, &r.variables))
        .unwrap_or_default();
    let rest: Vec<usize> = (first.len()..parts.len()).collect();
    asking
        .ask(&rest, &proposed, &mut replies, &mut problems)
        .await?;
    let mut shared = merge(
        &parts,
        replies,
        tasks,
        document,
        embedder,
        threshold,
        &mut problems,
    );
    shared.problems = problems;
    Ok(shared)
}

/// What every section request of one document shares.
struct Asking<'a> {
    client: &'a Arc<LlmClient>,
    title: Option<&'a str>,
    parts: &'a [SectionPart],
    tasks: &'a [SpanTask],
}

impl Asking<'_> {
    /// Asks for the parts `which` at once, each with `proposed` in its
    /// prompt, filling their `replies`; a part that fails is a problem.
    async fn ask(
        &self,
        which: &[usize],
        proposed: &str,
        replies: &mut [Option<SectionReply>],
        problems: &mut Vec<String>,
    ) -> Result<(), LlmError> {
        let (client, parts) = (self.client, self.parts);
        let mut jobs = JoinSet::new();
        for &index in which {
            let request = section_request(client, self.title, &parts[index], self.tasks, proposed);
            let client = client.clone();
            jobs.spawn(async move { (index, client.complete(&request).await) });
        }
        while let Some(joined) = jobs.join_next().await {
            let (index, reply) =
                joined.map_err(|e| LlmError::Internal(format!("a vocabulary job stopped: {e}")))?;
            match reply {
                Ok(reply) => match serde_json::from_value::<SectionReply>(reply.json) {
                    Ok(section) => replies[index] = Some(section),
                    Err(e) => problems.push(format!("section '{}': {e}", parts[index].title)),
                },
                Err(error @ (LlmError::NotConfigured { .. } | LlmError::Cancelled)) => {
                    jobs.abort_all();
                    return Err(error);
                }
                Err(error) => problems.push(format!("section '{}': {error}", parts[index].title)),
            }
        }
        Ok(())
    }
}

/// Merges the sections' proposals with composition's rules: a unit per
/// section (types and variables, no rules), composed and clustered.
fn merge(
    parts: &[SectionPart],
    replies: Vec<Option<SectionReply>>,
    tasks: &[SpanTask],
    document: &str,
    embedder: &dyn Embedder,
    threshold: f32,
    problems: &mut Vec<String>,
) -> SharedVocabulary {
    let known: BTreeSet<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
    let mut units = Vec::new();
    let mut section_tasks = Vec::new();
    let mut mentions: HashMap<(usize, String), Vec<String>> = HashMap::new();
    for (index, (part, reply)) in parts.iter().zip(replies).enumerate() {
        let Some(reply) = reply else { continue };
        let unit = PolicyUnit {
            types: reply.types,
            variables: reply
                .variables
                .iter()
                .map(|v| UnitVariable {
                    reading: Default::default(),
                    name: v.name.clone(),
                    sort: v.sort.clone(),
                    description: v.description.clone(),
                    reason: String::new(),
                })
                .collect(),
            rules: Vec::new(),
        };
        let unit_problems = check_unit(&unit);
        if !unit_problems.is_empty() {
            for p in &unit_problems {
                problems.push(format!("section '{}': {p}", part.title));
            }
            continue;
        }
        for v in &reply.variables {
            let spans: Vec<String> = v
                .spans
                .iter()
                .filter(|s| known.contains(s.as_str()))
                .cloned()
                .collect();
            mentions.insert((index, v.name.clone()), spans);
        }
        section_tasks.push(SpanTask {
            id: format!("V{}", index + 1),
            start: 0,
            end: 0,
            heading_path: vec![part.title.clone()],
            text: String::new(),
            context: Default::default(),
        });
        units.push((index, SpanOutcome::Formalized { unit, rounds: 1 }));
    }
    if units.is_empty() {
        return SharedVocabulary::default();
    }
    let outcomes: Vec<SpanOutcome> = units.iter().map(|(_, o)| o.clone()).collect();
    let composition =
        match compose_sections(document, &section_tasks, &outcomes, embedder, threshold) {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("merging the sections' vocabularies: {e}"));
                return SharedVocabulary::default();
            }
        };
    let section_of: HashMap<String, usize> = section_tasks
        .iter()
        .zip(&units)
        .map(|(t, (index, _))| (t.id.clone(), *index))
        .collect();
    let mut shared = SharedVocabulary {
        types: composition
            .model
            .types
            .iter()
            .map(|t| UnitType {
                name: t.name.clone(),
                description: t.description.clone(),
                values: t
                    .values
                    .iter()
                    .map(|v| crate::formalize::unit::UnitValue {
                        reading: Default::default(),
                        value: v.value.clone(),
                        description: v.description.clone(),
                    })
                    .collect(),
            })
            .collect(),
        ..SharedVocabulary::default()
    };
    for cluster in &composition.clusters {
        let mut spans: Vec<String> = Vec::new();
        let mut first_section = None;
        for member in &cluster.members {
            let Some(&index) = section_of.get(&member.span) else {
                continue;
            };
            first_section.get_or_insert(index);
            for s in mentions
                .get(&(index, member.name.clone()))
                .into_iter()
                .flatten()
            {
                if !spans.contains(s) {
                    spans.push(s.clone());
                }
            }
        }
        if let Some(index) = first_section {
            shared
                .sections
                .insert(cluster.name.clone(), parts[index].title.clone());
        }
        shared.variables.push(SharedVariable {
            reading: Default::default(),
            name: cluster.name.clone(),
            sort: cluster.sort.clone(),
            description: cluster.description.clone(),
            spans,
        });
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formalize::span_task::plan_spans;

    #[test]
    fn sections_group_spans_and_are_cut_to_the_budget() {
        let doc = "# A\n\nOne.\n\nTwo.\n\n# B\n\nThree is longer.\n";
        let tasks = plan_spans(doc, 3000);
        let parts = plan_sections(&tasks, 6000);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].spans, [0, 1]);
        let parts = plan_sections(&tasks, 5);
        assert_eq!(parts.len(), 3, "{parts:?}");
    }

    fn reply(variables: &[(&str, &str)]) -> Option<SectionReply> {
        Some(SectionReply {
            types: Vec::new(),
            variables: variables
                .iter()
                .map(|(name, description)| SharedVariable {
                    reading: Default::default(),
                    name: name.to_string(),
                    sort: "Bool".into(),
                    description: description.to_string(),
                    spans: Vec::new(),
                })
                .collect(),
        })
    }

    #[test]
    fn one_name_from_several_sections_is_one_variable_unless_they_contrast() {
        let doc = "# A\n\nOne.\n\n# B\n\nTwo.\n\n# C\n\nThree.\n";
        let tasks = plan_spans(doc, 3000);
        let parts = plan_sections(&tasks, 6000);
        assert_eq!(parts.len(), 3);
        let replies = vec![
            reply(&[(
                "canTakeTimeOff",
                "the employee can take time off to deal with an emergency",
            )]),
            reply(&[(
                "canTakeTimeOff",
                "the employee is allowed unpaid leave for a dependant",
            )]),
            reply(&[
                ("canTakeTimeOff", "an employee may take time off"),
                ("paidBefore", "the fee was paid before the deadline"),
            ]),
        ];
        let embedder = crate::compose::embed::LexicalEmbedder::new();
        let mut problems = Vec::new();
        let shared = merge(&parts, replies, &tasks, doc, &embedder, 0.65, &mut problems);
        let names: Vec<&str> = shared.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["canTakeTimeOff", "paidBefore"], "{shared:#?}");

        // Two sections whose descriptions contrast keep two variables.
        let replies = vec![
            reply(&[("paid", "the fee was paid before the deadline")]),
            reply(&[("paid", "the fee was paid after the deadline")]),
            None,
        ];
        let shared = merge(&parts, replies, &tasks, doc, &embedder, 0.65, &mut problems);
        assert_eq!(shared.variables.len(), 2, "{shared:#?}");
    }
}
