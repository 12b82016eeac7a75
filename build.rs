//! Embeds a run-time search path to the pinned libz3 that `scripts/setup.sh`
//! installs, so the binary, the tests and the benches find it without
//! `LD_LIBRARY_PATH`.
fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let lib_dir = std::path::Path::new(&manifest_dir).join(".deps/z3/z3/lib");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
}
