// The wasm EVM prototype (issue 37) against @ethereumjs/evm: the same programs on both engines,
// compared on outcome, gas used, refund, return data and storage. The module is compiled from
// src/wasm/assembly by the assemblyscript API in beforeAll (test/src/compileWasmEvm.ts, cached on
// disk by source hash), so the test needs no `npm run build:wasm`.
import { createEVM, getOpcodesForHF } from '@ethereumjs/evm'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { SimpleStateManager } from '@ethereumjs/statemanager'
import { Account, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { beforeAll, describe, expect, it } from 'vitest'
import { compileWasmEvm } from '../../test/src/compileWasmEvm.js'
import type { Hex } from '../types/hex.js'
import { type FrameStorage, loadWasmEvm, type WasmEvm, type WasmStatus } from './loadWasmEvm.js'
import { runWasmFrame } from './runWasmFrame.js'

const TO: Hex = `0x${'ab'.repeat(20)}`
const CALLER: Hex = `0x${'cd'.repeat(20)}`
const MAX = 2n ** 256n - 1n

/** A slot key as the host keys them. */
const slot = (n: bigint) => bytesToHex(setLengthLeft(hexToBytes(`0x${n.toString(16).padStart(2, '0')}`), 32)) as Hex
const word = (n: bigint) => n.toString(16).padStart(64, '0')
const push32 = (n: bigint) => `7f${word(n)}`
const push = (n: number) => `60${n.toString(16).padStart(2, '0')}`
/** Returns the stack's top word: PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURN_TOP = '60005260206000f3'

interface Program {
  code: string
  gasLimit?: bigint
  storage?: Record<Hex, bigint>
  data?: string
  value?: bigint
  isStatic?: boolean
}

interface Outcome {
  status: 'success' | WasmStatus
  gasUsed: bigint
  refund: bigint | undefined
  returnValue: string
  storage: Record<string, string>
}

const ERRORS: Record<string, WasmStatus> = {
  'out of gas': 'outOfGas',
  'invalid JUMP': 'invalidJump',
  'stack underflow': 'stackUnderflow',
  'stack overflow': 'stackOverflow',
  'invalid opcode': 'invalidOpcode',
  'static state change': 'staticStateChange',
  'refund exhausted': 'refundExhausted',
  revert: 'revert',
}

const common = () => new Common({ chain: Mainnet, hardfork: Hardfork.Prague })

async function ethereumjs(program: Program): Promise<Outcome> {
  const stateManager = new SimpleStateManager()
  const evm = await createEVM({ common: common(), stateManager })
  const to = createAddressFromString(TO)
  const caller = createAddressFromString(CALLER)
  await stateManager.putAccount(to, new Account())
  await stateManager.putCode(to, hexToBytes(`0x${program.code}`))
  await stateManager.putAccount(caller, new Account(0n, 10n ** 20n))
  for (const [key, value] of Object.entries(program.storage ?? {}))
    await stateManager.putStorage(to, hexToBytes(key as Hex), hexToBytes(`0x${word(value)}`))
  const result = await evm.runCall({
    caller,
    to,
    gasLimit: program.gasLimit ?? 1_000_000n,
    value: program.value ?? 0n,
    data: hexToBytes(`0x${program.data ?? ''}`),
    isStatic: program.isStatic ?? false,
  })
  const { exceptionError, executionGasUsed, gasRefund, returnValue } = result.execResult
  const error = exceptionError?.error
  const storage: Record<string, string> = {}
  for (const key of Object.keys(program.storage ?? {}).concat([slot(0n), slot(1n), slot(2n)]))
    storage[key] = bytesToHex(setLengthLeft(await stateManager.getStorage(to, hexToBytes(key as Hex)), 32))
  return {
    // 'invalid JUMP at <code hash>/<address>:<pc>'
    status: error === undefined ? 'success' : (ERRORS[error.replace(/ at .*/, '')] ?? (error as WasmStatus)),
    gasUsed: executionGasUsed,
    refund: error === undefined ? (gasRefund ?? 0n) : undefined,
    returnValue: bytesToHex(returnValue),
    storage,
  }
}

