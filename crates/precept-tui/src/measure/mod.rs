//! Where things are on screen (`layout`) and how wide text is (`text`; the
//! diff overlay's wrapped rows in `diff_rows`):
//! update needs both for page sizes and scrolling, view for drawing, so
//! they live here, below both.

pub mod diff_rows;
pub mod layout;
pub mod text;
