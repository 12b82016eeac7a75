//! Every error of the engine crate under one roof: importing DMN and
//! policy definitions, writing bundles, the definition pass, formalizing a
//! document, versions and the report's figures, and the LLM jobs. Each keeps its own message.

use crate::define::request::DefinitionReplyError;
use crate::formalization::FormalizationError;
use crate::formats::arc_policy::ArcImportError;
use crate::formats::bundle::BundleError;
use crate::formats::dmn::DmnError;
use crate::formats::dmn::cells::DmnCellError;
use crate::formats::dmn::hit_policy::HitPolicyError;
use crate::formats::dmn::terms::DmnTermError;
use crate::jobs::answers::AnswerJobError;
use crate::jobs::formalize::FormalizeJobError;
use crate::jobs::probe::ProbeStartError;
use crate::jobs::repair::RepairJobError;
use crate::lifecycle::LifecycleError;
use crate::lifecycle::report::figures::NoDiff;
use crate::lifecycle::report::figures_cache::FigureStoreError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Dmn(#[from] DmnError),
    #[error(transparent)]
    DmnTerm(#[from] DmnTermError),
    #[error(transparent)]
    DmnCell(#[from] DmnCellError),
    #[error(transparent)]
    HitPolicy(#[from] HitPolicyError),
    #[error(transparent)]
    ArcImport(#[from] ArcImportError),
    #[error(transparent)]
    Bundle(#[from] BundleError),
    #[error(transparent)]
    DefinitionReply(#[from] DefinitionReplyError),
    #[error(transparent)]
    Formalization(#[from] FormalizationError),
    #[error(transparent)]
    Lifecycle(#[from] LifecycleError),
    #[error(transparent)]
    FigureStore(#[from] FigureStoreError),
    #[error(transparent)]
    NoDiff(#[from] NoDiff),
    #[error(transparent)]
    FormalizeJob(#[from] FormalizeJobError),
    #[error(transparent)]
    RepairJob(#[from] RepairJobError),
    #[error(transparent)]
    AnswerJob(#[from] AnswerJobError),
    #[error(transparent)]
    ProbeStart(#[from] ProbeStartError),
}

pub type Result<T> = std::result::Result<T, Error>;