/** A FrameStorage over a map; `lazy`: nothing at hand until fetched (each slot paused for once). */
function mapStorage(initial: Record<Hex, bigint>, lazy = false) {
  const values = new Map<Hex, Uint8Array>()
  for (const [key, value] of Object.entries(initial)) values.set(key as Hex, hexToBytes(`0x${word(value)}`))
  const fetched = new Set<Hex>()
  const empty = new Uint8Array(0)
  const storage: FrameStorage = {
    current: (key) => (lazy && !fetched.has(key) ? undefined : (values.get(key) ?? empty)),
    original: (key) => (lazy && !fetched.has(key) ? undefined : (values.get(key) ?? empty)),
    fetch: async (key) => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      fetched.add(key)
    },
  }
  return { storage, values, fetched }
}

let wasmEvm: WasmEvm

async function wasm(program: Program, lazy = false): Promise<Outcome> {
  const { storage, values } = mapStorage(program.storage ?? {}, lazy)
  const result = await runWasmFrame(wasmEvm, {
    code: hexToBytes(`0x${program.code}`),
    address: hexToBytes(TO),
    caller: hexToBytes(CALLER),
    value: program.value ?? 0n,
    data: hexToBytes(`0x${program.data ?? ''}`),
    gasLimit: program.gasLimit ?? 1_000_000n,
    isStatic: program.isStatic ?? false,
    storage,
  })
  for (const [key, value] of result.writes) values.set(key, value)
  const success = result.status === 'stop' || result.status === 'return'
  const out: Record<string, string> = {}
  for (const key of Object.keys(program.storage ?? {}).concat([slot(0n), slot(1n), slot(2n)]))
    out[key] = bytesToHex(setLengthLeft(values.get(key as Hex) ?? new Uint8Array(0), 32))
  return {
    status: success ? 'success' : result.status,
    gasUsed: result.gasUsed,
    refund: success ? result.gasRefund : undefined,
    returnValue: bytesToHex(result.returnValue),
    storage: out,
  }
}

/** Runs the program on both engines and expects the same outcome; returns it. */
async function same(program: Program): Promise<Outcome> {
  const expected = await ethereumjs(program)
  expect(await wasm(program), program.code).toEqual(expected)
  return expected
}

beforeAll(async () => {
  wasmEvm = await loadWasmEvm(await compileWasmEvm())
}, 120_000)

