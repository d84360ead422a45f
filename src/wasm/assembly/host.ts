// What the module imports from its host (module "host", this file's name). Keys and values are
// 32 bytes big-endian in linear memory. The storage reads answer 1 when they wrote the value, 0 when
// the host does not have the slot at hand: the run then pauses (NEEDS_STORAGE) for the host to
// fetch it, and the instruction runs again on resume.

/** SLOAD: the slot's current value at `out`. */
export declare function sload(key: usize, out: usize): u32

/** Before an SSTORE: the slot's current value at `out`, its value at the transaction's start at `out` + 32. */
export declare function storageForStore(key: usize, out: usize): u32

/** SSTORE: the new value (its gas paid). */
export declare function sstore(key: usize, value: usize): void
