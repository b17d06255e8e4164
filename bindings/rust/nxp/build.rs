// SPDX-License-Identifier: MIT
//! An rpath to the libnxp that nxp-sys linked, for this crate's tests and examples.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_NXP_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_NXP_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
