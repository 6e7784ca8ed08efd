/**
 * The server's settings as Redis 7.0 names them: every parameter of {@code redis.conf} with
 * Redis's types, checks and error messages ({@code ServerSettings}), the ones that take effect
 * here applied as they change (CONFIG SET, CONFIG REWRITE, {@code --config}).
 */
package io.strata.redis.config;