describe('runWasmFrame: the wasm EVM prototype agrees with @ethereumjs/evm', () => {
  it('charges the static gas @ethereumjs/evm charges, for every opcode it implements', async () => {
    // The EVM adds its gas parameters to the Common it is given.
    const { opcodes } = getOpcodesForHF((await createEVM({ common: common() })).common)
    const implemented = [
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
      0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x30, 0x33, 0x34, 0x35, 0x36, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
      0x59, 0x5a, 0x5b, 0x5f, 0xf3, 0xfd, 0xfe,
    ]
    for (let op = 0x60; op <= 0x9f; op++) implemented.push(op)
    for (const op of implemented) expect([op, wasmEvm.exports.staticGas(op)]).toEqual([op, opcodes.get(op)!.fee])
  })

  it('wraps 256-bit arithmetic as the EVM does', async () => {
    const cases: [string, bigint, bigint][] = [
      ['01', MAX, 1n], // ADD: 2^256-1 + 1 = 0
      ['01', MAX, MAX],
      ['02', 2n ** 255n, 2n], // MUL overflow
      ['02', MAX, MAX],
      ['03', 0n, 1n], // SUB underflow (a - b, a on top)
      ['04', 7n, 0n], // DIV by zero
      ['06', 7n, 0n], // MOD by zero
      ['05', 2n ** 255n, MAX], // SDIV -2^255 / -1
      ['07', MAX - 6n, 3n], // SMOD -7 % 3 = -1
      ['1b', 1n, 256n], // SHL by 256 (shift on top)
      ['1b', 1n, 255n],
      ['1c', MAX, 256n], // SHR by 256
      ['1c', MAX, 2n ** 200n],
      ['1d', 2n ** 255n, 300n], // SAR of a negative by 300: all ones
      ['0a', 3n, 200n], // EXP
      ['0a', 2n, 256n],
      ['0b', 0x80n, 0n], // SIGNEXTEND of byte 0
      ['1a', 0x1234n, 30n], // BYTE
    ]
    for (const [op, a, b] of cases) {
      // SHL/SHR/SAR take the shift on top, the others their first operand: `a` is the value, `b` the shift.
      const [top, second] = ['1b', '1c', '1d'].includes(op) ? [b, a] : op === '0b' || op === '1a' ? [b, a] : [a, b]
      await same({ code: `${push32(second)}${push32(top)}${op}${RETURN_TOP}` })
    }
  })

  it('agrees on random operands for every arithmetic, comparison and bitwise opcode', async () => {
    let seed = 0x1234567
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed
    }
    const edges = [0n, 1n, 2n, 31n, 32n, 255n, 256n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 128n, 2n ** 255n, MAX, MAX - 1n]
    const operand = () => {
      if (rand() % 4 === 0) return edges[rand() % edges.length]!
      const bytes = 1 + (rand() % 32)
      let v = 0n
      for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(rand() & 0xff)
      return v
    }
    const binary = ['01', '02', '03', '04', '05', '06', '07', '0a', '0b', '10', '11', '12', '13', '14', '16', '17']
    binary.push('18', '1a', '1b', '1c', '1d')
    for (const op of binary)
      for (let i = 0; i < 16; i++) {
        let b = operand()
        // Divisors of every length against dividends near their multiples (Knuth D's corrections).
        const a = op === '04' || op === '06' ? b * BigInt(rand()) + BigInt(rand() % 3) - 1n : operand()
        if (op === '0a' && rand() % 2 === 0) b %= 2n ** 64n
        await same({ code: `${push32(b)}${push32(a & MAX)}${op}${RETURN_TOP}` })
      }
    for (const op of ['15', '19'])
      for (let i = 0; i < 8; i++) await same({ code: `${push32(operand())}${op}${RETURN_TOP}` })
  })

  it('reads PUSH1..PUSH32 immediates, and a PUSH cut short by the end of the code', async () => {
    for (let n = 1; n <= 32; n++) {
      const bytes = Array.from({ length: n }, (_, i) => ((i * 37 + n) & 0xff).toString(16).padStart(2, '0')).join('')
      await same({ code: `${(0x5f + n).toString(16)}${bytes}${RETURN_TOP}` })
    }
    await same({ code: '5f600160027f0102' }) // PUSH32 with 2 of its 32 bytes
  })

  it('runs a JUMPI loop, and stops on an invalid jump', async () => {
    // sum = 0; for n = 100 down to 1: sum += n; return sum.
    const loop = `6000${push(100)}5b80820191506001900380600457 50${RETURN_TOP}`.replaceAll(' ', '')
    expect((await same({ code: loop })).returnValue).toBe(`0x${word(5050n)}`)
    await same({ code: `${push(3)}56005b00` }) // JUMP to pc 3, a STOP: invalid
    await same({ code: `${push(4)}56615b5b00` }) // JUMP into PUSH2 data: invalid
    await same({ code: `${push(1)}${push(200)}57` }) // JUMPI past the end
    await same({ code: `6000${push(200)}5700` }) // JUMPI not taken
  })

  it('runs out of gas where ethereumjs does', async () => {
    const loop = '5b600056' // an endless loop
    expect((await same({ code: loop, gasLimit: 10_000n })).status).toBe('outOfGas')
    for (const gasLimit of [0n, 2n, 3n, 5n, 6n]) await same({ code: '6001600201', gasLimit })
    await same({ code: `${push32(2n ** 40n)}51`, gasLimit: 1_000_000n }) // MLOAD far away
    await same({ code: `${push32(MAX)}51` })
    await same({ code: `${push(0)}54`, gasLimit: 2102n }) // SLOAD cold: 2100 after the PUSH1
    await same({ code: `${push(0)}54`, gasLimit: 2103n })
  })

  it('expands memory with the quadratic cost (MSTORE, MSTORE8, MLOAD, MSIZE, RETURN)', async () => {
    await same({ code: `${push32(0xdeadn)}${push(1000 & 0xff)}52${push(255)}5159${RETURN_TOP}` })
    await same({ code: `${push32(0xbeefn)}6203000052620300005159${RETURN_TOP}` }) // 196,640 bytes
    await same({ code: `${push(0xff)}${push(31)}53600051${RETURN_TOP}` }) // MSTORE8
    await same({ code: `${push32(12345n)}6000526040600ff3` }) // RETURN 64 bytes from 15
    await same({ code: `${push32(12345n)}6000526040600ffd` }) // REVERT with data
    await same({ code: `60007fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00f3` }) // RETURN 0 bytes far away
  })

  it('charges SLOAD cold then warm, and SSTORE as EIP-2200/2929/3529 do', async () => {
    const storage = { [slot(0n)]: 7n, [slot(1n)]: 0n, [slot(2n)]: 9n } as Record<Hex, bigint>
    const read = `${push(0)}54${push(0)}54${push(2)}54010160005260206000f3` // slot 0 cold, warm; slot 2 cold
    expect((await same({ code: read, storage })).returnValue).toBe(`0x${word(23n)}`)
    await same({ code: `${push(5)}${push(1)}55`, storage }) // 0 -> 5: set
    await same({ code: `${push(0)}${push(0)}55`, storage }) // 7 -> 0: clear, refund
    await same({ code: `${push(7)}${push(0)}55`, storage }) // 7 -> 7: no-op
    await same({ code: `${push(8)}${push(0)}55${push(9)}${push(0)}55${push(7)}${push(0)}55`, storage }) // dirty, restored
    await same({ code: `${push(0)}${push(2)}55${push(3)}${push(2)}55${push(0)}${push(2)}55`, storage }) // clear, recreate, clear
    await same({ code: `${push(4)}${push(1)}55${push(0)}${push(1)}55`, storage }) // set then reset to 0
    await same({ code: `${push(1)}54${push(4)}${push(1)}55`, storage }) // warm by SLOAD, then set
    await same({ code: `${push(5)}${push(1)}55`, storage, gasLimit: 2300n }) // the sentry
    await same({ code: `${push(5)}${push(1)}55`, storage, gasLimit: 22_000n }) // out of gas after the sentry
    await same({ code: `${push(5)}${push(1)}55`, storage, isStatic: true })
    await same({ code: `${push(5)}${push(1)}55${push(0)}${push(0)}fd`, storage }) // reverted: no writes
  })

  it('keeps memory and calldata when the warm set and the slot cache grow (600 cold slots)', async () => {
    // MSTORE(0, CALLDATALOAD(0)); for n = 600 down to 1: SLOAD(n); return MLOAD(0) + CALLDATALOAD(0).
    const code = `600035600052610258 5b8054506001900380600957 506000516000350 1${RETURN_TOP}`.replaceAll(' ', '')
    const data = word(0x1234n)
    expect((await same({ code, data, gasLimit: 2_000_000n })).returnValue).toBe(`0x${word(0x2468n)}`)
    await same({ code, data, gasLimit: 2_000_000n })
  })

  it('pauses for a slot the host has not at hand and resumes with the same result', async () => {
    const storage = { [slot(0n)]: 7n, [slot(2n)]: 9n } as Record<Hex, bigint>
    const code = `${push(0)}54${push(2)}54${push(0)}54${push(8)}${push(1)}5501${RETURN_TOP}`
    const before = wasmEvm.hostCalls.fetches
    expect(await wasm({ code, storage }, true)).toEqual(await ethereumjs({ code, storage }))
    expect(wasmEvm.hostCalls.fetches - before).toBe(3) // slots 0, 2 and (for the SSTORE) 1
  })

  it('reads the call inputs and fails the stack as ethereumjs does', async () => {
    await same({ code: `30${RETURN_TOP}` }) // ADDRESS
    await same({ code: `33${RETURN_TOP}` }) // CALLER
    await same({ code: `34${RETURN_TOP}`, value: 12345n }) // CALLVALUE
    await same({ code: `${push(2)}35${RETURN_TOP}`, data: 'aabbccddeeff' }) // CALLDATALOAD past the end
    await same({ code: `36${RETURN_TOP}`, data: 'aabbcc' }) // CALLDATASIZE
    await same({ code: `585a${RETURN_TOP}` }) // PC, GAS
    await same({ code: '01' }) // ADD on an empty stack
    await same({ code: `${push(1)}8f` }) // DUP16 of one item
    await same({ code: `${push(1)}${push(2)}91` }) // SWAP2 of two items
    await same({ code: '5b5f600056' }) // PUSH0 until the stack overflows
    await same({ code: 'fe' }) // INVALID
  })

  it('stops on an instruction it lacks, for the host to run the call in ethereumjs', async () => {
    const { storage } = mapStorage({})
    const result = await runWasmFrame(wasmEvm, {
      code: hexToBytes('0x600060002000'), // KECCAK256
      address: hexToBytes(TO),
      caller: hexToBytes(CALLER),
      value: 0n,
      data: new Uint8Array(0),
      gasLimit: 100_000n,
      storage,
    })
    expect([result.status, result.pc, result.opcode]).toEqual(['unsupported', 4, 0x20])
  })
})
