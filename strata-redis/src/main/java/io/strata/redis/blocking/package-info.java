/**
 * Commands that wait for keys (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP): the queues of this
 * process's blocked clients, woken by FoundationDB watches on the keys' change stamps
 * ({@code BlockedClients}), and the timeout argument ({@code BlockTimeout}). Knows no data
 * type: a command brings what it tries each time ({@code BlockingAttempt}).
 */
package io.strata.redis.blocking;
