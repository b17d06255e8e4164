// SPDX-License-Identifier: MIT
//! The #[repr(C)] mirrors in nxp-sys match the C headers: every struct's size
//! and alignment, every field's offset and size, and every constant, as printed
//! by tests/abi_layout (env NXP_LAYOUT_TOOL, `--lines` format).
use nxp::ffi::*;
use std::collections::BTreeMap;
use std::mem::{align_of, offset_of, size_of};
use std::process::Command;

#[derive(Default)]
struct Layout {
    structs: BTreeMap<String, (usize, usize)>,
    fields: BTreeMap<String, BTreeMap<String, (usize, usize)>>,
    consts: BTreeMap<String, i64>,
}

fn c_layout() -> Option<Layout> {
    let tool = std::env::var("NXP_LAYOUT_TOOL").ok()?;
    let out = Command::new(&tool).arg("--lines").output().expect("run NXP_LAYOUT_TOOL");
    assert!(out.status.success(), "{} failed", tool);
    let mut l = Layout::default();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["struct", n, s, a] => {
                l.structs.insert(n.to_string(), (s.parse().unwrap(), a.parse().unwrap()));
            }
            ["field", s, f, o, z] => {
                l.fields.entry(s.to_string()).or_default().insert(f.to_string(), (o.parse().unwrap(), z.parse().unwrap()));
            }
            ["const", n, v] => {
                l.consts.insert(n.to_string(), v.parse().unwrap());
            }
            _ => panic!("unexpected line from abi_layout: {:?}", line),
        }
    }
    Some(l)
}

fn size_of_return<T, F: Fn(&T) -> &U, U>(_f: F) -> usize {
    size_of::<U>()
}

/// (struct name, size, align, [(C field name, offset, size)])
type Row = (&'static str, usize, usize, Vec<(&'static str, usize, usize)>);

macro_rules! s {
    ($v:ident, $t:ident, $($f:ident),*) => {
        $v.push((stringify!($t), size_of::<$t>(), align_of::<$t>(), vec![
            $((c_name(stringify!($f)), offset_of!($t, $f), size_of_return(|x: &$t| &x.$f))),*
        ]));
    };
}

