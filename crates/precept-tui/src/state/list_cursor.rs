//! The selection and scroll offset of a list, shared by every pane.

/// A list selection with its scroll offset (kept by `update`, which knows
/// the viewport heights, so `render` needs no state of its own).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListCursor {
    pub selected: usize,
    pub offset: usize,
}

impl ListCursor {
    /// Moves by `delta` within `len` items and keeps the selection in a
    /// viewport of `height` rows.
    pub fn step(&mut self, delta: isize, len: usize, height: usize) {
        if len == 0 {
            *self = ListCursor::default();
            return;
        }
        let target = self.selected as isize + delta;
        self.selected = target.clamp(0, len as isize - 1) as usize;
        self.scroll_into_view(len, height);
    }

    pub fn select(&mut self, index: usize, len: usize, height: usize) {
        self.selected = index;
        self.step(0, len, height);
    }

    pub fn scroll_into_view(&mut self, len: usize, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }
}

/// The cursors of the lists of the Rules, Variables and Tests screens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursors {
    /// The document's spans.
    pub span: ListCursor,
    pub rule: ListCursor,
    pub variable: ListCursor,
    pub test: ListCursor,
    /// The selected test's evidence.
    pub evidence: ListCursor,
}
