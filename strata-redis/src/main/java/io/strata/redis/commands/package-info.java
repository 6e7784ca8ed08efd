/**
 * Redis's commands, one class per group (connection, transactions, strings, keys, server, …),
 * each registering its commands into the table with Redis 7.0's arity, flags and categories.
 */
package io.strata.redis.commands;
