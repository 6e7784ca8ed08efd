package io.strata.redis.scripting;

import org.luaj.vm2.Prototype;

/**
 * A script of the cache: its SHA1 (lower-case hex), its body as sent, its shebang flags and
 * its compiled code. Immutable, so runs on any number of threads share it.
 */
public record CompiledScript(String sha, byte[] body, ScriptFlags flags, Prototype code) {
}
