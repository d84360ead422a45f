// Static gas by opcode (Prague), charged by the dispatch loop before each instruction; dynamic parts
// (memory expansion, EIP-2929 access, EXP's exponent bytes, SSTORE) are charged by the instruction.
// Opcodes this interpreter does not implement cost 0 here: the loop stops on them before any charge
// matters (the host runs the call in @ethereumjs/evm instead).

import { GAS_TABLE } from './layout'

function set(op: u32, gas: u32): void {
  store<u32>(GAS_TABLE + ((<usize>op) << 2), gas)
}

function setRange(first: u32, last: u32, gas: u32): void {
  for (let op = first; op <= last; op++) set(op, gas)
}

export function initGasTable(): void {
  memory.fill(GAS_TABLE, 0, 256 * 4)
  set(0x00, 0) // STOP
  set(0x01, 3) // ADD
  set(0x02, 5) // MUL
  set(0x03, 3) // SUB
  setRange(0x04, 0x07, 5) // DIV SDIV MOD SMOD
  set(0x0a, 10) // EXP (+ 50 an exponent byte)
  set(0x0b, 5) // SIGNEXTEND
  setRange(0x10, 0x1d, 3) // LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR
  set(0x30, 2) // ADDRESS
  set(0x33, 2) // CALLER
  set(0x34, 2) // CALLVALUE
  set(0x35, 3) // CALLDATALOAD
  set(0x36, 2) // CALLDATASIZE
  set(0x50, 2) // POP
  setRange(0x51, 0x53, 3) // MLOAD MSTORE MSTORE8 (+ memory expansion)
  set(0x54, 0) // SLOAD: 2100 cold, 100 warm
  set(0x55, 0) // SSTORE: EIP-2200/2929/3529
  set(0x56, 8) // JUMP
  set(0x57, 10) // JUMPI
  set(0x58, 2) // PC
  set(0x59, 2) // MSIZE
  set(0x5a, 2) // GAS
  set(0x5b, 1) // JUMPDEST
  set(0x5f, 2) // PUSH0
  setRange(0x60, 0x7f, 3) // PUSH1..PUSH32
  setRange(0x80, 0x8f, 3) // DUP1..DUP16
  setRange(0x90, 0x9f, 3) // SWAP1..SWAP16
  set(0xf3, 0) // RETURN (+ memory expansion)
  set(0xfd, 0) // REVERT (+ memory expansion)
  set(0xfe, 0) // INVALID: all gas
}

export function staticGas(op: u32): u32 {
  return load<u32>(GAS_TABLE + ((<usize>(op & 0xff)) << 2))
}
