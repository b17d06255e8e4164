// SPDX-License-Identifier: MIT
//! An rpath to the libnxp that nxp-sys found, for this crate's tests and
//! examples, and the same directory for dependents: a `links` key makes it
//! `DEP_NXP_RS_LIB_DIR` in the build script of a crate depending on `nxp`.
//! (`cargo:rustc-link-arg` applies to this crate's own targets only; a
//! dependent gets its rpath with a two-line build.rs, see src/lib.rs.)
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_NXP_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_NXP_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        println!("cargo:lib_dir={}", dir);
    }
}
