/* SPDX-License-Identifier: MIT */
/*
 * abi_layout: print the size, alignment and field offsets of every public
 * struct, and the value of every public constant, as the C compiler sees the
 * installed headers.  The Python and Rust bindings compare their mirrored
 * layouts against this output, so a header change that a binding did not
 * follow fails a test instead of corrupting memory.
 *
 *   abi_layout           JSON: {"structs": {name: {"size", "align", "fields":
 *                        {field: {"offset", "size"}}}}, "constants": {name: value}}
 *   abi_layout --lines   one fact per line, easy to parse without a JSON library:
 *                          struct NAME SIZE ALIGN
 *                          field NAME FIELD OFFSET SIZE
 *                          const NAME VALUE
 */
#include <nxp/nxp.h>

#include <stdalign.h>
#include <stdio.h>
#include <string.h>

static int lines_mode;
static int first_struct = 1, first_field, first_const = 1;
static const char *cur;

static void begin(const char *name, size_t size, size_t align)
{
	cur = name;
	if (lines_mode) {
		printf("struct %s %zu %zu\n", name, size, align);
		return;
	}
	printf("%s\n    \"%s\": {\"size\": %zu, \"align\": %zu, \"fields\": {", first_struct ? "" : ",", name, size,
	       align);
	first_struct = 0;
	first_field = 1;
}

static void field(const char *name, size_t offset, size_t size)
{
	if (lines_mode) {
		printf("field %s %s %zu %zu\n", cur, name, offset, size);
		return;
	}
	printf("%s\n      \"%s\": {\"offset\": %zu, \"size\": %zu}", first_field ? "" : ",", name, offset, size);
	first_field = 0;
}

static void end(void)
{
	if (!lines_mode)
		printf("\n    }}");
}

static void constant(const char *name, long long value)
{
	if (lines_mode) {
		printf("const %s %lld\n", name, value);
		return;
	}
	printf("%s\n    \"%s\": %lld", first_const ? "" : ",", name, value);
	first_const = 0;
}

#define S(T) begin(#T, sizeof(T), alignof(T))
#define F(T, f) field(#f, offsetof(T, f), sizeof(((T *)0)->f))
#define C(k) constant(#k, (long long)(k))

