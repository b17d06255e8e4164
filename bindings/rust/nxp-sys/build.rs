// SPDX-License-Identifier: MIT
//! Link the meson-built libnxp.
//!
//! 1. NXP_LIB_DIR: the directory holding libnxp.so (e.g. build/libnxp).
//! 2. else `pkg-config --libs libnxp` (an installed libnxp).
//! 3. else the system linker's default search path.
//!
//! The directory is also passed to dependents (DEP_NXP_LIB_DIR) so their tests
//! and examples get an rpath and run without LD_LIBRARY_PATH.
use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=NXP_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let mut dirs: Vec<String> = Vec::new();
    if let Ok(dir) = env::var("NXP_LIB_DIR") {
        if !Path::new(&dir).is_dir() {
            panic!("NXP_LIB_DIR={} is not a directory", dir);
        }
        dirs.push(dir);
    } else if let Ok(out) = Command::new("pkg-config").args(["--libs", "libnxp"]).output() {
        if out.status.success() {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            for tok in text.split_whitespace() {
                if let Some(d) = tok.strip_prefix("-L") {
                    dirs.push(d.to_string());
                }
            }
        }
    }
    for d in &dirs {
        println!("cargo:rustc-link-search=native={}", d);
        println!("cargo:rerun-if-changed={}", Path::new(d).join("libnxp.so").display());
    }
    println!("cargo:rustc-link-lib=dylib=nxp");
    if let Some(d) = dirs.first() {
        // Read by the `nxp` crate's build script as DEP_NXP_LIB_DIR.
        println!("cargo:lib_dir={}", d);
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", d);
    }
}
