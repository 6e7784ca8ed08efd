package com.apple.foundationdb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Checks network options as FoundationDB 7.3's client checks them
 * ({@code MultiVersionApi::setNetworkOptionInternal} and NativeAPI's {@code setNetworkOption}),
 * so that a program that sets a bad option fails here as it would on a cluster, with the same
 * error: 2007 {@code invalid_option} for an unknown option or one that is too late once the
 * network started, 2006 {@code invalid_option_value} for a bad value, 1511
 * {@code file_not_found} for an external client library that is not there.
 *
 * <p>A valid option has no effect: the embedded engine writes no trace files, opens no TLS
 * connections and loads no external clients. Integer values are fdb-java's 8-byte
 * little-endian encoding; strings are UTF-8.
 */
final class NetworkOptionRules {
    private static final int FILE_NOT_FOUND = 1511;
    private static final int INVALID_OPTION_VALUE = 2006;
    private static final int INVALID_OPTION = 2007;
    /** CLIENT_KNOBS->TRACE_LOG_FILE_IDENTIFIER_MAX_LENGTH. */
    private static final int TRACE_FILE_IDENTIFIER_MAX_LENGTH = 50;

    private NetworkOptionRules() {}

    /**
     * @param started whether the network was started (FoundationDB refuses some options then)
     * @throws FDBException with FoundationDB's code when the client would refuse the option
     */
    static void validate(int code, byte[] value, boolean started) {
        switch (code) {
            // Options without a value; a value is refused.
            case 60, 61 -> {                       // disable_multi_version_client_api, callbacks_on_external_threads
                absent(code, value);
                tooLateAfterStart(code, started);
            }
            case 64 -> {                           // disable_local_client
                absent(code, value);
                tooLateAfterStart(code, started);
            }
            case 37, 68, 69, 67, 70, 71 -> absent(code, value);
            // trace_share_among_client_threads, ignore_external_client_failures, fail_incompatible_client,
            // retain_client_library_copies, disable_client_statistics_logging, enable_run_loop_profiling

            // Options taking a value that must be there.
            case 62, 66 -> {                       // external_client_library, future_version_client_library
                String path = nonEmpty(code, value);
                Path file = Path.of(path);
                if (file.getFileName() == null || !Files.exists(file)) {
                    throw new FDBException("File not found: external client library " + path, FILE_NOT_FOUND);
                }
                tooLateAfterStart(code, started);
            }
            case 63 -> {                           // external_client_directory
                nonEmpty(code, value);
                tooLateAfterStart(code, started);
            }
            case 65 -> {                           // client_threads_per_version
                nonEmpty(code, value);
                tooLateAfterStart(code, started);
                integer(code, value, 1, 1024);
            }
            case 91 -> nonEmpty(code, value);      // client_tmp_dir
            case 31, 32 -> integer(code, value, 0, Long.MAX_VALUE); // trace_roll_size, trace_max_logs_size
            case 34 -> {                           // trace_format
                String format = present(code, value).toLowerCase(Locale.ROOT);
                if (!format.equals("xml") && !format.equals("json")) {
                    throw invalid(code, "unrecognized trace format `" + format + "'");
                }
            }
            case 35 -> {                           // trace_clock_source
                String source = present(code, value).toLowerCase(Locale.ROOT);
                if (!source.equals("now") && !source.equals("realtime")) {
                    throw invalid(code, "unrecognized trace clock source `" + source + "'");
                }
            }
            case 36 -> {                           // trace_file_identifier
                String id = present(code, value);
                if (id.length() > TRACE_FILE_IDENTIFIER_MAX_LENGTH) {
                    throw invalid(code, "trace file identifier provided is too long");
                }
                if (!id.matches("[a-zA-Z0-9_]*")) {
                    throw invalid(code, "trace file identifier should only contain alphanumerics and underscores");
                }
            }
            case 39, 41, 42, 43, 45, 46, 47, 52, 53, 54 -> present(code, value);
            // trace_partial_file_suffix and the TLS options: plugin, cert/key/CA bytes and paths,
            // password, verify peers
            case 40 -> {                           // knob: NAME=VALUE; an unknown knob is ignored, as FoundationDB does
                if (present(code, value).indexOf('=') < 0) {
                    throw invalid(code, "knob must be NAME=VALUE");
                }
            }
            case 82, 83 -> integer(code, value, 0, 100); // client_buggify_section_*_probability
            case 90 -> {                           // distributed_client_tracer
                String tracer = present(code, value);
                switch (tracer) {
                    case "none", "disabled", "logfile", "file", "log_file", "network_lossy" -> {
                    }
                    default -> throw invalid(code, "unknown or unsupported tracer `" + tracer + "'");
                }
            }
            // Accepted as given: local_address and cluster_file (deprecated), trace_enable, trace_log_group,
            // trace_initialize_on_setup, the deprecated Buggify_* options, client_buggify_enable/disable,
            // supported_client_versions, external_client, external_client_transport_id.
            case 10, 20, 30, 33, 38, 48, 49, 50, 51, 80, 81, 1000, 1001, 1002 -> {
            }
            // disable_client_bypass: refused once the network started (the multi-version API is bypassed then).
            case 72 -> tooLateAfterStart(code, started);
            default -> throw new FDBException("Option not valid in this context: unknown network option " + code, INVALID_OPTION);
        }
    }

    private static void tooLateAfterStart(int code, boolean started) {
        if (started) {
            throw new FDBException("Option not valid in this context: network option " + code
                    + " must be set before the network starts", INVALID_OPTION);
        }
    }

    private static void absent(int code, byte[] value) {
        if (value != null && value.length > 0) {
            throw invalid(code, "it takes no value");
        }
    }

    private static String present(int code, byte[] value) {
        if (value == null) {
            throw invalid(code, "it needs a value");
        }
        return new String(value, StandardCharsets.UTF_8);
    }

    private static String nonEmpty(int code, byte[] value) {
        if (value == null || value.length == 0) {
            throw invalid(code, "it needs a non-empty value");
        }
        return new String(value, StandardCharsets.UTF_8);
    }

    private static void integer(int code, byte[] value, long min, long max) {
        if (value == null || value.length != 8) {
            throw invalid(code, "it needs an 8-byte integer");
        }
        long n = 0;
        for (int i = 7; i >= 0; i--) {
            n = (n << 8) | (value[i] & 0xFF);
        }
        if (n < min || n > max) {
            throw invalid(code, "value " + n + " is outside [" + min + ", " + max + "]");
        }
    }

    private static FDBException invalid(int code, String why) {
        return new FDBException("Option set with an invalid value: network option " + code + ": " + why, INVALID_OPTION_VALUE);
    }
}
