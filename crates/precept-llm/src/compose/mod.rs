//! From many units to one model (ARC §3.1.1): embed the variables
//! (`embed*`), cluster them with the contrast guard (`cluster`, `contrast`),
//! unify names and rules with provenance (`unify`), and keep the record of
//! the run (`record`). Also what the expert does with the result: cluster
//! corrections (`cluster_edit`) and consolidation of variables that mean the
//! same, the opposite, or one of several cases (`consolidate*`). The
//! vocabulary pass (`vocabulary_pass`) uses the same clustering, and
//! `document_run` is the one orchestrator: document → spans → vocabulary →
//! units → model and record.

pub mod cluster;
pub mod cluster_edit;
pub mod consolidate;
pub mod consolidate_check;
pub mod contrast;
pub mod correction;
pub mod document_run;
pub mod embed;
#[cfg(feature = "minilm")]
pub mod embed_minilm;
pub mod record;
pub mod unify;
pub mod vocabulary_pass;
