// SPDX-License-Identifier: MIT
//! Columnar tables (nxp/table.h): the profile's tables as Arrow C streams, and
//! Parquet export.
//!
//! [`ArrowStream`] owns a `struct ArrowArrayStream` laid out as the Arrow C
//! Stream Interface and as arrow-rs's `FFI_ArrowArrayStream`, so code that uses
//! the `arrow` crate can take it over without a copy:
//!
//! ```ignore
//! let raw = profile.open_table("Instruction", &TableOptions::default())?.into_raw();
//! let ffi: arrow::ffi_stream::FFI_ArrowArrayStream = unsafe { std::mem::transmute(raw) };
//! let reader = arrow::ffi_stream::ArrowArrayStreamReader::try_new(ffi)?;
//! ```
//!
//! Without arrow-rs, iterate [`ArrowStream`]: each [`Batch`] exposes its columns
//! as typed slices (`i64`, `i32`, `f64`), booleans, strings and dictionary
//! strings, and releases its buffers on Drop.  Batches stay valid after the
//! stream and the profile are gone (they own their buffers).
use crate::{path_cstring, status, text_cstring, Engine, Error, Profile, Result};
use nxp_sys as sys;
use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::os::raw::{c_char, c_int};
use std::path::Path;
use std::ptr;
use std::sync::Arc;

/// Options of [`Profile::open_table`]: projection, the cursors' filters, batch size.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    /// Columns to produce, in this order; None = every column of the table.
    pub columns: Option<Vec<String>>,
    /// Only rows with start >= start (ns).
    pub start: Option<i64>,
    /// Only rows with start < end (ns).
    pub end: Option<i64>,
    pub engine: Option<Engine>,
    pub pcore: Option<i64>,
    /// DMA queue name.
    pub queue: Option<String>,
    /// Rows per batch (None: the library's 65536).
    pub batch_rows: Option<i64>,
}

/// One column of a stream's schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    /// Arrow format string ("l" int64, "i" int32, "g" float64, "b" bool, "u" utf8; for a
    /// dictionary column, the index type).
    pub format: String,
    /// Format of the dictionary's values ("u") for a dictionary-encoded column.
    pub dictionary: Option<String>,
    pub nullable: bool,
}

fn stream_error(s: &mut sys::ArrowArrayStream, rc: c_int, what: &str) -> Error {
    let msg = match s.get_last_error {
        Some(f) => {
            let p = unsafe { f(s) };
            if p.is_null() {
                String::new()
            } else {
                unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
            }
        }
        None => String::new(),
    };
    let code = match rc {
        22 => sys::NXP_E_INVAL,
        12 => sys::NXP_E_NOMEM,
        _ => sys::NXP_E_IO,
    };
    Error::new(code, format!("{}: {}", what, if msg.is_empty() { format!("errno {}", rc) } else { msg }))
}

/// An Arrow C stream over one table of a profile (borrows the profile).
/// Released on Drop unless moved out with [`ArrowStream::into_raw`].
pub struct ArrowStream<'p> {
    raw: sys::ArrowArrayStream,
    fields: Option<Arc<Vec<Field>>>,
    _p: PhantomData<&'p Profile>,
}

impl<'p> ArrowStream<'p> {
    /// The columns of every batch (from the stream's get_schema).
    pub fn fields(&mut self) -> Result<Arc<Vec<Field>>> {
        if let Some(f) = &self.fields {
            return Ok(f.clone());
        }
        let mut sch = sys::ArrowSchema::empty();
        let get = self.raw.get_schema.ok_or_else(|| Error::new(sys::NXP_E_INVAL, "released stream"))?;
        let rc = unsafe { get(&mut self.raw, &mut sch) };
        if rc != 0 {
            return Err(stream_error(&mut self.raw, rc, "get_schema"));
        }
        let text = |p: *const c_char| if p.is_null() { String::new() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() };
        let mut out = Vec::new();
        for i in 0..sch.n_children as usize {
            let c = unsafe { &**sch.children.add(i) };
            out.push(Field {
                name: text(c.name),
                format: text(c.format),
                dictionary: if c.dictionary.is_null() { None } else { Some(text(unsafe { (*c.dictionary).format })) },
                nullable: c.flags & sys::ARROW_FLAG_NULLABLE != 0,
            });
        }
        if let Some(r) = sch.release {
            unsafe { r(&mut sch) };
        }
        let f = Arc::new(out);
        self.fields = Some(f.clone());
        Ok(f)
    }

