//! The README's key table is generated from the same keymap table the help
//! overlay shows. Run with UPDATE_README=1 to rewrite it after a keymap change.

use precept::tui::input::keymap::Keymap;

const BEGIN: &str = "<!-- keys:begin -->\n";
const END: &str = "<!-- keys:end -->";

#[test]
fn readme_key_table_is_the_keymap() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme.find(BEGIN).expect("README has a keys:begin marker") + BEGIN.len();
    let end = readme.find(END).expect("README has a keys:end marker");
    let table = Keymap::default().markdown_table();
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{}{}", &readme[..start], table, &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        table,
        "the README's key table is stale: run UPDATE_README=1 cargo test --test readme"
    );
}
