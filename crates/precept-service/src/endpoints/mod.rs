//! The service's endpoints, one file each (the status endpoints together),
//! and how an answered request is counted and logged (`record`).

pub mod check_answer;
pub mod explain;
pub mod record;
pub mod status;
pub mod verify;
