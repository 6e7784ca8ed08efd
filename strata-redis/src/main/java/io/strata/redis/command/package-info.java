/**
 * How a request becomes a reply: the command table (names, arity, flags, ACL categories),
 * the connection's session, and the executor that runs each data command in a transaction of
 * its own and a MULTI queue in one. Command groups live in {@code io.strata.redis.commands};
 * this package knows none of them.
 */
package io.strata.redis.command;
