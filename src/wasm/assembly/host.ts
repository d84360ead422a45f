// What the module imports from its host (module "host", this file's name). Keys and values are
// 32 bytes big-endian in linear memory.

/**
 * SLOAD of a slot not in the slot table, with `gas` left: when the host has the slot's value at hand
 * and `gas` covers the access, it warms the slot, writes the value at `out` and answers the gas the
 * access costs (EIP-2929: warm or cold); else -1, and the instruction is run by the host instead.
 */
export declare function sload(key: usize, out: usize, gas: i64): i64