static void structs(void)
{
	S(nxp_status);
	F(nxp_status, struct_size); F(nxp_status, code); F(nxp_status, offset); F(nxp_status, message);
	end();

	S(nxp_source_callbacks);
	F(nxp_source_callbacks, struct_size); F(nxp_source_callbacks, read); F(nxp_source_callbacks, seek);
	F(nxp_source_callbacks, get_size); F(nxp_source_callbacks, close);
	end();

	/* neff.h */
	S(nxp_neff_options);
	F(nxp_neff_options, struct_size); F(nxp_neff_options, flags); F(nxp_neff_options, max_member_size);
	F(nxp_neff_options, max_total_inflated); F(nxp_neff_options, max_inflation_ratio);
	F(nxp_neff_options, max_json_size); F(nxp_neff_options, max_json_depth); F(nxp_neff_options, max_members);
	end();

	S(nxp_neff_header);
	F(nxp_neff_header, struct_size); F(nxp_neff_header, pkg_version); F(nxp_neff_header, header_size);
	F(nxp_neff_header, data_size); F(nxp_neff_header, neff_version_major);
	F(nxp_neff_header, neff_version_minor); F(nxp_neff_header, build_version); F(nxp_neff_header, num_tpb);
	F(nxp_neff_header, hash); F(nxp_neff_header, uuid); F(nxp_neff_header, name);
	F(nxp_neff_header, requested_tpb_count); F(nxp_neff_header, tpb_per_node);
	F(nxp_neff_header, feature_bits); F(nxp_neff_header, lnc_size); F(nxp_neff_header, hash_verified);
	F(nxp_neff_header, payload_gzip);
	end();

	S(nxp_neff_subgraph);
	F(nxp_neff_subgraph, struct_size); F(nxp_neff_subgraph, name); F(nxp_neff_subgraph, definition);
	F(nxp_neff_subgraph, pcore_idx); F(nxp_neff_subgraph, tensor_count); F(nxp_neff_subgraph, dma_queue_count);
	F(nxp_neff_subgraph, instruction_count);
	end();

	S(nxp_tensor_info);
	F(nxp_tensor_info, struct_size); F(nxp_tensor_info, variable_name); F(nxp_tensor_info, type);
	F(nxp_tensor_info, format); F(nxp_tensor_info, shape); F(nxp_tensor_info, size); F(nxp_tensor_info, node);
	F(nxp_tensor_info, pcore_idx); F(nxp_tensor_info, file_name);
	end();

	S(nxp_dma_queue_info);
	F(nxp_dma_queue_info, struct_size); F(nxp_dma_queue_info, name); F(nxp_dma_queue_info, type);
	F(nxp_dma_queue_info, neff_type); F(nxp_dma_queue_info, owner); F(nxp_dma_queue_info, pcore_idx);
	F(nxp_dma_queue_info, idx); F(nxp_dma_queue_info, engine_idx); F(nxp_dma_queue_info, axi_port);
	F(nxp_dma_queue_info, dram_channel);
	end();

	S(nxp_access_pattern);
	F(nxp_access_pattern, address); F(nxp_access_pattern, addr_mode); F(nxp_access_pattern, memory);
	F(nxp_access_pattern, dtype); F(nxp_access_pattern, pad); F(nxp_access_pattern, step_elem);
	F(nxp_access_pattern, num_elem);
	end();

	S(nxp_neff_instruction);
	F(nxp_neff_instruction, struct_size); F(nxp_neff_instruction, pc); F(nxp_neff_instruction, engine);
	F(nxp_neff_instruction, pcore_idx); F(nxp_neff_instruction, opcode_num); F(nxp_neff_instruction, opcode);
	F(nxp_neff_instruction, operands); F(nxp_neff_instruction, wait_mode); F(nxp_neff_instruction, wait_idx);
	F(nxp_neff_instruction, update_mode); F(nxp_neff_instruction, update_idx);
	F(nxp_neff_instruction, semaphore_value); F(nxp_neff_instruction, src); F(nxp_neff_instruction, dst);
	F(nxp_neff_instruction, tensor_instruction_type); F(nxp_neff_instruction, tensor_elements);
	F(nxp_neff_instruction, raw_flops); F(nxp_neff_instruction, adjusted_flops);
	F(nxp_neff_instruction, hbm_read_bytes); F(nxp_neff_instruction, hbm_write_bytes);
	F(nxp_neff_instruction, sbuf_read_bytes); F(nxp_neff_instruction, sbuf_write_bytes);
	F(nxp_neff_instruction, psum_read_bytes); F(nxp_neff_instruction, psum_write_bytes);
	F(nxp_neff_instruction, scalar_activation_fn); F(nxp_neff_instruction, raw);
	F(nxp_neff_instruction, inst_word_len); F(nxp_neff_instruction, debug_cmd);
	F(nxp_neff_instruction, debug_hint); F(nxp_neff_instruction, flags); F(nxp_neff_instruction, func);
	F(nxp_neff_instruction, partitions); F(nxp_neff_instruction, active_cols); F(nxp_neff_instruction, aux);
	F(nxp_neff_instruction, immediate); F(nxp_neff_instruction, performance_mode);
	F(nxp_neff_instruction, psum_read_sbuf_write_bytes);
	end();

	S(nxp_neff_writer_options);
	F(nxp_neff_writer_options, struct_size); F(nxp_neff_writer_options, flags);
	F(nxp_neff_writer_options, pkg_version); F(nxp_neff_writer_options, neff_version_major);
	F(nxp_neff_writer_options, neff_version_minor); F(nxp_neff_writer_options, build_version);
	F(nxp_neff_writer_options, name); F(nxp_neff_writer_options, uuid); F(nxp_neff_writer_options, num_tpb);
	F(nxp_neff_writer_options, lnc_size); F(nxp_neff_writer_options, feature_bits);
	end();

	/* ntff.h */
	S(nxp_profile_options);
	F(nxp_profile_options, struct_size); F(nxp_profile_options, flags); F(nxp_profile_options, neff);
	F(nxp_profile_options, max_section_size);
	end();

	S(nxp_metadata);
	F(nxp_metadata, struct_size); F(nxp_metadata, profile_schema_version); F(nxp_metadata, ntff_version);
	F(nxp_metadata, layout_version); F(nxp_metadata, num_physical_cores); F(nxp_metadata, vnc_enabled);
	F(nxp_metadata, first_hw_timestamp); F(nxp_metadata, last_hw_timestamp); F(nxp_metadata, dma_ddr_bandwidth);
	F(nxp_metadata, num_dma_engines_per_neuroncore); F(nxp_metadata, hbm_ddr_bandwidth);
	F(nxp_metadata, tensor_engine_num_rows); F(nxp_metadata, tensor_engine_num_cols);
	F(nxp_metadata, tensor_engine_clock_freq); F(nxp_metadata, vector_engine_clock_freq);
	F(nxp_metadata, vector_engine_num_channels); F(nxp_metadata, scalar_engine_clock_freq);
	F(nxp_metadata, scalar_engine_num_channels); F(nxp_metadata, gpsimd_engine_clock_freq);
	F(nxp_metadata, gpsimd_engine_num_channels); F(nxp_metadata, neuroncore_clock_freq);
	F(nxp_metadata, ticks_per_nanosec); F(nxp_metadata, arch); F(nxp_metadata, instance_type);
	F(nxp_metadata, runtime_version); F(nxp_metadata, collectives_version); F(nxp_metadata, driver_version);
	F(nxp_metadata, compiler_version); F(nxp_metadata, profile_name); F(nxp_metadata, neuroncore_idx);
	F(nxp_metadata, neuron_device_idx); F(nxp_metadata, capture_time_ns); F(nxp_metadata, is_simulation);
	F(nxp_metadata, neff_uuid); F(nxp_metadata, neff_hash); F(nxp_metadata, trace_count);
	F(nxp_metadata, event_count); F(nxp_metadata, tpb_start_ts); F(nxp_metadata, tpb_stop_ts);
	F(nxp_metadata, unknown_sections);
	F(nxp_metadata, tpb_damaged);
	end();

	S(nxp_instruction);
	F(nxp_instruction, struct_size); F(nxp_instruction, start_ts); F(nxp_instruction, end_ts);
	F(nxp_instruction, duration_ns); F(nxp_instruction, engine); F(nxp_instruction, engine_id);
	F(nxp_instruction, pcore_idx); F(nxp_instruction, opcode); F(nxp_instruction, opcode_num);
	F(nxp_instruction, operands); F(nxp_instruction, id); F(nxp_instruction, pc);
	F(nxp_instruction, evt_wait_time_ns); F(nxp_instruction, execution_index);
	F(nxp_instruction, hbm_read_bytes); F(nxp_instruction, hbm_write_bytes); F(nxp_instruction, sbuf_read_bytes);
	F(nxp_instruction, sbuf_write_bytes); F(nxp_instruction, spill_save_bytes);
	F(nxp_instruction, spill_reload_bytes); F(nxp_instruction, psum_read_bytes);
	F(nxp_instruction, psum_write_bytes); F(nxp_instruction, psum_read_sbuf_write_bytes);
	F(nxp_instruction, tensor_instruction_type); F(nxp_instruction, tensor_elements);
	F(nxp_instruction, raw_flops); F(nxp_instruction, adjusted_flops);
	F(nxp_instruction, tensor_elements_transpose); F(nxp_instruction, flops_transpose);
	F(nxp_instruction, adjusted_flops_transpose); F(nxp_instruction, scalar_activation_fn);
	F(nxp_instruction, performance_mode); F(nxp_instruction, flags);
	end();

	S(nxp_dma_packet);
	F(nxp_dma_packet, struct_size); F(nxp_dma_packet, start_ts); F(nxp_dma_packet, end_ts);
	F(nxp_dma_packet, duration_ns); F(nxp_dma_packet, pcore_idx); F(nxp_dma_packet, id);
	F(nxp_dma_packet, packet_idx); F(nxp_dma_packet, packet_aggregation_id); F(nxp_dma_packet, engine_idx);
	F(nxp_dma_packet, read_bytes); F(nxp_dma_packet, write_bytes); F(nxp_dma_packet, transfer_bytes);
	F(nxp_dma_packet, throughput); F(nxp_dma_packet, queue_type); F(nxp_dma_packet, variable);
	F(nxp_dma_packet, queue_name); F(nxp_dma_packet, queue_idx); F(nxp_dma_packet, crc);
	F(nxp_dma_packet, execution_index); F(nxp_dma_packet, source); F(nxp_dma_packet, dest);
	end();

	S(nxp_semaphore_update);
	F(nxp_semaphore_update, struct_size); F(nxp_semaphore_update, timestamp); F(nxp_semaphore_update, id);
	F(nxp_semaphore_update, semaphore_idx); F(nxp_semaphore_update, value);
	F(nxp_semaphore_update, update_source); F(nxp_semaphore_update, double_set_or_clear);
	F(nxp_semaphore_update, update_mode); F(nxp_semaphore_update, update_operation_type);
	F(nxp_semaphore_update, update_trigger_timing); F(nxp_semaphore_update, pcore_idx);
	end();

	S(nxp_throttle);
	F(nxp_throttle, struct_size); F(nxp_throttle, timestamp); F(nxp_throttle, duration); F(nxp_throttle, k);
	F(nxp_throttle, n); F(nxp_throttle, type); F(nxp_throttle, pcore_idx);
	end();

	S(nxp_error_record);
	F(nxp_error_record, struct_size); F(nxp_error_record, timestamp); F(nxp_error_record, type);
	F(nxp_error_record, error_type_id); F(nxp_error_record, description); F(nxp_error_record, metadata);
	F(nxp_error_record, metadata_hex); F(nxp_error_record, pcore_idx);
	end();

	S(nxp_execution);
	F(nxp_execution, struct_size); F(nxp_execution, execution_index); F(nxp_execution, neff_name);
	F(nxp_execution, execution_start_ts); F(nxp_execution, execution_end_ts); F(nxp_execution, num_subgraphs);
	F(nxp_execution, row_count); F(nxp_execution, pcore_idx);
	end();

	S(nxp_active_time);
	F(nxp_active_time, struct_size); F(nxp_active_time, start_ts); F(nxp_active_time, end_ts);
	F(nxp_active_time, duration_ns); F(nxp_active_time, engine); F(nxp_active_time, engine_id);
	F(nxp_active_time, pcore_idx);
	end();

	S(nxp_cursor_options);
	F(nxp_cursor_options, struct_size); F(nxp_cursor_options, start_ts); F(nxp_cursor_options, end_ts);
	F(nxp_cursor_options, engine); F(nxp_cursor_options, pcore_idx); F(nxp_cursor_options, queue_name);
	end();

	S(nxp_cursor_stats);
	F(nxp_cursor_stats, struct_size); F(nxp_cursor_stats, records); F(nxp_cursor_stats, bad_records);
	F(nxp_cursor_stats, skipped_sections); F(nxp_cursor_stats, bytes_read); F(nxp_cursor_stats, last_bad_offset);
	F(nxp_cursor_stats, unknown_pcs);
	end();

	S(nxp_ntff_writer_options);
	F(nxp_ntff_writer_options, struct_size); F(nxp_ntff_writer_options, flags);
	F(nxp_ntff_writer_options, records_per_section); F(nxp_ntff_writer_options, compression_level);
	end();

	S(nxp_ntff_info);
	F(nxp_ntff_info, struct_size); F(nxp_ntff_info, neff_uuid); F(nxp_ntff_info, neff_hash);
	F(nxp_ntff_info, ntff_version); F(nxp_ntff_info, ticks_per_nanosec); F(nxp_ntff_info, num_physical_cores);
	F(nxp_ntff_info, arch); F(nxp_ntff_info, instance_type); F(nxp_ntff_info, runtime_version);
	F(nxp_ntff_info, collectives_version); F(nxp_ntff_info, driver_version); F(nxp_ntff_info, compiler_version);
	F(nxp_ntff_info, profile_name); F(nxp_ntff_info, tensor_engine_clock_freq);
	F(nxp_ntff_info, vector_engine_clock_freq); F(nxp_ntff_info, scalar_engine_clock_freq);
	F(nxp_ntff_info, gpsimd_engine_clock_freq); F(nxp_ntff_info, neuroncore_clock_freq);
	F(nxp_ntff_info, tensor_engine_num_rows); F(nxp_ntff_info, tensor_engine_num_cols);
	F(nxp_ntff_info, vector_engine_num_channels); F(nxp_ntff_info, scalar_engine_num_channels);
	F(nxp_ntff_info, gpsimd_engine_num_channels); F(nxp_ntff_info, num_dma_engines_per_neuroncore);
	F(nxp_ntff_info, dma_ddr_bandwidth); F(nxp_ntff_info, hbm_ddr_bandwidth); F(nxp_ntff_info, neuroncore_idx);
	F(nxp_ntff_info, neuron_device_idx); F(nxp_ntff_info, capture_time_ns); F(nxp_ntff_info, is_simulation);
	end();

	S(nxp_ntff_queue);
	F(nxp_ntff_queue, struct_size); F(nxp_ntff_queue, kind); F(nxp_ntff_queue, engine);
	F(nxp_ntff_queue, pcore_idx); F(nxp_ntff_queue, name); F(nxp_ntff_queue, queue_idx);
	F(nxp_ntff_queue, engine_idx);
	end();

	S(nxp_ntff_instruction_note);
	F(nxp_ntff_instruction_note, start_tick); F(nxp_ntff_instruction_note, end_tick);
	F(nxp_ntff_instruction_note, pc); F(nxp_ntff_instruction_note, wait_ticks);
	F(nxp_ntff_instruction_note, execution_index);
	end();

	S(nxp_ntff_dma_note);
	F(nxp_ntff_dma_note, start_tick); F(nxp_ntff_dma_note, end_tick); F(nxp_ntff_dma_note, packet_aggregation_id);
	F(nxp_ntff_dma_note, packet_idx); F(nxp_ntff_dma_note, read_bytes); F(nxp_ntff_dma_note, write_bytes);
	F(nxp_ntff_dma_note, crc); F(nxp_ntff_dma_note, flags); F(nxp_ntff_dma_note, source);
	F(nxp_ntff_dma_note, dest); F(nxp_ntff_dma_note, execution_index); F(nxp_ntff_dma_note, variable);
	end();

	S(nxp_ntff_semaphore_note);
	F(nxp_ntff_semaphore_note, tick); F(nxp_ntff_semaphore_note, semaphore_idx);
	F(nxp_ntff_semaphore_note, update_source); F(nxp_ntff_semaphore_note, operation);
	F(nxp_ntff_semaphore_note, value); F(nxp_ntff_semaphore_note, trigger_complete);
	F(nxp_ntff_semaphore_note, double_set_or_clear); F(nxp_ntff_semaphore_note, update_mode);
	end();

	S(nxp_ntff_throttle_note);
	F(nxp_ntff_throttle_note, tick); F(nxp_ntff_throttle_note, duration_ticks); F(nxp_ntff_throttle_note, k);
	F(nxp_ntff_throttle_note, n); F(nxp_ntff_throttle_note, type);
	end();

	S(nxp_ntff_error_note);
	F(nxp_ntff_error_note, tick); F(nxp_ntff_error_note, error_type_id); F(nxp_ntff_error_note, type);
	F(nxp_ntff_error_note, description); F(nxp_ntff_error_note, metadata);
	end();

	S(nxp_ntff_execution_note);
	F(nxp_ntff_execution_note, start_tick); F(nxp_ntff_execution_note, end_tick);
	F(nxp_ntff_execution_note, execution_index); F(nxp_ntff_execution_note, num_subgraphs);
	F(nxp_ntff_execution_note, neff_name); F(nxp_ntff_execution_note, row_count);
	end();

	S(nxp_ntff_tpb_note);
	F(nxp_ntff_tpb_note, tick); F(nxp_ntff_tpb_note, is_stop);
	end();

	/* summary.h */
	S(nxp_hardware);
	F(nxp_hardware, struct_size); F(nxp_hardware, arch); F(nxp_hardware, tensor_engine_num_rows);
	F(nxp_hardware, tensor_engine_num_cols); F(nxp_hardware, tensor_engine_clock_freq);
	F(nxp_hardware, vector_engine_clock_freq); F(nxp_hardware, scalar_engine_clock_freq);
	F(nxp_hardware, gpsimd_engine_clock_freq); F(nxp_hardware, neuroncore_clock_freq);
	F(nxp_hardware, hbm_bandwidth); F(nxp_hardware, dma_ddr_bandwidth); F(nxp_hardware, fp8_flops_multiplier);
	F(nxp_hardware, num_physical_cores);
	end();

	S(nxp_summary_field);
	F(nxp_summary_field, struct_size); F(nxp_summary_field, name); F(nxp_summary_field, unit);
	F(nxp_summary_field, group); F(nxp_summary_field, kind); F(nxp_summary_field, present);
	F(nxp_summary_field, i); F(nxp_summary_field, f); F(nxp_summary_field, extension);
	F(nxp_summary_field, derived);
	end();

	S(nxp_opcode_summary);
	F(nxp_opcode_summary, struct_size); F(nxp_opcode_summary, engine); F(nxp_opcode_summary, opcode);
	F(nxp_opcode_summary, instruction_count); F(nxp_opcode_summary, instruction_time_ns);
	F(nxp_opcode_summary, active_time_ns); F(nxp_opcode_summary, active_time_percent);
	end();

	S(nxp_throttle_summary);
	F(nxp_throttle_summary, struct_size); F(nxp_throttle_summary, nc_idx); F(nxp_throttle_summary, throttle_type);
	F(nxp_throttle_summary, throttle_active_time_ns); F(nxp_throttle_summary, throttle_active_time_percent);
	F(nxp_throttle_summary, max_achievable_util_with_throttling_percent);
	end();

	/* system.h */
	S(nxp_system_options);
	F(nxp_system_options, struct_size); F(nxp_system_options, flags); F(nxp_system_options, max_message_size);
	F(nxp_system_options, max_json_event); F(nxp_system_options, max_json_depth);
	F(nxp_system_options, max_pending); F(nxp_system_options, instance_id);
	end();

	S(nxp_system_event);
	F(nxp_system_event, struct_size); F(nxp_system_event, id); F(nxp_system_event, name);
	F(nxp_system_event, start_ts); F(nxp_system_event, end_ts); F(nxp_system_event, duration_ns);
	F(nxp_system_event, trace_event_source); F(nxp_system_event, instance_id); F(nxp_system_event, process_id);
	F(nxp_system_event, thread_id); F(nxp_system_event, nc_idx); F(nxp_system_event, pcore_idx);
	F(nxp_system_event, worker_gid); F(nxp_system_event, flow_id); F(nxp_system_event, framework_stream_id);
	F(nxp_system_event, extra_attributes_json); F(nxp_system_event, flags); F(nxp_system_event, phase);
	F(nxp_system_event, category); F(nxp_system_event, pid); F(nxp_system_event, tid);
	F(nxp_system_event, process_name); F(nxp_system_event, thread_name); F(nxp_system_event, tracking_id);
	F(nxp_system_event, nrta_seq_id); F(nxp_system_event, nd_idx); F(nxp_system_event, file);
	F(nxp_system_event, offset);
	end();

	S(nxp_system_stats);
	F(nxp_system_stats, struct_size); F(nxp_system_stats, events); F(nxp_system_stats, neuron_rt);
	F(nxp_system_stats, neuron_hw); F(nxp_system_stats, framework); F(nxp_system_stats, unmatched_starts);
	F(nxp_system_stats, unmatched_stops); F(nxp_system_stats, skipped); F(nxp_system_stats, files);
	F(nxp_system_stats, bytes_read); F(nxp_system_stats, base_time_ns); F(nxp_system_stats, peak_pending);
	end();

	S(nxp_cpu_usage);
	F(nxp_cpu_usage, struct_size); F(nxp_cpu_usage, timestamp); F(nxp_cpu_usage, util_percent);
	F(nxp_cpu_usage, cpu_id); F(nxp_cpu_usage, instance_id);
	end();

	S(nxp_host_mem_usage);
	F(nxp_host_mem_usage, struct_size); F(nxp_host_mem_usage, timestamp); F(nxp_host_mem_usage, used_bytes);
	F(nxp_host_mem_usage, used_percent); F(nxp_host_mem_usage, instance_id); F(nxp_host_mem_usage, total_bytes);
	end();

	S(nxp_system_metadata);
	F(nxp_system_metadata, struct_size); F(nxp_system_metadata, first_ts); F(nxp_system_metadata, last_ts);
	F(nxp_system_metadata, first_ts_ns); F(nxp_system_metadata, last_ts_ns); F(nxp_system_metadata, ntff_version);
	F(nxp_system_metadata, hbm_capacity_bytes); F(nxp_system_metadata, instance_id);
	F(nxp_system_metadata, instance_type); F(nxp_system_metadata, arch); F(nxp_system_metadata, runtime_version);
	F(nxp_system_metadata, driver_version); F(nxp_system_metadata, pid); F(nxp_system_metadata, session_id);
	F(nxp_system_metadata, logical_nc_size); F(nxp_system_metadata, num_neuron_cores);
	F(nxp_system_metadata, data_version);
	end();

	S(nxp_capture_file);
	F(nxp_capture_file, struct_size); F(nxp_capture_file, path); F(nxp_capture_file, kind);
	F(nxp_capture_file, size); F(nxp_capture_file, process_index); F(nxp_capture_file, name_hash);
	F(nxp_capture_file, nc_idx); F(nxp_capture_file, vnc); F(nxp_capture_file, session);
	F(nxp_capture_file, instid); F(nxp_capture_file, has_uuid); F(nxp_capture_file, uuid);
	end();

	S(nxp_capture_process);
	F(nxp_capture_process, struct_size); F(nxp_capture_process, dir); F(nxp_capture_process, instance_id);
	F(nxp_capture_process, pid); F(nxp_capture_process, timestamp); F(nxp_capture_process, ntrace);
	F(nxp_capture_process, trace_info); F(nxp_capture_process, cpu_util); F(nxp_capture_process, host_mem);
	F(nxp_capture_process, trace_json); F(nxp_capture_process, complete);
	end();

	S(nxp_capture_profile);
	F(nxp_capture_profile, struct_size); F(nxp_capture_profile, neff); F(nxp_capture_profile, ntff);
	F(nxp_capture_profile, process_index); F(nxp_capture_profile, pairing); F(nxp_capture_profile, nc_idx);
	end();

	S(nxp_sysprof_writer_options);
	F(nxp_sysprof_writer_options, struct_size); F(nxp_sysprof_writer_options, stream);
	F(nxp_sysprof_writer_options, chunk_events); F(nxp_sysprof_writer_options, arch);
	F(nxp_sysprof_writer_options, pid); F(nxp_sysprof_writer_options, session_id);
	F(nxp_sysprof_writer_options, data_version); F(nxp_sysprof_writer_options, logical_nc_size);
	F(nxp_sysprof_writer_options, instance_id);
	end();

	S(nxp_ntrace_event);
	F(nxp_ntrace_event, struct_size); F(nxp_ntrace_event, timestamp); F(nxp_ntrace_event, name);
	F(nxp_ntrace_event, phase); F(nxp_ntrace_event, duration); F(nxp_ntrace_event, nc_idx);
	F(nxp_ntrace_event, nd_idx); F(nxp_ntrace_event, thread_id); F(nxp_ntrace_event, id);
	F(nxp_ntrace_event, parent_id); F(nxp_ntrace_event, tracking_id); F(nxp_ntrace_event, nrta_seq_id);
	F(nxp_ntrace_event, data); F(nxp_ntrace_event, status); F(nxp_ntrace_event, event_type);
	F(nxp_ntrace_event, attributes); F(nxp_ntrace_event, n_attributes);
	end();

	/* arrow.h, table.h */
	begin("ArrowSchema", sizeof(struct ArrowSchema), alignof(struct ArrowSchema));
	F(struct ArrowSchema, format); F(struct ArrowSchema, name); F(struct ArrowSchema, metadata);
	F(struct ArrowSchema, flags); F(struct ArrowSchema, n_children); F(struct ArrowSchema, children);
	F(struct ArrowSchema, dictionary); F(struct ArrowSchema, release); F(struct ArrowSchema, private_data);
	end();

	begin("ArrowArray", sizeof(struct ArrowArray), alignof(struct ArrowArray));
	F(struct ArrowArray, length); F(struct ArrowArray, null_count); F(struct ArrowArray, offset);
	F(struct ArrowArray, n_buffers); F(struct ArrowArray, n_children); F(struct ArrowArray, buffers);
	F(struct ArrowArray, children); F(struct ArrowArray, dictionary); F(struct ArrowArray, release);
	F(struct ArrowArray, private_data);
	end();

	begin("ArrowArrayStream", sizeof(struct ArrowArrayStream), alignof(struct ArrowArrayStream));
	F(struct ArrowArrayStream, get_schema); F(struct ArrowArrayStream, get_next);
	F(struct ArrowArrayStream, get_last_error); F(struct ArrowArrayStream, release);
	F(struct ArrowArrayStream, private_data);
	end();

	S(nxp_table_options);
	F(nxp_table_options, struct_size); F(nxp_table_options, columns); F(nxp_table_options, start_ts);
	F(nxp_table_options, end_ts); F(nxp_table_options, engine); F(nxp_table_options, pcore_idx);
	F(nxp_table_options, queue_name); F(nxp_table_options, batch_rows);
	end();

	S(nxp_parquet_options);
	F(nxp_parquet_options, struct_size); F(nxp_parquet_options, codec); F(nxp_parquet_options, level);
	F(nxp_parquet_options, row_group_bytes); F(nxp_parquet_options, overwrite);
	F(nxp_parquet_options, key_values);
	end();

	S(nxp_export_options);
	F(nxp_export_options, struct_size); F(nxp_export_options, tables); F(nxp_export_options, codec);
	F(nxp_export_options, level); F(nxp_export_options, overwrite); F(nxp_export_options, progress);
	F(nxp_export_options, progress_user); F(nxp_export_options, threads); F(nxp_export_options, report);
	end();

	S(nxp_export_report);
	F(nxp_export_report, struct_size); F(nxp_export_report, skipped_records);
	F(nxp_export_report, skipped_sections); F(nxp_export_report, tables_written);
	end();

	/* timeline.h (0.2) */
	S(nxp_timeline_options);
	F(nxp_timeline_options, struct_size); F(nxp_timeline_options, format); F(nxp_timeline_options, start_ts);
	F(nxp_timeline_options, end_ts); F(nxp_timeline_options, engine); F(nxp_timeline_options, execution);
	F(nxp_timeline_options, max_events); F(nxp_timeline_options, counter_window_ns);
	F(nxp_timeline_options, gzip); F(nxp_timeline_options, overwrite);
	F(nxp_timeline_options, system_primary_group); F(nxp_timeline_options, system_secondary_group);
	F(nxp_timeline_options, combined); F(nxp_timeline_options, device_flows);
	end();

	S(nxp_timeline_stats);
	F(nxp_timeline_stats, struct_size); F(nxp_timeline_stats, events); F(nxp_timeline_stats, tracks);
	F(nxp_timeline_stats, bytes); F(nxp_timeline_stats, truncated); F(nxp_timeline_stats, read_errors);
	F(nxp_timeline_stats, bad_records); F(nxp_timeline_stats, input_bytes);
	F(nxp_timeline_stats, skipped_sections); F(nxp_timeline_stats, flows);
	F(nxp_timeline_stats, unplaced_profiles);
	end();

	/* analysis.h (0.2) */
	S(nxp_flow);
	F(nxp_flow, struct_size); F(nxp_flow, in_id); F(nxp_flow, out_id); F(nxp_flow, in_table);
	F(nxp_flow, out_table); F(nxp_flow, dependency_type); F(nxp_flow, gap_time); F(nxp_flow, kind);
	F(nxp_flow, in_table_id); F(nxp_flow, out_table_id); F(nxp_flow, exact); F(nxp_flow, in_ts);
	F(nxp_flow, out_ts); F(nxp_flow, pcore_idx);
	end();

	S(nxp_flow_options);
	F(nxp_flow_options, struct_size); F(nxp_flow_options, start_ts); F(nxp_flow_options, end_ts);
	F(nxp_flow_options, pcore_idx); F(nxp_flow_options, window_ns);
	end();

	S(nxp_critical_path_options);
	F(nxp_critical_path_options, struct_size); F(nxp_critical_path_options, execution_index);
	F(nxp_critical_path_options, pcore_idx);
	end();

	S(nxp_critical_step);
	F(nxp_critical_step, struct_size); F(nxp_critical_step, table); F(nxp_critical_step, id);
	F(nxp_critical_step, start_ts); F(nxp_critical_step, end_ts); F(nxp_critical_step, resource);
	F(nxp_critical_step, label); F(nxp_critical_step, via); F(nxp_critical_step, ns);
	end();

	S(nxp_critical_resource);
	F(nxp_critical_resource, struct_size); F(nxp_critical_resource, resource); F(nxp_critical_resource, ns);
	F(nxp_critical_resource, busy_ns); F(nxp_critical_resource, slack_ns);
	end();

	S(nxp_insight_evidence);
	F(nxp_insight_evidence, name); F(nxp_insight_evidence, value); F(nxp_insight_evidence, unit);
	end();

	S(nxp_insight);
	F(nxp_insight, struct_size); F(nxp_insight, rule); F(nxp_insight, severity_level); F(nxp_insight, severity);
	F(nxp_insight, message); F(nxp_insight, recommendation); F(nxp_insight, start_ts); F(nxp_insight, end_ts);
	F(nxp_insight, evidence); F(nxp_insight, evidence_count);
	end();

	S(nxp_comparison_row);
	F(nxp_comparison_row, struct_size); F(nxp_comparison_row, profile_index); F(nxp_comparison_row, ntff_path);
	F(nxp_comparison_row, instance_id); F(nxp_comparison_row, process_id); F(nxp_comparison_row, nc_idx);
	F(nxp_comparison_row, total_ns); F(nxp_comparison_row, gap_ns); F(nxp_comparison_row, mfu_present);
	F(nxp_comparison_row, mfu); F(nxp_comparison_row, engine_active_ns); F(nxp_comparison_row, dma_active_ns);
	F(nxp_comparison_row, dma_bytes); F(nxp_comparison_row, throttle_ns);
	F(nxp_comparison_row, host_execute_count); F(nxp_comparison_row, host_execute_total_ns);
	F(nxp_comparison_row, host_execute_max_ns); F(nxp_comparison_row, host_start_skew_ns);
	F(nxp_comparison_row, explaining_figure); F(nxp_comparison_row, explaining_delta_ns);
	F(nxp_comparison_row, status);
	end();
}

