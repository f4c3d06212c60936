package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;

/**
 * One operation of the library's Lua files: its script, and the names of its KEYS and ARGV.
 *
 * @param name      the operation, such as {@code acquire}
 * @param script    its script, with the helpers it uses
 * @param signature its KEYS and ARGV as its header names them
 */
record LockOperation(String name, LuaScript script, ScriptSignature signature) {
}
