/**
 * Lua scripting (EVAL, EVALSHA, their _RO forms and SCRIPT) on luaj, with Redis 7.0's API
 * ({@code redis.call} and friends), sandbox and conversions. A script runs on a scripting
 * thread inside one database transaction, so what it does is atomic exactly as EXEC is.
 */
package io.strata.redis.scripting;