    /// The next record batch, or None at the end.
    pub fn next_batch(&mut self) -> Result<Option<Batch>> {
        let fields = self.fields()?;
        let mut arr = sys::ArrowArray::empty();
        let get = self.raw.get_next.ok_or_else(|| Error::new(sys::NXP_E_INVAL, "released stream"))?;
        let rc = unsafe { get(&mut self.raw, &mut arr) };
        if rc != 0 {
            return Err(stream_error(&mut self.raw, rc, "get_next"));
        }
        if arr.release.is_none() {
            return Ok(None);
        }
        if arr.n_children as usize != fields.len() {
            let n = arr.n_children;
            let b = Batch { raw: arr, fields };
            drop(b);
            return Err(Error::new(sys::NXP_E_FORMAT, format!("batch of {} columns", n)));
        }
        Ok(Some(Batch { raw: arr, fields }))
    }

    /// Give up ownership: the raw `struct ArrowArrayStream` (same layout as
    /// arrow-rs's `FFI_ArrowArrayStream`), which the caller must release.  Its
    /// get_next must not be called after the profile is closed.
    pub fn into_raw(mut self) -> sys::ArrowArrayStream {
        std::mem::replace(&mut self.raw, sys::ArrowArrayStream::empty())
    }
}

impl Iterator for ArrowStream<'_> {
    type Item = Result<Batch>;
    fn next(&mut self) -> Option<Result<Batch>> {
        self.next_batch().transpose()
    }
}

impl Drop for ArrowStream<'_> {
    fn drop(&mut self) {
        if let Some(r) = self.raw.release {
            unsafe { r(&mut self.raw) };
        }
    }
}

/// One record batch (a struct array of the table's columns); released on Drop.
pub struct Batch {
    raw: sys::ArrowArray,
    fields: Arc<Vec<Field>>,
}

// The Arrow spec lets a batch be released from any thread; its buffers are immutable.
unsafe impl Send for Batch {}
unsafe impl Sync for Batch {}

