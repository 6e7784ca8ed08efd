package com.apple.foundationdb;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/** Network options are checked as FoundationDB 7.3's client checks them, then have no effect. */
class NetworkOptionsTest {
    private FDB fdb;
    private NetworkOptions options;

    @BeforeEach
    void select() {
        fdb = FreshApi.select(730);
        options = fdb.options();
    }

    @AfterEach
    void forget() {
        FreshApi.reset();
    }

    private static void fails(int code, Executable call) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(code));
    }

    @Test
    void optionsProgramsSetOnAClusterAreAccepted() {
        assertThatCode(() -> {
            options.setTraceEnable("/tmp/traces");
            options.setTraceEnable(null);
            options.setTraceFormat("json");
            options.setTraceFormat("XML");
            options.setTraceLogGroup("my-service");
            options.setTraceRollSize(10_000_000);
            options.setTraceMaxLogsSize(100_000_000);
            options.setTraceClockSource("realtime");
            options.setTraceFileIdentifier("svc_1");
            options.setKnob("min_trace_severity=10");
            options.setKnob("no_such_knob=1"); // FoundationDB ignores unknown knobs too
            options.setTLSCertPath("/etc/tls/cert.pem");
            options.setTLSVerifyPeers("Check.Valid=0".getBytes());
            options.setDisableClientStatisticsLogging();
            options.setEnableRunLoopProfiling();
            options.setClientThreadsPerVersion(2);
            options.setDistributedClientTracer("none");
            options.setClientBuggifySectionActivatedProbability(50);
        }).doesNotThrowAnyException();
    }

    @Test
    @SuppressWarnings("deprecation")
    void everyOptionFdbJavaCanSetIsKnown() {
        // Each setter of fdb-java's NetworkOptions, called with a value it accepts: none is
        // "unknown" (2007) to the rules.
        for (java.lang.reflect.Method m : NetworkOptions.class.getDeclaredMethods()) {
            if (!m.getName().startsWith("set") || m.getParameterCount() > 1) {
                continue;
            }
            assertThatCode(() -> {
                try {
                    if (m.getParameterCount() == 0) {
                        m.invoke(options);
                    } else if (m.getParameterTypes()[0] == long.class) {
                        m.invoke(options, 1L);
                    } else if (m.getParameterTypes()[0] == String.class) {
                        m.invoke(options, "now");
                    } else {
                        m.invoke(options, (Object) "now".getBytes());
                    }
                } catch (java.lang.reflect.InvocationTargetException e) {
                    if (e.getCause() instanceof FDBException f && f.getCode() == 2007) {
                        throw new AssertionError(m.getName() + " is unknown", f);
                    }
                }
            }).as(m.getName()).doesNotThrowAnyException();
        }
    }

    @Test
    void badValuesAreInvalidOptionValues() {
        fails(2006, () -> options.setTraceFormat("yaml"));
        fails(2006, () -> options.setTraceClockSource("sundial"));
        fails(2006, () -> options.setTraceFileIdentifier("has space"));
        fails(2006, () -> options.setTraceFileIdentifier("x".repeat(51)));
        fails(2006, () -> options.setTraceRollSize(-1));
        fails(2006, () -> options.setKnob("no_equals_sign"));
        fails(2006, () -> options.setClientThreadsPerVersion(0));
        fails(2006, () -> options.setClientThreadsPerVersion(1025));
        fails(2006, () -> options.setClientBuggifySectionFiredProbability(101));
        fails(2006, () -> options.setDistributedClientTracer("carrier_pigeon"));
        fails(2006, () -> options.setTLSCertPath(null));
        fails(2006, () -> options.setExternalClientDirectory(""));
        fails(2007, () -> options.getOptionConsumer().setOption(9999, null));
    }

    @Test
    void externalClientsMustExistAndComeBeforeTheNetwork(@TempDir Path dir) throws IOException {
        fails(1511, () -> options.setExternalClientLibrary(dir.resolve("libfdb_c.so").toString()));
        Path library = Files.writeString(dir.resolve("libfdb_c.so"), "");
        options.setExternalClientLibrary(library.toString());
        fdb.startNetwork();
        fails(2007, () -> options.setExternalClientLibrary(library.toString()));
        fails(2007, () -> options.setClientThreadsPerVersion(2));
        fails(2007, () -> options.setDisableMultiVersionClientApi());
        options.setTraceFormat("json"); // most options may still be set
    }
}
