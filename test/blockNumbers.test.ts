import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { DEV_ACCOUNT, rpc } from './src/rpc.js'

// Every block-number-taking method of trace and debug refuses a negative or over-int64 block
// number with -32602 and a message naming the argument (the shared block parameter parser) —
// trace_filter's, inside its filter object, used to come back -32000.

let anvil: AnvilInstance
let edge: RunningEdgetrace

beforeAll(async () => {
  anvil = await startAnvil()
  edge = await startEdgetrace({ upstream: anvil.url, port: 0, hardfork: 'prague', api: ['eth', 'trace', 'debug'] })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await anvil?.stop()
})

const call = { from: DEV_ACCOUNT, to: DEV_ACCOUNT }
/** Each method with params built around one block number, and the argument (and member) it sits in. */
const METHODS: [string, (block: unknown) => unknown[], string][] = [
  ['trace_block', (b) => [b], 'invalid argument 0: '],
  ['trace_filter', (b) => [{ fromBlock: b }], 'invalid argument 0: field "fromBlock": '],
  ['trace_filter', (b) => [{ fromBlock: '0x0', toBlock: b }], 'invalid argument 0: field "toBlock": '],
  ['trace_call', (b) => [call, ['trace'], b], 'invalid argument 2: '],
  ['trace_callMany', (b) => [[[call, ['trace']]], b], 'invalid argument 1: '],
  ['trace_replayBlockTransactions', (b) => [b, ['trace']], 'invalid argument 0: '],
  ['debug_traceBlockByNumber', (b) => [b], 'invalid argument 0: '],
  ['debug_traceCall', (b) => [call, b], 'invalid argument 1: '],
  [
    'debug_traceCallMany',
    (b) => [[{ transactions: [call] }], { blockNumber: b }],
    'invalid argument 1: field "blockNumber": ',
  ],
  ['debug_getRawHeader', (b) => [b], 'invalid argument 0: '],
  ['debug_getRawBlock', (b) => [b], 'invalid argument 0: '],
  ['debug_getRawReceipts', (b) => [b], 'invalid argument 0: '],
  ['debug_getModifiedAccountsByNumber', (b) => [b], 'invalid argument 0: '],
  ['debug_getModifiedAccountsByNumber', (b) => ['0x1', b], 'invalid argument 1: '],
  ['debug_accountRange', (b) => [b, '0x', 1, true, true], 'invalid argument 0: '],
]

describe('block numbers out of range', () => {
  it.each(METHODS)('%s: -32602 naming the argument', async (method, params, where) => {
    for (const [block, message] of [
      ['0x8000000000000000', 'block number larger than int64'],
      [2 ** 63, 'block number larger than int64'],
      [-1, 'invalid block number -1: expected a non-negative integer'],
    ] as const) {
      expect((await rpc(edge.url, method, params(block))).error, `${method} ${block}`).toEqual({
        code: -32602,
        message: `${where}${message}`,
      })
    }
  })
})
