//! Themes that paint their own background, and titles that fit at 90×30.

use super::*;

// ------------------------------------------------------------------ themes

/// Every cell of `buffer` is painted by the theme: its background is one the
/// theme names (mostly the base background), never the terminal's own, and
/// no text is left in the terminal's colour.
fn assert_painted_by(theme: &Theme, buffer: &Buffer, what: &str) {
    let backgrounds = theme.backgrounds();
    let mut base = 0;
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let cell = &buffer[(x, y)];
            assert!(
                backgrounds.contains(&cell.bg),
                "{what}: the cell at {x},{y} ('{}') has background {:?}, not one of the {} theme's",
                cell.symbol(),
                cell.bg,
                theme.name
            );
            assert_ne!(cell.fg, ratatui::style::Color::Reset, "{what}: {x},{y}");
            base += usize::from(cell.bg == theme.background());
        }
    }
    let cells = buffer.area.area() as usize;
    assert!(
        base * 10 >= cells * 8,
        "{what}: only {base} of {cells} cells have the base background"
    );
}

#[test]
fn every_theme_paints_its_own_background_on_every_screen_and_overlay() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        for theme in ["light", "dark"] {
            bench.app.theme = Theme::built_in(theme).unwrap();
            assert_ne!(bench.app.theme.background(), ratatui::style::Color::Reset);
            for screen in Screen::ALL {
                bench.app.screen = screen;
                let what = format!("{theme} {:?} at {size:?}", screen);
                assert_painted_by(&bench.app.theme, &bench.buffer(), &what);
            }
            bench.press('1');
            for (open, close) in [
                ('?', KeyCode::Esc),
                (':', KeyCode::Esc),
                ('e', KeyCode::Esc),
            ] {
                bench.press(open);
                let what = format!("{theme} overlay {open} at {size:?}");
                assert_painted_by(&bench.app.theme, &bench.buffer(), &what);
                bench.key(close, KeyModifiers::NONE);
                assert!(bench.app.overlay.is_none(), "{what}");
            }
        }
    }
}

// ------------------------------------------------------------ 90×30

/// The top-border titles of a screen: the text between "┌ " and the first
/// "─" or "┐" after it.
fn titles(screen: &str) -> Vec<String> {
    let mut titles = Vec::new();
    for row in screen.lines() {
        let mut rest = row;
        while let Some(at) = rest.find("┌ ") {
            let after = &rest[at + "┌ ".len()..];
            let end = after.find(['─', '┐']).unwrap_or(after.len());
            titles.push(after[..end].trim_end().to_string());
            rest = &after[end..];
        }
    }
    titles
}

/// At 90×30 every pane title fits: shortened by dropping its last parts with
/// "…", never cut into a stub like "L: ┐".
#[test]
fn every_screen_fits_its_pane_titles_at_90x30() {
    let size = (90, 30);
    let mut bench = Bench::open(size);
    let mut screens = Vec::new();
    bench.press('1');
    screens.push(("rules", bench.screen_text()));
    bench.press('2');
    screens.push(("variables", bench.screen_text()));
    bench.press('3');
    screens.push(("tests", bench.screen_text()));
    bench.press('4');
    screens.push(("verify", bench.screen_text()));
    bench.key(KeyCode::Esc, KeyModifiers::NONE);
    bench.press('5');
    bench.press('L');
    bench.press('C');
    screens.push(("vetting", bench.screen_text()));
    bench.press('6');
    screens.push(("formalize", bench.screen_text()));
    for (screen, text) in &screens {
        for title in titles(text) {
            let words: Vec<&str> = title.split(' ').collect();
            let last = words.last().copied().unwrap_or_default();
            let lone_letter = last.chars().count() == 1 && last.chars().all(char::is_alphabetic);
            let stub = last.ends_with([':', '·', ',']) || lone_letter;
            assert!(
                title.ends_with('…') || !stub,
                "{screen}: the title '{title}' is cut into a stub\n{text}"
            );
        }
        assert!(!text.contains(": ┐"), "{screen}\n{text}");
        insta::assert_snapshot!(name(screen, size), text);
    }
    let vetting = &screens[4].1;
    assert!(
        titles(vetting)
            .iter()
            .any(|t| t.starts_with("Diagnostic · ") && t.ends_with('…')),
        "{vetting}"
    );
}