fn c_name(f: &'static str) -> &'static str {
    // Rust keywords get a trailing underscore in nxp-sys.
    f.strip_suffix('_').unwrap_or(f)
}

fn rust_layout() -> Vec<Row> {
    let mut v: Vec<Row> = Vec::new();
    s!(v, nxp_status, struct_size, code, offset, message);
    s!(v, nxp_source_callbacks, struct_size, read, seek, get_size, close);
    s!(v, nxp_neff_options, struct_size, flags, max_member_size, max_total_inflated, max_inflation_ratio, max_json_size, max_json_depth, max_members);
    s!(v, nxp_neff_header, struct_size, pkg_version, header_size, data_size, neff_version_major, neff_version_minor, build_version, num_tpb, hash, uuid, name, requested_tpb_count, tpb_per_node, feature_bits, lnc_size, hash_verified, payload_gzip);
    s!(v, nxp_neff_subgraph, struct_size, name, definition, pcore_idx, tensor_count, dma_queue_count, instruction_count);
    s!(v, nxp_tensor_info, struct_size, variable_name, type_, format, shape, size, node, pcore_idx, file_name);
    s!(v, nxp_dma_queue_info, struct_size, name, type_, neff_type, owner, pcore_idx, idx, engine_idx, axi_port, dram_channel);
    s!(v, nxp_access_pattern, address, addr_mode, memory, dtype, pad, step_elem, num_elem);
    s!(v, nxp_neff_instruction, struct_size, pc, engine, pcore_idx, opcode_num, opcode, operands, wait_mode, wait_idx, update_mode, update_idx, semaphore_value, src, dst, tensor_instruction_type, tensor_elements, raw_flops, adjusted_flops, hbm_read_bytes, hbm_write_bytes, sbuf_read_bytes, sbuf_write_bytes, psum_read_bytes, psum_write_bytes, scalar_activation_fn, raw, inst_word_len, debug_cmd, debug_hint, flags, func, partitions, active_cols, aux, immediate, performance_mode, psum_read_sbuf_write_bytes);
    s!(v, nxp_neff_writer_options, struct_size, flags, pkg_version, neff_version_major, neff_version_minor, build_version, name, uuid, num_tpb, lnc_size, feature_bits);
    s!(v, nxp_profile_options, struct_size, flags, neff, max_section_size);
    s!(v, nxp_metadata, struct_size, profile_schema_version, ntff_version, layout_version, num_physical_cores, vnc_enabled, first_hw_timestamp, last_hw_timestamp, dma_ddr_bandwidth, num_dma_engines_per_neuroncore, hbm_ddr_bandwidth, tensor_engine_num_rows, tensor_engine_num_cols, tensor_engine_clock_freq, vector_engine_clock_freq, vector_engine_num_channels, scalar_engine_clock_freq, scalar_engine_num_channels, gpsimd_engine_clock_freq, gpsimd_engine_num_channels, neuroncore_clock_freq, ticks_per_nanosec, arch, instance_type, runtime_version, collectives_version, driver_version, compiler_version, profile_name, neuroncore_idx, neuron_device_idx, capture_time_ns, is_simulation, neff_uuid, neff_hash, trace_count, event_count, tpb_start_ts, tpb_stop_ts, unknown_sections, tpb_damaged);
    s!(v, nxp_instruction, struct_size, start_ts, end_ts, duration_ns, engine, engine_id, pcore_idx, opcode, opcode_num, operands, id, pc, evt_wait_time_ns, execution_index, hbm_read_bytes, hbm_write_bytes, sbuf_read_bytes, sbuf_write_bytes, spill_save_bytes, spill_reload_bytes, psum_read_bytes, psum_write_bytes, psum_read_sbuf_write_bytes, tensor_instruction_type, tensor_elements, raw_flops, adjusted_flops, tensor_elements_transpose, flops_transpose, adjusted_flops_transpose, scalar_activation_fn, performance_mode, flags);
    s!(v, nxp_dma_packet, struct_size, start_ts, end_ts, duration_ns, pcore_idx, id, packet_idx, packet_aggregation_id, engine_idx, read_bytes, write_bytes, transfer_bytes, throughput, queue_type, variable, queue_name, queue_idx, crc, execution_index, source, dest);
    s!(v, nxp_semaphore_update, struct_size, timestamp, id, semaphore_idx, value, update_source, double_set_or_clear, update_mode, update_operation_type, update_trigger_timing, pcore_idx);
    s!(v, nxp_throttle, struct_size, timestamp, duration, k, n, type_, pcore_idx);
    s!(v, nxp_error_record, struct_size, timestamp, type_, error_type_id, description, metadata, metadata_hex, pcore_idx);
    s!(v, nxp_execution, struct_size, execution_index, neff_name, execution_start_ts, execution_end_ts, num_subgraphs, row_count, pcore_idx);
    s!(v, nxp_active_time, struct_size, start_ts, end_ts, duration_ns, engine, engine_id, pcore_idx);
    s!(v, nxp_cursor_options, struct_size, start_ts, end_ts, engine, pcore_idx, queue_name);
    s!(v, nxp_cursor_stats, struct_size, records, bad_records, skipped_sections, bytes_read, last_bad_offset, unknown_pcs);
    s!(v, nxp_ntff_writer_options, struct_size, flags, records_per_section, compression_level);
    s!(v, nxp_ntff_info, struct_size, neff_uuid, neff_hash, ntff_version, ticks_per_nanosec, num_physical_cores, arch, instance_type, runtime_version, collectives_version, driver_version, compiler_version, profile_name, tensor_engine_clock_freq, vector_engine_clock_freq, scalar_engine_clock_freq, gpsimd_engine_clock_freq, neuroncore_clock_freq, tensor_engine_num_rows, tensor_engine_num_cols, vector_engine_num_channels, scalar_engine_num_channels, gpsimd_engine_num_channels, num_dma_engines_per_neuroncore, dma_ddr_bandwidth, hbm_ddr_bandwidth, neuroncore_idx, neuron_device_idx, capture_time_ns, is_simulation);
    s!(v, nxp_ntff_queue, struct_size, kind, engine, pcore_idx, name, queue_idx, engine_idx);
    s!(v, nxp_ntff_instruction_note, start_tick, end_tick, pc, wait_ticks, execution_index);
    s!(v, nxp_ntff_dma_note, start_tick, end_tick, packet_aggregation_id, packet_idx, read_bytes, write_bytes, crc, flags, source, dest, execution_index, variable);
    s!(v, nxp_ntff_semaphore_note, tick, semaphore_idx, update_source, operation, value, trigger_complete, double_set_or_clear, update_mode);
    s!(v, nxp_ntff_throttle_note, tick, duration_ticks, k, n, type_);
    s!(v, nxp_ntff_error_note, tick, error_type_id, type_, description, metadata);
    s!(v, nxp_ntff_execution_note, start_tick, end_tick, execution_index, num_subgraphs, neff_name, row_count);
    s!(v, nxp_ntff_tpb_note, tick, is_stop);
    s!(v, nxp_hardware, struct_size, arch, tensor_engine_num_rows, tensor_engine_num_cols, tensor_engine_clock_freq, vector_engine_clock_freq, scalar_engine_clock_freq, gpsimd_engine_clock_freq, neuroncore_clock_freq, hbm_bandwidth, dma_ddr_bandwidth, fp8_flops_multiplier, num_physical_cores);
    s!(v, nxp_summary_field, struct_size, name, unit, group, kind, present, i, f, extension, derived);
    s!(v, nxp_opcode_summary, struct_size, engine, opcode, instruction_count, instruction_time_ns, active_time_ns, active_time_percent);
    s!(v, nxp_throttle_summary, struct_size, nc_idx, throttle_type, throttle_active_time_ns, throttle_active_time_percent, max_achievable_util_with_throttling_percent);
    s!(v, nxp_system_options, struct_size, flags, max_message_size, max_json_event, max_json_depth, max_pending, instance_id);
    s!(v, nxp_system_event, struct_size, id, name, start_ts, end_ts, duration_ns, trace_event_source, instance_id, process_id, thread_id, nc_idx, pcore_idx, worker_gid, flow_id, framework_stream_id, extra_attributes_json, flags, phase, category, pid, tid, process_name, thread_name, tracking_id, nrta_seq_id, nd_idx, file, offset);
    s!(v, nxp_system_stats, struct_size, events, neuron_rt, neuron_hw, framework, unmatched_starts, unmatched_stops, skipped, files, bytes_read, base_time_ns, peak_pending);
    s!(v, nxp_cpu_usage, struct_size, timestamp, util_percent, cpu_id, instance_id);
    s!(v, nxp_host_mem_usage, struct_size, timestamp, used_bytes, used_percent, instance_id, total_bytes);
    s!(v, nxp_system_metadata, struct_size, first_ts, last_ts, first_ts_ns, last_ts_ns, ntff_version, hbm_capacity_bytes, instance_id, instance_type, arch, runtime_version, driver_version, pid, session_id, logical_nc_size, num_neuron_cores, data_version);
    s!(v, nxp_capture_file, struct_size, path, kind, size, process_index, name_hash, nc_idx, vnc, session, instid, has_uuid, uuid);
    s!(v, nxp_capture_process, struct_size, dir, instance_id, pid, timestamp, ntrace, trace_info, cpu_util, host_mem, trace_json, complete);
    s!(v, nxp_capture_profile, struct_size, neff, ntff, process_index, pairing, nc_idx);
    s!(v, nxp_sysprof_writer_options, struct_size, stream, chunk_events, arch, pid, session_id, data_version, logical_nc_size, instance_id);
    s!(v, nxp_ntrace_event, struct_size, timestamp, name, phase, duration, nc_idx, nd_idx, thread_id, id, parent_id, tracking_id, nrta_seq_id, data, status, event_type, attributes, n_attributes);
    s!(v, ArrowSchema, format, name, metadata, flags, n_children, children, dictionary, release, private_data);
    s!(v, ArrowArray, length, null_count, offset, n_buffers, n_children, buffers, children, dictionary, release, private_data);
    s!(v, ArrowArrayStream, get_schema, get_next, get_last_error, release, private_data);
    s!(v, nxp_table_options, struct_size, columns, start_ts, end_ts, engine, pcore_idx, queue_name, batch_rows);
    s!(v, nxp_parquet_options, struct_size, codec, level, row_group_bytes, overwrite, key_values);
    s!(v, nxp_export_report, struct_size, skipped_records, skipped_sections, tables_written);
    s!(v, nxp_export_options, struct_size, tables, codec, level, overwrite, progress, progress_user, threads, report);
    s!(v, nxp_timeline_options, struct_size, format, start_ts, end_ts, engine, execution, max_events, counter_window_ns, gzip, overwrite, system_primary_group, system_secondary_group, combined, device_flows);
    s!(v, nxp_timeline_stats, struct_size, events, tracks, bytes, truncated, read_errors, bad_records, input_bytes, skipped_sections, flows, unplaced_profiles);
    s!(v, nxp_flow, struct_size, in_id, out_id, in_table, out_table, dependency_type, gap_time, kind, in_table_id, out_table_id, exact, in_ts, out_ts, pcore_idx);
    s!(v, nxp_flow_options, struct_size, start_ts, end_ts, pcore_idx, window_ns);
    s!(v, nxp_critical_path_options, struct_size, execution_index, pcore_idx);
    s!(v, nxp_critical_step, struct_size, table, id, start_ts, end_ts, resource, label, via, ns);
    s!(v, nxp_critical_resource, struct_size, resource, ns, busy_ns, slack_ns);
    s!(v, nxp_insight_evidence, name, value, unit);
    s!(v, nxp_insight, struct_size, rule, severity_level, severity, message, recommendation, start_ts, end_ts, evidence, evidence_count);
    s!(v, nxp_comparison_row, struct_size, profile_index, ntff_path, instance_id, process_id, nc_idx, total_ns, gap_ns, mfu_present, mfu, engine_active_ns, dma_active_ns, dma_bytes, throttle_ns, host_execute_count, host_execute_total_ns, host_execute_max_ns, host_start_skew_ns, explaining_figure, explaining_delta_ns, status);
    v
}

fn rust_consts() -> Vec<(&'static str, i64)> {
    macro_rules! c {
        ($($k:ident),*) => { vec![$((stringify!($k), $k as i64)),*] };
    }
    c!(NXP_VERSION_MAJOR, NXP_VERSION_MINOR, NXP_VERSION_PATCH, NXP_VERSION_NUMBER, NXP_STATUS_MESSAGE_MAX, NXP_OK,
       NXP_END, NXP_E_INVAL, NXP_E_NOMEM, NXP_E_IO, NXP_E_TRUNCATED, NXP_E_FORMAT, NXP_E_VERSION, NXP_E_LIMIT,
       NXP_E_HASH, NXP_E_CRC, NXP_E_MISMATCH, NXP_E_NOT_FOUND, NXP_E_UNSAFE_PATH, NXP_E_JSON, NXP_E_UNSUPPORTED,
       NXP_E_COMPRESSION, NXP_E_RANGE, NXP_E_PROTOBUF, NXP_NEFF_HEADER_SIZE, NXP_NEFF_INSTRUCTION_SIZE,
       NXP_ENGINE_TENSOR, NXP_ENGINE_VECTOR, NXP_ENGINE_SCALAR, NXP_ENGINE_GPSIMD, NXP_ENGINE_SYNC, NXP_ENGINE_COUNT,
       NXP_NEFF_VERIFY_HASH, NXP_MEMORY_NONE, NXP_MEMORY_SBUF, NXP_MEMORY_PSUM, NXP_MEMORY_HBM,
       NXP_NEFF_WRITE_PLAIN_TAR, NXP_NEFF_WRITE_DOT_SLASH, NXP_PROFILE_ALLOW_MISMATCH, NXP_PROFILE_SKIP_CRC,
       NXP_TABLE_INSTRUCTION, NXP_TABLE_DMA_PACKET, NXP_TABLE_SEMAPHORE_UPDATE, NXP_TABLE_THROTTLE, NXP_TABLE_ERROR,
       NXP_TABLE_EXECUTION, NXP_TABLE_ACTIVE_TIME, NXP_INSTRUCTION_PC_UNKNOWN, NXP_QUEUE_INSTRUCTION, NXP_QUEUE_DMA,
       NXP_QUEUE_SEMAPHORE, NXP_QUEUE_THROTTLE, NXP_QUEUE_ERROR, NXP_QUEUE_EXECUTION, NXP_QUEUE_TPB,
       NXP_NTFF_WRITE_COMPRESS, NXP_DMA_SOFTWARE_DYNAMIC, NXP_DMA_HARDWARE_DYNAMIC, NXP_VALUE_INT, NXP_VALUE_FLOAT,
       NXP_SYSFILE_AUTO, NXP_SYSFILE_NTRACE, NXP_SYSFILE_TRACE_INFO, NXP_SYSFILE_CPU_UTIL, NXP_SYSFILE_HOST_MEM,
       NXP_SYSFILE_TRACE_JSON, NXP_SYSFILE_NEFF, NXP_SYSFILE_NTFF, NXP_SYSTEM_NO_PAIRING, NXP_SYSTEM_NO_PRESCAN,
       NXP_SYSEV_UNMATCHED_START, NXP_SYSEV_UNMATCHED_STOP, NXP_SYSEV_HARDWARE, NXP_SYSEV_SOFTWARE,
       NXP_SYSEV_NO_BASE_TIME, NXP_SYSEV_UNPAIRED, NXP_PAIRED_NONE, NXP_PAIRED_BY_UUID, NXP_PAIRED_BY_NAME,
       NXP_PAIRED_SOLE, NXP_NTRACE_PHASE_NONE, NXP_NTRACE_PHASE_START, NXP_NTRACE_PHASE_STOP,
       NXP_NTRACE_PHASE_INSTANT, NXP_PARQUET_ZSTD, NXP_PARQUET_GZIP, NXP_PARQUET_NONE, NXP_FILE_UNKNOWN,
       NXP_FILE_EMPTY, NXP_FILE_DIRECTORY, NXP_FILE_NEFF, NXP_FILE_NTFF, NXP_FILE_JSON, NXP_FILE_JSON_GZIP,
       NXP_FILE_GZIP, NXP_FILE_PROTOBUF, NXP_FILE_STREAM, NXP_TIMELINE_PERFETTO, NXP_TIMELINE_CHROME_JSON,
       NXP_FLOW_SEMAPHORE_WAIT, NXP_FLOW_DMA_TRIGGER, NXP_FLOW_DMA_COMPLETION, NXP_FLOW_SEMAPHORE_SIGNAL,
       NXP_FLOW_DEFAULT_WINDOW_NS, NXP_FLOW_WAITED_ON, NXP_FLOW_UNBLOCKED, NXP_SEVERITY_INFO, NXP_SEVERITY_WARNING,
       NXP_SEVERITY_CRITICAL)
}

#[test]
fn struct_layouts_match_c() {
    let Some(c) = c_layout() else {
        eprintln!("NXP_LAYOUT_TOOL not set: run through meson (meson test rust)");
        return;
    };
    let mut problems = Vec::new();
    let rust = rust_layout();
    for (name, size, align, fields) in &rust {
        let Some(&(csize, calign)) = c.structs.get(*name) else {
            problems.push(format!("{}: not printed by abi_layout", name));
            continue;
        };
        if (csize, calign) != (*size, *align) {
            problems.push(format!("{}: C size/align {}/{}, Rust {}/{}", name, csize, calign, size, align));
        }
        let cf = &c.fields[*name];
        if cf.len() != fields.len() {
            problems.push(format!("{}: C has {} fields, Rust {}", name, cf.len(), fields.len()));
        }
        for (f, off, sz) in fields {
            match cf.get(*f) {
                Some(&(co, cs)) if (co, cs) == (*off, *sz) => {}
                Some(&(co, cs)) => problems.push(format!("{}.{}: C {}+{}, Rust {}+{}", name, f, co, cs, off, sz)),
                None => problems.push(format!("{}.{}: not in C", name, f)),
            }
        }
    }
    for name in c.structs.keys() {
        if !rust.iter().any(|r| r.0 == name) {
            problems.push(format!("{}: no Rust mirror", name));
        }
    }
    let consts = rust_consts();
    for (k, v) in &consts {
        match c.consts.get(*k) {
            Some(cv) if cv == v => {}
            other => problems.push(format!("{}: C {:?}, Rust {}", k, other, v)),
        }
    }
    for k in c.consts.keys() {
        if k.ends_with("_MIN_SIZE") {
            continue; // derived from offsets, checked through the struct layouts
        }
        if !consts.iter().any(|(n, _)| n == k) {
            problems.push(format!("{}: no Rust constant", k));
        }
    }
    assert!(c.structs.len() >= 46, "abi_layout printed only {} structs", c.structs.len());
    assert!(problems.is_empty(), "layout mismatches:\n  {}", problems.join("\n  "));
}
