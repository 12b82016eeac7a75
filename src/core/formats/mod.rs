//! Models made elsewhere, read into Precept's own model and tests.

pub mod dmn;
