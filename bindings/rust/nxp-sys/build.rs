// SPDX-License-Identifier: MIT
//! Find and link libnxp, in this order:
//!
//! 1. `NXP_LIB_DIR`: the directory holding libnxp.so (e.g. `<checkout>/build/libnxp`).
//! 2. `pkg-config libnxp` (an installed libnxp; the program named by `PKG_CONFIG`,
//!    else `pkg-config`; honours `PKG_CONFIG_PATH` and `PKG_CONFIG_SYSROOT_DIR`).
//! 3. When this crate sits in a libnxp checkout: the meson build tree
//!    `<checkout>/build*/libnxp` holding the newest libnxp.so.
//!
//! Otherwise the build fails saying what to set.  The directory found is given
//! to dependents as `DEP_NXP_LIB_DIR` (the `links = "nxp"` metadata): the `nxp`
//! crate turns it into an rpath for its own tests and examples and passes it on
//! as `DEP_NXP_RS_LIB_DIR` (see the `nxp` crate's documentation).
use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn has_lib(dir: &Path) -> bool {
    dir.join("libnxp.so").exists()
}

/// The library directory pkg-config reports, or why not.
fn from_pkg_config() -> Result<Option<PathBuf>, String> {
    let prog = env::var_os("PKG_CONFIG").unwrap_or_else(|| OsString::from("pkg-config"));
    let run = |args: &[&str]| -> Result<String, String> {
        let out = Command::new(&prog)
            .args(args)
            .output()
            .map_err(|e| format!("{} could not be run ({})", prog.to_string_lossy(), e))?;
        if !out.status.success() {
            return Err(format!("`{} {}` failed: {}", prog.to_string_lossy(), args.join(" "),
                               String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    if run(&["--exists", "libnxp"]).is_err() {
        let path = env::var("PKG_CONFIG_PATH").unwrap_or_default();
        return Err(format!("{} finds no libnxp.pc (PKG_CONFIG_PATH={:?})", prog.to_string_lossy(), path));
    }
    // -L is printed (with the sysroot applied) unless libdir is a system directory.
    for tok in run(&["--libs-only-L", "libnxp"])?.split_whitespace() {
        if let Some(d) = tok.strip_prefix("-L") {
            if has_lib(Path::new(d)) {
                return Ok(Some(PathBuf::from(d)));
            }
        }
    }
    let libdir = PathBuf::from(run(&["--variable=libdir", "libnxp"])?);
    if has_lib(&libdir) {
        return Ok(Some(libdir));
    }
    Ok(None) // in the linker's default path
}

/// `<checkout>/build*/libnxp` with the newest libnxp.so, when this crate is in a checkout.
fn from_checkout() -> Option<PathBuf> {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR")?);
    let root = manifest.join("../../..");
    let meson = fs::read_to_string(root.join("meson.build")).ok()?;
    if !meson.contains("project('libnxp'") {
        return None;
    }
    println!("cargo:rerun-if-changed={}", root.display());
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in fs::read_dir(&root).ok()?.flatten() {
        if !e.file_name().to_string_lossy().starts_with("build") {
            continue;
        }
        let dir = e.path().join("libnxp");
        if let Ok(t) = fs::metadata(dir.join("libnxp.so")).and_then(|m| m.modified()) {
            if best.as_ref().map_or(true, |(bt, _)| t > *bt) {
                best = Some((t, dir));
            }
        }
    }
    best.map(|(_, d)| fs::canonicalize(&d).unwrap_or(d))
}

fn main() {
    for v in ["NXP_LIB_DIR", "PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR"] {
        println!("cargo:rerun-if-env-changed={}", v);
    }
    let dir: Option<PathBuf> = if let Some(d) = env::var_os("NXP_LIB_DIR") {
        let d = PathBuf::from(d);
        if !has_lib(&d) {
            panic!("NXP_LIB_DIR={} does not hold libnxp.so (set it to the directory of libnxp.so, e.g. \
                    <checkout>/build/libnxp, or unset it to use pkg-config)", d.display());
        }
        Some(d)
    } else {
        match from_pkg_config() {
            Ok(d) => d,
            Err(why) => match from_checkout() {
                Some(d) => Some(d),
                None => panic!(
                    "libnxp not found: {}.\n  Install libnxp (meson install) and make pkg-config find it \
                     (PKG_CONFIG_PATH=<prefix>/lib/<multiarch>/pkgconfig, e.g. \
                     /usr/local/lib/x86_64-linux-gnu/pkgconfig),\n  or set NXP_LIB_DIR to the directory \
                     holding libnxp.so (e.g. <checkout>/build/libnxp after `meson setup build && ninja -C build`).",
                    why),
            },
        }
    };
    println!("cargo:rustc-link-lib=dylib=nxp");
    if let Some(d) = dir {
        println!("cargo:rustc-link-search=native={}", d.display());
        println!("cargo:rerun-if-changed={}", d.join("libnxp.so").display());
        // Metadata: DEP_NXP_LIB_DIR in the build scripts of direct dependents.
        println!("cargo:lib_dir={}", d.display());
    }
}