impl Batch {
    /// Rows in the batch.
    pub fn len(&self) -> usize {
        self.raw.length as usize
    }
    pub fn is_empty(&self) -> bool {
        self.raw.length == 0
    }
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }
    /// Index of column `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
    /// The raw C array (the struct array of the batch).
    pub fn raw(&self) -> &sys::ArrowArray {
        &self.raw
    }

    fn child(&self, col: usize) -> Result<&sys::ArrowArray> {
        if col >= self.fields.len() {
            return Err(Error::new(sys::NXP_E_RANGE, format!("column {} of {}", col, self.fields.len())));
        }
        Ok(unsafe { &**self.raw.children.add(col) })
    }

    fn typed<T>(&self, col: usize, format: &str) -> Result<&[T]> {
        let f = &self.fields.get(col).ok_or_else(|| Error::new(sys::NXP_E_RANGE, "no such column"))?;
        if f.format != format || f.dictionary.is_some() {
            return Err(Error::new(sys::NXP_E_INVAL, format!("column {} is {:?}, not {:?}", f.name, f.format, format)));
        }
        let a = self.child(col)?;
        if a.length == 0 {
            return Ok(&[]);
        }
        let data = unsafe { *a.buffers.add(1) } as *const T;
        Ok(unsafe { std::slice::from_raw_parts(data.add(a.offset as usize), a.length as usize) })
    }

    /// An int64 column's values (nulls hold an unspecified value: see is_valid).
    pub fn i64s(&self, col: usize) -> Result<&[i64]> {
        self.typed(col, "l")
    }
    pub fn i32s(&self, col: usize) -> Result<&[i32]> {
        self.typed(col, "i")
    }
    pub fn f64s(&self, col: usize) -> Result<&[f64]> {
        self.typed(col, "g")
    }

    fn bit(buf: *const std::os::raw::c_void, i: usize) -> bool {
        unsafe { (*(buf as *const u8).add(i / 8) >> (i % 8)) & 1 == 1 }
    }

    /// False when row `row` of column `col` is null.
    pub fn is_valid(&self, col: usize, row: usize) -> bool {
        let Ok(a) = self.child(col) else { return false };
        if row >= a.length as usize {
            return false;
        }
        let v = unsafe { *a.buffers };
        a.null_count == 0 || v.is_null() || Self::bit(v, a.offset as usize + row)
    }

    /// A boolean column's value at `row` (None when null).
    pub fn bool_at(&self, col: usize, row: usize) -> Result<Option<bool>> {
        let f = &self.fields[col.min(self.fields.len().saturating_sub(1))];
        let a = self.child(col)?;
        if f.format != "b" || row >= a.length as usize {
            return Err(Error::new(sys::NXP_E_INVAL, format!("column {} is not bool or row out of range", f.name)));
        }
        Ok(if self.is_valid(col, row) { Some(Self::bit(unsafe { *a.buffers.add(1) }, a.offset as usize + row)) } else { None })
    }

    fn utf8_at(a: &sys::ArrowArray, i: usize) -> &str {
        unsafe {
            let offs = *a.buffers.add(1) as *const i32;
            let data = *a.buffers.add(2) as *const u8;
            let j = a.offset as usize + i;
            let (s, e) = (*offs.add(j) as usize, *offs.add(j + 1) as usize);
            std::str::from_utf8(std::slice::from_raw_parts(data.add(s), e - s)).unwrap_or("\u{fffd}")
        }
    }

    /// A utf8 or dictionary-encoded utf8 column's value at `row` (None when null).
    pub fn str_at(&self, col: usize, row: usize) -> Result<Option<&str>> {
        let a = self.child(col)?;
        let f = &self.fields[col];
        if row >= a.length as usize {
            return Err(Error::new(sys::NXP_E_RANGE, format!("row {} of {}", row, a.length)));
        }
        if !self.is_valid(col, row) {
            return Ok(None);
        }
        match (f.format.as_str(), f.dictionary.as_deref()) {
            ("u", None) => Ok(Some(Self::utf8_at(a, row))),
            ("i", Some("u")) => {
                let code = unsafe { *(*a.buffers.add(1) as *const i32).add(a.offset as usize + row) };
                let d = unsafe { &*a.dictionary };
                if code < 0 || code as i64 >= d.length {
                    return Err(Error::new(sys::NXP_E_FORMAT, format!("dictionary code {} of {}", code, d.length)));
                }
                Ok(Some(Self::utf8_at(d, code as usize)))
            }
            _ => Err(Error::new(sys::NXP_E_INVAL, format!("column {} is not a string column", f.name))),
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        if let Some(r) = self.raw.release {
            unsafe { r(&mut self.raw) };
        }
    }
}

/// Parquet page compression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compression {
    #[default]
    Zstd,
    Gzip,
    None,
}

/// Options of [`Profile::export_parquet`].
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// Tables to write; None = the default set (every table but Flow).  "all"
    /// stands for every table, "default" for the default set (e.g.
    /// `["default", "Flow"]`).
    pub tables: Option<Vec<String>>,
    pub compression: Compression,
    /// Codec level, 0 = the codec's default.
    pub level: i32,
    /// Replace existing files (otherwise an existing file is an error).
    pub overwrite: bool,
    /// Tables written at once: 0 = one per CPU (or NXP_THREADS), 1 = serial;
    /// the files are the same at any count.
    pub threads: u32,
}

