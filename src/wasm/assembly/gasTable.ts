// Static gas by opcode, charged by the dispatch loop before each instruction; dynamic parts (memory
// expansion, EXP's exponent bytes, SLOAD's access) are charged by the instruction. The host fills
// the table from its fork's opcode table: the fee of each opcode this interpreter runs, HOST_OP for
// every other (the opcodes it does not implement, and those the fork lacks), which no gas covers:
// the loop then stops with the gas before the instruction, for the host to run it.

import { GAS_TABLE } from './layout'

/** Larger than any gas a frame runs with (MAX_GAS): the instruction goes to the host. */
export const HOST_OP: i64 = (<i64>1) << 62

export function initGasTable(): void {
  for (let op: usize = 0; op < 256; op++) store<i64>(GAS_TABLE + (op << 3), HOST_OP)
}

/** Sets the static gas of an opcode this interpreter runs (HOST_OP: the host runs it). */
export function setStaticGas(op: u32, gas: i64): void {
  store<i64>(GAS_TABLE + ((<usize>(op & 0xff)) << 3), gas)
}

export function staticGas(op: u32): i64 {
  return load<i64>(GAS_TABLE + ((<usize>(op & 0xff)) << 3))
}
