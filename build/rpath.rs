//! Embeds a run-time search path to the pinned libz3 that `scripts/setup.sh`
//! installs (`.deps/z3/z3/lib` at the workspace root), so the binary, the
//! tests and the benches of every crate find it without `LD_LIBRARY_PATH`.
//! Each crate whose targets link Z3 names this file as its build script.
fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let manifest_dir = std::path::Path::new(&manifest_dir);
    // The workspace root is the nearest folder up with the lock file.
    let root = manifest_dir
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(manifest_dir);
    let lib_dir = root.join(".deps/z3/z3/lib");
    // Cargo keys a build script's output by the package's path relative to
    // the workspace, so a second checkout sharing the target folder (as
    // `.ci/run`'s clone does) would reuse this one's path. Watching the
    // absolute library folder reruns the script once that folder is gone
    // or changed, and so after a move to another checkout.
    println!("cargo:rerun-if-changed={}", lib_dir.display());
    println!(
        "cargo:rerun-if-changed={}",
        root.join("build/rpath.rs").display()
    );
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
}