static void constants(void)
{
	C(NXP_VERSION_MAJOR); C(NXP_VERSION_MINOR); C(NXP_VERSION_PATCH); C(NXP_VERSION_NUMBER);
	C(NXP_STATUS_MESSAGE_MAX);
	/* nxp_error */
	C(NXP_OK); C(NXP_END); C(NXP_E_INVAL); C(NXP_E_NOMEM); C(NXP_E_IO); C(NXP_E_TRUNCATED);
	C(NXP_E_FORMAT); C(NXP_E_VERSION); C(NXP_E_LIMIT); C(NXP_E_HASH); C(NXP_E_CRC); C(NXP_E_MISMATCH);
	C(NXP_E_NOT_FOUND); C(NXP_E_UNSAFE_PATH); C(NXP_E_JSON); C(NXP_E_UNSUPPORTED); C(NXP_E_COMPRESSION);
	C(NXP_E_RANGE); C(NXP_E_PROTOBUF);
	/* neff.h */
	C(NXP_NEFF_HEADER_SIZE); C(NXP_NEFF_INSTRUCTION_SIZE); C(NXP_NEFF_INSTRUCTION_MIN_SIZE);
	C(NXP_ENGINE_TENSOR); C(NXP_ENGINE_VECTOR); C(NXP_ENGINE_SCALAR); C(NXP_ENGINE_GPSIMD); C(NXP_ENGINE_SYNC);
	C(NXP_ENGINE_COUNT);
	C(NXP_NEFF_VERIFY_HASH);
	C(NXP_MEMORY_NONE); C(NXP_MEMORY_SBUF); C(NXP_MEMORY_PSUM); C(NXP_MEMORY_HBM);
	C(NXP_NEFF_WRITE_PLAIN_TAR); C(NXP_NEFF_WRITE_DOT_SLASH);
	/* ntff.h */
	C(NXP_PROFILE_ALLOW_MISMATCH); C(NXP_PROFILE_SKIP_CRC);
	C(NXP_TABLE_INSTRUCTION); C(NXP_TABLE_DMA_PACKET); C(NXP_TABLE_SEMAPHORE_UPDATE); C(NXP_TABLE_THROTTLE);
	C(NXP_TABLE_ERROR); C(NXP_TABLE_EXECUTION); C(NXP_TABLE_ACTIVE_TIME);
	C(NXP_INSTRUCTION_PC_UNKNOWN);
	C(NXP_QUEUE_INSTRUCTION); C(NXP_QUEUE_DMA); C(NXP_QUEUE_SEMAPHORE); C(NXP_QUEUE_THROTTLE);
	C(NXP_QUEUE_ERROR); C(NXP_QUEUE_EXECUTION); C(NXP_QUEUE_TPB);
	C(NXP_NTFF_WRITE_COMPRESS);
	C(NXP_DMA_SOFTWARE_DYNAMIC); C(NXP_DMA_HARDWARE_DYNAMIC);
	/* summary.h */
	C(NXP_VALUE_INT); C(NXP_VALUE_FLOAT); C(NXP_HARDWARE_MIN_SIZE);
	/* system.h */
	C(NXP_SYSFILE_AUTO); C(NXP_SYSFILE_NTRACE); C(NXP_SYSFILE_TRACE_INFO); C(NXP_SYSFILE_CPU_UTIL);
	C(NXP_SYSFILE_HOST_MEM); C(NXP_SYSFILE_TRACE_JSON); C(NXP_SYSFILE_NEFF); C(NXP_SYSFILE_NTFF);
	C(NXP_SYSTEM_NO_PAIRING); C(NXP_SYSTEM_NO_PRESCAN);
	C(NXP_SYSEV_UNMATCHED_START); C(NXP_SYSEV_UNMATCHED_STOP); C(NXP_SYSEV_HARDWARE); C(NXP_SYSEV_SOFTWARE);
	C(NXP_SYSEV_NO_BASE_TIME); C(NXP_SYSEV_UNPAIRED);
	C(NXP_PAIRED_NONE); C(NXP_PAIRED_BY_UUID); C(NXP_PAIRED_BY_NAME); C(NXP_PAIRED_SOLE);
	C(NXP_NTRACE_PHASE_NONE); C(NXP_NTRACE_PHASE_START); C(NXP_NTRACE_PHASE_STOP); C(NXP_NTRACE_PHASE_INSTANT);
	/* table.h */
	C(NXP_PARQUET_ZSTD); C(NXP_PARQUET_GZIP); C(NXP_PARQUET_NONE);
	/* nxp.h file kinds (0.2) */
	C(NXP_FILE_UNKNOWN); C(NXP_FILE_EMPTY); C(NXP_FILE_DIRECTORY); C(NXP_FILE_NEFF); C(NXP_FILE_NTFF);
	C(NXP_FILE_JSON); C(NXP_FILE_JSON_GZIP); C(NXP_FILE_GZIP); C(NXP_FILE_PROTOBUF); C(NXP_FILE_STREAM);
	/* timeline.h (0.2) */
	C(NXP_TIMELINE_PERFETTO); C(NXP_TIMELINE_CHROME_JSON);
	/* analysis.h (0.2) */
	C(NXP_FLOW_SEMAPHORE_WAIT); C(NXP_FLOW_DMA_TRIGGER); C(NXP_FLOW_DMA_COMPLETION);
	C(NXP_FLOW_SEMAPHORE_SIGNAL); C(NXP_FLOW_DEFAULT_WINDOW_NS); C(NXP_FLOW_WAITED_ON); C(NXP_FLOW_UNBLOCKED);
	C(NXP_SEVERITY_INFO); C(NXP_SEVERITY_WARNING); C(NXP_SEVERITY_CRITICAL);
}

int main(int argc, char **argv)
{
	lines_mode = argc > 1 && strcmp(argv[1], "--lines") == 0;
	if (argc > 1 && !lines_mode) {
		fprintf(stderr, "usage: abi_layout [--lines]\n");
		return 2;
	}
	if (!lines_mode)
		printf("{\n  \"structs\": {");
	structs();
	if (!lines_mode)
		printf("\n  },\n  \"constants\": {");
	constants();
	if (!lines_mode)
		printf("\n  }\n}\n");
	return 0;
}
