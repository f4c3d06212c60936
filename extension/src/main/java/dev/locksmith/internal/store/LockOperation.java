package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;

/**
 * One operation of the library's Lua files: its script, and the names of its KEYS and ARGV.
 *
 * @param name      the operation, such as {@code acquire}
 * @param script    its script, with the helpers it uses
 * @param signature its KEYS and ARGV as its header names them
 * @param keyCount  how many KEYS a call has besides repeated ones, read off the signature once, so that
 *                  building a call does not consult it
 * @param argCount  how many ARGV a call has besides repeated ones
 */
record LockOperation(String name, LuaScript script, ScriptSignature signature, int keyCount, int argCount) {
    LockOperation(String name, LuaScript script, ScriptSignature signature) {
        this(name, script, signature, signature.fixedKeyCount(), signature.fixedArgCount());
    }
}