/// What [`Profile::export_parquet`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportReport {
    /// Parquet files written.
    pub tables_written: i32,
    /// Records that failed their checks and were skipped (the Warning rows);
    /// None when Warning was not written.
    pub skipped_records: Option<i64>,
    /// Sections skipped, likewise.
    pub skipped_sections: Option<i64>,
}

fn cstrings(v: &[String], what: &str) -> Result<(Vec<CString>, Vec<*const c_char>)> {
    let owned = v.iter().map(|s| text_cstring(s, what)).collect::<Result<Vec<_>>>()?;
    let mut ptrs: Vec<*const c_char> = owned.iter().map(|c| c.as_ptr()).collect();
    ptrs.push(ptr::null());
    Ok((owned, ptrs))
}

/// Names of the tables [`Profile::open_table`] and export know.
pub fn table_names() -> Vec<String> {
    let mut out = Vec::new();
    for i in 0.. {
        let p = unsafe { sys::nxp_table_name(i) };
        if p.is_null() {
            break;
        }
        out.push(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned());
    }
    out
}

impl Profile {
    /// Table `table` ("Instruction", "DmaPacket", ..., "SchemaFields") as an Arrow C stream.
    pub fn open_table(&self, table: &str, opts: &TableOptions) -> Result<ArrowStream<'_>> {
        let t = text_cstring(table, "table")?;
        let mut o = sys::nxp_table_options::default();
        o.start_ts = opts.start.unwrap_or(i64::MIN);
        o.end_ts = opts.end.unwrap_or(i64::MAX);
        o.engine = opts.engine.map_or(-1, |e| e as i32);
        o.pcore_idx = opts.pcore.unwrap_or(-1);
        let queue = match &opts.queue {
            Some(q) => Some(text_cstring(q, "queue")?),
            None => None,
        };
        o.queue_name = queue.as_ref().map_or(ptr::null(), |q| q.as_ptr());
        o.batch_rows = opts.batch_rows.unwrap_or(0);
        let cols = match &opts.columns {
            Some(c) => Some(cstrings(c, "column")?),
            None => None,
        };
        o.columns = cols.as_ref().map_or(ptr::null(), |c| c.1.as_ptr());
        let mut raw = sys::ArrowArrayStream::empty();
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_open_table(&mut raw, self.h, t.as_ptr(), &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(ArrowStream { raw, fields: None, _p: PhantomData })
    }

    /// Write `DIR/<Table>.parquet` for every table of the default set (or
    /// `opts.tables`) on `opts.threads` threads.
    pub fn export_parquet(&self, dir: impl AsRef<Path>, opts: &ExportOptions) -> Result<ExportReport> {
        let d = path_cstring(dir.as_ref())?;
        let mut o = sys::nxp_export_options::default();
        o.codec = match opts.compression {
            Compression::Zstd => sys::NXP_PARQUET_ZSTD,
            Compression::Gzip => sys::NXP_PARQUET_GZIP,
            Compression::None => sys::NXP_PARQUET_NONE,
        };
        o.level = opts.level;
        o.overwrite = opts.overwrite as i32;
        let tables = match &opts.tables {
            Some(t) => Some(cstrings(t, "table")?),
            None => None,
        };
        o.tables = tables.as_ref().map_or(ptr::null(), |t| t.1.as_ptr());
        o.threads = opts.threads.min(1024) as i32;
        let mut rep = sys::nxp_export_report::default();
        o.report = &mut rep;
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_export_parquet(self.h, d.as_ptr(), &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        let known = |v: i64| if v < 0 { None } else { Some(v) };
        Ok(ExportReport {
            tables_written: rep.tables_written,
            skipped_records: known(rep.skipped_records),
            skipped_sections: known(rep.skipped_sections),
        })
    }
}
