/**
 * Access control lists as Redis 7.0 has them: users with passwords, key and channel patterns,
 * command and category rules and selectors ({@link io.strata.redis.acl.AclRules} applies the
 * rules, {@link io.strata.redis.acl.AclDescriber} writes them back), compiled into
 * {@link io.strata.redis.acl.Permissions} for the check every request passes, kept in the
 * database by {@link io.strata.redis.acl.AclStore} so that every server on one database has
 * the same users, and served by {@link io.strata.redis.acl.AccessControl}.
 */
package io.strata.redis.acl;
