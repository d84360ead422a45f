// A seeded generator of malformed (and some well-formed) JSON-RPC requests, each with what a
// well-behaved server owes for it. No dependency: a small PRNG, so a seed always gives the same run.

/** mulberry32: 32-bit state, good enough to spread cases; the same seed gives the same sequence. */
export type Prng = {
  next(): number
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number
  pick<item>(items: readonly item[]): item
  chance(p: number): boolean
  hex(bytes: number): string
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  return {
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    chance: (p) => next() < p,
    hex: (bytes) => Array.from({ length: bytes }, () => int(0, 255).toString(16).padStart(2, '0')).join(''),
  }
}

/** JSON text put into a request as it is (ids like 1e400 or -0 that JSON.stringify cannot write). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold RawJson parts. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** What one entry of a request is owed. */
export type ExpectedEntry = {
  label: string
  /** The id the answer carries (as JSON.parse reads it). */
  id: unknown
  /** Other acceptable ids (null for a request whose envelope is invalid). */
  altIds?: unknown[]
  /** A result, any answer (result or a JSON-RPC error), or an error with one of these codes. */
  want: 'result' | 'any' | readonly number[]
  /** May go unanswered (a notification whose envelope is invalid). */
  optional?: boolean
}

export type Expectation =
  | { kind: 'single'; entry: ExpectedEntry }
  /** One answer per entry that is not a notification, in any order; none at all when there are none. */
  | { kind: 'batch'; entries: ExpectedEntry[] }
  | { kind: 'nothing' }
  /** The whole message refused: one error (id null), or an array of errors, with these codes. */
  | { kind: 'rejected'; label: string; codes: readonly number[] }
  /** Refused by the transport with this HTTP status. */
  | { kind: 'http'; label: string; status: number }

export type FuzzRequest = {
  label: string
  text: string
  expect: Expectation
  /** Not for WebSocket (a body over the transport's limit closes the socket). */
  httpOnly?: boolean
}

/** Real things to aim at: a contract, an account, a mined block and transaction of the node behind. */
export type FuzzContext = {
  contract: `0x${string}`
  account: `0x${string}`
  block: `0x${string}`
  txHash: `0x${string}`
  /** The server's body limit (bytes): a bigger body is refused with HTTP 413. */
  maxBodyBytes: number
}

const PARSE = [-32700] as const
const INVALID_REQUEST = [-32600] as const
const NOT_FOUND = [-32601] as const
const INVALID_PARAMS = [-32602] as const

type Entry = { value: unknown; expect: ExpectedEntry | undefined }
type Call = { label: string; method: string; params: unknown; want: ExpectedEntry['want'] }

/** Deeply nested arrays, `depth` levels. */
function deep(depth: number, inner = '0'): RawJson {
  return new RawJson(`${'['.repeat(depth)}${inner}${']'.repeat(depth)}`)
}

function deepObject(depth: number): RawJson {
  return new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)
}

/**
 * The server's documented limit (docs/transports.md, Envelopes): a request nesting arrays and objects deeper than
 * this (the request object being level 1) is refused with -32600 before anything else is looked at.
 */
const MAX_DEPTH = 128

/** How deep a value nests arrays and objects (a scalar: 0), RawJson parts measured by their text. */
function nestingDepth(value: unknown): number {
  if (value instanceof RawJson) {
    let depth = 0
    let deepest = 0
    let inString = false
    for (let i = 0; i < value.text.length; i++) {
      const c = value.text[i]
      if (inString) {
        if (c === '\\') i++
        else if (c === '"') inString = false
      } else if (c === '"') inString = true
      else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth)
      else if (c === ']' || c === '}') depth--
    }
    return deepest
  }
  if (value === null || typeof value !== 'object') return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, nestingDepth(child)), 0)
}

export function createFuzzer(prng: Prng, ctx: FuzzContext) {
  let nextId = 1
  const goodCall = () => ({ to: ctx.contract, data: '0x' })

  // ---- values of the wrong kind, by what was expected ---------------------------------------
  const notObjects = () =>
    prng.pick<unknown>([5, -1, 0, true, false, 'x', '', '0x', [], [goodCall()], deep(prng.int(129, 600))])
  const badBlock = () =>
    prng.pick<() => unknown>([
      () => true,
      () => ({}),
      () => [],
      () => 'xyz',
      () => 'Latest ',
      () => -1,
      () => -12345,
      () => '-0x1',
      () => 1.5,
      () => new RawJson('1e400'),
      () => new RawJson('-1e400'),
      () => 2 ** 64,
      () => `0x${'f'.repeat(prng.int(17, 40))}`, // > int64 (never 64 digits: that would be a hash)
      () => `0x${'f'.repeat(prng.int(100, 5000))}`,
      () => '0xzz',
      () => 'x'.repeat(prng.int(1000, 100_000)),
      () => ({ blockHash: '0x1234' }),
      () => ({ blockHash: `0x${prng.hex(32)}`, blockNumber: '0x1' }),
      () => ({ blockNumber: -1 }),
      () => ({ blockHash: `0x${prng.hex(32)}`, requireCanonical: 'yes' }),
      () => deep(prng.int(129, 2000)),
    ])()
  const badAddress = () =>
    prng.pick<() => unknown>([
      () => 5,
      () => true,
      () => [],
      () => ({}),
      () => '0x1234',
      () => `0x${'zz'.repeat(20)}`,
      () => prng.hex(20),
      () => `0x${prng.hex(21)}`,
      () => `0x${prng.hex(20)}0`,
      () => 'x'.repeat(prng.int(100, 50_000)),
      () => deep(prng.int(129, 1000)),
    ])()
  const badHash = () =>
    prng.pick<() => unknown>([
      () => 123,
      () => '0x12',
      () => prng.hex(32),
      () => `0x${prng.hex(31)}`,
      () => `0x${prng.hex(33)}`,
      () => `0x${'g'.repeat(64)}`,
      () => null,
      () => ({ hash: ctx.txHash }),
      () => [ctx.txHash],
      () => deep(prng.int(129, 1000)),
    ])()
  const badUint64 = () =>
    prng.pick<() => unknown>([
      () => -5,
      () => 21000,
      () => 1.5,
      () => 'zz',
      () => '0x',
      () => '0x00',
      () => '-0x1',
      () => `0x1${'0'.repeat(16)}`, // 2^64
      () => `0x${'f'.repeat(prng.int(17, 300))}`,
      () => new RawJson('1e400'),
      () => true,
      () => [],
    ])()
  const badQuantity = () =>
    prng.pick<() => unknown>([
      () => -1,
      () => '0x01',
      () => `0x1${'0'.repeat(64)}`,
      () => `0x${'f'.repeat(prng.int(65, 2000))}`,
      () => 'ten',
      () => ({}),
      () => new RawJson('-1e400'),
    ])()
  const badData = () =>
    prng.pick<() => unknown>([
      () => '0x1',
      () => '0xzz',
      () => 'abcd',
      () => 12,
      () => [1, 2],
      () => `0x${'a'.repeat(prng.int(1, 50) * 2 + 1)}`,
    ])()
  const badCallObject = (): Record<string, unknown> =>
    prng.pick<() => Record<string, unknown>>([
      () => ({ to: badAddress() }),
      () => ({ ...goodCall(), from: badAddress() }),
      () => ({ ...goodCall(), gas: badUint64() }),
      () => ({ ...goodCall(), nonce: badUint64() }),
      () => ({ ...goodCall(), value: badQuantity() }),
      () => ({ ...goodCall(), gasPrice: badQuantity() }),
      () => ({ ...goodCall(), maxFeePerGas: badQuantity() }),
      () => ({ ...goodCall(), data: badData() }),
      () => ({ ...goodCall(), input: badData() }),
      () => ({
        ...goodCall(),
        accessList: prng.pick<unknown>([
          5,
          'x',
          [5],
          [{ address: '0x12' }],
          [{ address: ctx.contract, storageKeys: 'x' }],
        ]),
      }),
      () => ({ ...goodCall(), data: '0x00', input: '0x01' }),
    ])()
  const badTraceConfig = () =>
    prng.pick<unknown>([
      5,
      'callTracer',
      [],
      { tracer: 5 },
      { timeout: 5 },
      { timeout: 'soon' },
      { limit: -1 },
      { limit: 'all' },
      { disableStack: 'yes' },
      { txIndex: -1 },
    ])

  // ---- calls with what they are owed -----------------------------------------------------------
  const good = (): Call =>
    prng.pick<() => Call>([
      () => ({ label: 'good eth_chainId', method: 'eth_chainId', params: [], want: 'result' }),
      () => ({ label: 'good eth_blockNumber', method: 'eth_blockNumber', params: [], want: 'result' }),
      () => ({ label: 'good web3_clientVersion', method: 'web3_clientVersion', params: [], want: 'result' }),
      () => ({ label: 'good net_version', method: 'net_version', params: [], want: 'result' }),
      () => ({ label: 'good web3_sha3', method: 'web3_sha3', params: ['0x68656c6c6f'], want: 'result' }),
      () => ({
        label: 'good eth_getBalance',
        method: 'eth_getBalance',
        params: [ctx.account, 'latest'],
        want: 'result',
      }),
      () => ({ label: 'good eth_call', method: 'eth_call', params: [goodCall(), ctx.block], want: 'result' }),
      () => ({
        label: 'good debug_traceCall',
        method: 'debug_traceCall',
        params: [goodCall(), ctx.block, { tracer: 'callTracer' }],
        want: 'result',
      }),
      () => ({ label: 'good trace_block', method: 'trace_block', params: [ctx.block], want: 'result' }),
      () => ({
        label: 'good debug_traceTransaction',
        method: 'debug_traceTransaction',
        params: [ctx.txHash, { tracer: 'callTracer' }],
        want: 'result',
      }),
      () => ({
        label: 'good trace_filter',
        method: 'trace_filter',
        params: [{ fromBlock: ctx.block, toBlock: ctx.block }],
        want: 'result',
      }),
      // 1 MB of call data: the call runs (the contract ignores it).
      () => ({
        label: 'good eth_call with long data',
        method: 'eth_call',
        params: [{ ...goodCall(), data: `0x${'ab'.repeat(prng.int(1000, 300_000))}` }, ctx.block],
        want: 'result',
      }),
    ])()

  const unknownMethod = (): Call =>
    prng.pick<() => Call>([
      () => ({ label: 'unknown namespace', method: `fuzz_${prng.hex(4)}`, params: [], want: NOT_FOUND }),
      () => ({
        label: 'no namespace',
        method: prng.pick(['eth', 'x', '_', 'chainId', '💥']),
        params: [],
        want: NOT_FOUND,
      }),
      () => ({
        label: 'long method name',
        method: `fuzz_${'m'.repeat(prng.int(1000, 200_000))}`,
        params: [],
        want: NOT_FOUND,
      }),
      () => ({
        label: 'namespace not enabled',
        method: prng.pick(['txpool_content', 'admin_peers', 'ots_getApiLevel', 'parity_listStorageKeys']),
        params: [],
        want: NOT_FOUND,
      }),
      () => ({
        label: 'unknown debug method',
        method: `debug_${prng.pick(['nope', 'traceEverything', 'setHead'])}`,
        params: [],
        want: NOT_FOUND,
      }),
      () => ({
        label: 'unknown trace method',
        method: `trace_${prng.pick(['nope', 'everything'])}`,
        params: [],
        want: NOT_FOUND,
      }),
      () => ({
        label: 'method with control characters',
        method: `eth_\u0000\u001f${prng.hex(2)}`,
        params: [],
        want: NOT_FOUND,
      }),
    ])()

  const LOCAL_CALL_METHODS = [
    'eth_call',
    'eth_estimateGas',
    'eth_createAccessList',
    'debug_traceCall',
    'trace_call',
  ] as const
  const callParams = (method: string, call: unknown, block: unknown): unknown[] =>
    method === 'trace_call' ? [call, ['trace'], block] : [call, block]

  const badParams = (): Call =>
    prng.pick<() => Call>([
      () => {
        const method = prng.pick([
          ...LOCAL_CALL_METHODS,
          'debug_traceTransaction',
          'trace_block',
          'trace_filter',
          'eth_getBalance',
          'eth_chainId',
        ])
        return {
          label: 'params not an array',
          method,
          params: prng.pick<unknown>([{ a: 1 }, 'x', 5, true, deepObject(prng.int(129, 1000))]),
          want: INVALID_PARAMS,
        }
      },
      () => {
        const method = prng.pick([
          ...LOCAL_CALL_METHODS,
          'debug_traceTransaction',
          'trace_block',
          'trace_filter',
          'debug_traceBlockByNumber',
          'debug_traceBlockByHash',
        ])
        return {
          label: 'missing required argument',
          method,
          params: prng.chance(0.5) ? [] : null,
          want: INVALID_PARAMS,
        }
      },
      () => {
        const method = prng.pick(LOCAL_CALL_METHODS)
        return {
          label: 'too many arguments',
          method,
          params: [...callParams(method, goodCall(), 'latest'), {}, {}, {}, {}, 1],
          want: INVALID_PARAMS,
        }
      },
      () => {
        const method = prng.pick(LOCAL_CALL_METHODS)
        return {
          label: 'call argument not an object',
          method,
          params: callParams(method, notObjects(), 'latest'),
          want: INVALID_PARAMS,
        }
      },
      () => {
        const method = prng.pick(LOCAL_CALL_METHODS)
        return {
          label: 'call object with a field of the wrong type',
          method,
          params: callParams(method, badCallObject(), 'latest'),
          want: INVALID_PARAMS,
        }
      },
      () => {
        const method = prng.pick(LOCAL_CALL_METHODS)
        return {
          label: 'bad block parameter',
          method,
          params: callParams(method, goodCall(), badBlock()),
          want: INVALID_PARAMS,
        }
      },
      () => ({
        label: 'debug_traceCall bad config',
        method: 'debug_traceCall',
        params: [goodCall(), 'latest', badTraceConfig()],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'trace_call bad trace types',
        method: 'trace_call',
        params: [goodCall(), prng.pick<unknown>(['trace', 5, [5], ['nope'], {}, null]), 'latest'],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'debug_traceTransaction bad hash',
        method: 'debug_traceTransaction',
        params: [badHash()],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'debug_traceTransaction bad config',
        method: 'debug_traceTransaction',
        params: [ctx.txHash, badTraceConfig()],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'trace_transaction bad hash',
        method: 'trace_transaction',
        params: [badHash()],
        want: INVALID_PARAMS,
      }),
      () => ({ label: 'trace_block bad block', method: 'trace_block', params: [badBlock()], want: INVALID_PARAMS }),
      () => ({
        label: 'debug_traceBlockByNumber bad block',
        method: 'debug_traceBlockByNumber',
        params: [prng.pick<unknown>([true, {}, [], 'xyz', -1, `0x${'f'.repeat(20)}`])],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'debug_traceBlockByHash bad hash',
        method: 'debug_traceBlockByHash',
        params: [badHash()],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'trace_filter not an object',
        method: 'trace_filter',
        params: [notObjects()],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'trace_filter bad fromBlock',
        method: 'trace_filter',
        params: [{ fromBlock: badBlock(), toBlock: ctx.block }],
        want: INVALID_PARAMS,
      }),
      () => ({
        label: 'trace_filter bad toBlock',
        method: 'trace_filter',
        params: [{ fromBlock: ctx.block, toBlock: badBlock() }],
        want: INVALID_PARAMS,
      }),
      () => {
        // An empty list is a valid filter: only lists holding a bad address, or a bad address alone.
        let bad = badAddress()
        while (Array.isArray(bad) || bad instanceof RawJson) bad = badAddress()
        return {
          label: 'trace_filter bad address',
          method: 'trace_filter',
          params: [{ fromBlock: ctx.block, toBlock: ctx.block, fromAddress: prng.chance(0.5) ? bad : [bad] }],
          want: INVALID_PARAMS,
        }
      },
      () => ({
        label: 'trace_filter bad after/count',
        method: 'trace_filter',
        params: [
          {
            fromBlock: ctx.block,
            toBlock: ctx.block,
            [prng.pick(['after', 'count'])]: prng.pick<unknown>([-1, 'ten', 1.5, new RawJson('1e400'), {}]),
          },
        ],
        want: INVALID_PARAMS,
      }),
      // Passed through: the upstream judges them, but the answer must still be a JSON-RPC error.
      () => ({
        label: 'eth_getBalance bad address (passed through)',
        method: 'eth_getBalance',
        params: [badAddress(), 'latest'],
        want: 'any',
      }),
      // Refused before it is passed through (entry() owes every over-deep request -32600).
      () => ({
        label: 'eth_getBalance deep params',
        method: 'eth_getBalance',
        params: [deep(prng.int(129, 2000)), 'latest'],
        want: INVALID_REQUEST,
      }),
      () => ({
        label: 'eth_getBlockByNumber bad block (passed through)',
        method: 'eth_getBlockByNumber',
        params: [badBlock(), false],
        want: 'any',
      }),
    ])()

  // ---- ids ---------------------------------------------------------------------------------------
  /** A valid id: the value written, and the id the answer must carry. */
  const validId = (): { written: unknown; id: unknown } => {
    const n = nextId++
    return prng.pick<() => { written: unknown; id: unknown }>([
      () => ({ written: n, id: n }),
      () => ({ written: n, id: n }),
      () => ({ written: `id-${n}`, id: `id-${n}` }),
      () => ({ written: new RawJson('1e400'), id: Number.POSITIVE_INFINITY }),
      () => ({ written: new RawJson('-0'), id: -0 }),
      () => ({ written: new RawJson(`${n}.5`), id: n + 0.5 }),
      () => ({ written: new RawJson('1.7976931348623157e308'), id: 1.7976931348623157e308 }),
      () => ({ written: new RawJson(`${n}000000000000000000000000`), id: Number(`${n}000000000000000000000000`) }),
      () => ({ written: -n, id: -n }),
      () => ({ written: '', id: '' }),
      () => ({ written: `ü✓\u0000\u2028${n}`, id: `ü✓\u0000\u2028${n}` }),
      () => {
        const long = `${'i'.repeat(prng.int(1000, 20_000))}${n}`
        return { written: long, id: long }
      },
      () => ({ written: null, id: null }),
    ])()
  }

  /** How an id is told apart in a batch (-0 and 0 are one id; so are the many ways to write Infinity). */
  const idKey = (id: unknown) => (typeof id === 'number' ? `n:${id === 0 ? 0 : id}` : JSON.stringify(id))

  /**
   * An entry of a request: a call (or notification), or something that is no request at all.
   * `used` keeps the ids of a batch apart, so each answer can be told whose it is.
   */
  function entry(used: Set<string> = new Set()): Entry {
    const r = prng.next()
    if (r < 0.06) {
      // Not an object at all.
      return {
        value: prng.pick<unknown>([5, 'x', null, true, [], [1]]),
        expect: { label: 'entry not an object', id: null, want: INVALID_REQUEST },
      }
    }
    const call = r < 0.3 ? good() : r < 0.42 ? unknownMethod() : badParams()
    const notification = prng.chance(0.08)
    let { written, id } = validId()
    for (let i = 0; i < 20 && used.has(idKey(id)); i++) ({ written, id } = validId())
    if (!notification) used.add(idKey(id))
    const base: Record<string, unknown> = { jsonrpc: '2.0', method: call.method, params: call.params }
    if (!notification) base.id = written
    const expectedId = id

    if (prng.chance(0.12)) {
      // A broken envelope.
      const broken = prng.pick<() => [string, Record<string, unknown>]>([
        () => ['no jsonrpc member', { ...base, jsonrpc: undefined }],
        () => ['jsonrpc "1.0"', { ...base, jsonrpc: '1.0' }],
        () => ['jsonrpc 2 (a number)', { ...base, jsonrpc: 2 }],
        () => ['jsonrpc null', { ...base, jsonrpc: null }],
        () => ['method missing', { ...base, method: undefined }],
        () => ['method not a string', { ...base, method: prng.pick<unknown>([5, null, [], {}, true]) }],
        () => ['method empty', { ...base, method: '' }],
      ])()
      const [label, value] = broken
      if (notification)
        return { value, expect: { label: `${label} (notification)`, id: null, want: INVALID_REQUEST, optional: true } }
      return { value, expect: { label, id: expectedId, altIds: [null], want: INVALID_REQUEST } }
    }
    if (!notification && prng.chance(0.05)) {
      // An id of a kind JSON-RPC does not allow.
      const bad = prng.pick<unknown>([{}, { id: 1 }, [], [1], true, false])
      return {
        value: { ...base, id: bad },
        expect: {
          label: `id ${JSON.stringify(bad)}`,
          id: null,
          altIds: typeof bad === 'boolean' ? [bad] : [],
          want: INVALID_REQUEST,
        },
      }
    }
    if (notification) return { value: base, expect: undefined }
    // Nested too deep, it is refused before its params are read: -32600 with its id, whatever else is
    // wrong with it. (A notification is not answered, deep or not; a broken envelope or a bad id above
    // is -32600 anyway.)
    if (nestingDepth(base) > MAX_DEPTH)
      return {
        value: base,
        expect: { label: `${call.label} (nested too deep)`, id: expectedId, want: INVALID_REQUEST },
      }
    return { value: base, expect: { label: call.label, id: expectedId, want: call.want } }
  }

  /** One request as sent: text and what it is owed; over the body limit, HTTP 413 whatever it holds. */
  function request(): FuzzRequest {
    const out = anyRequest()
    if (out.expect.kind !== 'http' && Buffer.byteLength(out.text) > ctx.maxBodyBytes) {
      return {
        label: `${out.label} (over the body limit)`,
        text: out.text,
        httpOnly: true,
        expect: { kind: 'http', label: 'body over the limit', status: 413 },
      }
    }
    return out
  }

  function anyRequest(): FuzzRequest {
    const r = prng.next()
    if (r < 0.05) {
      const valid = toJsonText({ jsonrpc: '2.0', id: nextId++, method: 'eth_chainId', params: [] })
      const text = prng.pick<() => string>([
        () => valid.slice(0, prng.int(1, valid.length - 1)),
        () => `${valid}${prng.pick(['x', '}', ',', ']'])}`,
        () => "{'jsonrpc':'2.0','id':1,'method':'eth_chainId'}",
        () => '{jsonrpc:"2.0",id:1,method:"eth_chainId"}',
        () => '',
        () => ' ',
        () => 'NaN',
        () => '[1,2',
        () => '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[}',
        () => `[${valid},`,
        () => `\u0000${valid}`,
        () => '{"a":1}{"b":2}',
        () => `${'['.repeat(prng.int(129, 50_000))}`,
      ])()
      return {
        label: 'bad JSON',
        text,
        expect: { kind: 'single', entry: { label: 'bad JSON', id: null, want: PARSE } },
      }
    }
    if (r < 0.08) {
      const value = prng.pick<unknown>([1, 'x', true, null, 1.5])
      return {
        label: 'not an object',
        text: JSON.stringify(value),
        expect: { kind: 'single', entry: { label: 'not an object', id: null, want: INVALID_REQUEST } },
      }
    }
    if (r < 0.09)
      return {
        label: 'empty batch',
        text: '[]',
        expect: { kind: 'single', entry: { label: 'empty batch', id: null, want: INVALID_REQUEST } },
      }
    if (r < 0.1) {
      const size = prng.int(101, 400)
      const text = `[${Array.from({ length: size }, (_, i) => toJsonText({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] })).join(',')}]`
      return {
        label: 'batch over the limit',
        text,
        expect: { kind: 'single', entry: { label: 'batch over the limit', id: null, want: [-32000, -32600] } },
      }
    }
    if (r < 0.12) {
      const depth = prng.int(129, 50_000)
      const text = prng.chance(0.5) ? deep(depth).text : deepObject(depth).text
      // Valid JSON: no parse error, but no request either (no envelope, no id): -32600 with id null.
      return {
        label: `nested ${depth} deep`,
        text,
        expect: { kind: 'rejected', label: 'deep nesting', codes: INVALID_REQUEST },
      }
    }
    if (r < 0.122) {
      // Over the body limit: the transport refuses it before parsing.
      const filler = 'ab'.repeat(Math.ceil(ctx.maxBodyBytes / 2) + 1000)
      const text = toJsonText({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'eth_call',
        params: [{ ...goodCall(), data: `0x${filler}` }],
      })
      return {
        label: 'body over the limit',
        text,
        httpOnly: true,
        expect: { kind: 'http', label: 'body over the limit', status: 413 },
      }
    }
    if (r < 0.4) {
      const size = prng.int(1, 12)
      const used = new Set<string>(['null'])
      const entries = Array.from({ length: size }, () => entry(used))
      const text = `[${entries.map((e) => toJsonText(e.value)).join(',')}]`
      const owed = entries.map((e) => e.expect).filter((e): e is ExpectedEntry => e !== undefined)
      return { label: `batch of ${size}`, text, expect: { kind: 'batch', entries: owed } }
    }
    const one = entry()
    const text = toJsonText(one.value)
    if (Array.isArray(one.value)) {
      // [] is an empty batch; [1] a batch of one entry that is no request.
      if (one.value.length === 0)
        return {
          label: 'empty batch',
          text,
          expect: { kind: 'single', entry: { label: 'empty batch', id: null, want: INVALID_REQUEST } },
        }
      return {
        label: 'batch of a non-request',
        text,
        expect: { kind: 'batch', entries: [{ label: 'entry not an object', id: null, want: INVALID_REQUEST }] },
      }
    }
    if (!one.expect) return { label: 'notification', text, expect: { kind: 'nothing' } }
    if (one.expect.optional) return { label: one.expect.label, text, expect: { kind: 'batch', entries: [one.expect] } }
    return { label: one.expect.label, text, expect: { kind: 'single', entry: one.expect } }
  }

  return { request }
}

// ---- checking answers ------------------------------------------------------------------------------

/** Error codes a server may answer with (JSON-RPC's own, the server range, and 3 for reverts). */
export function isJsonRpcErrorCode(code: unknown): boolean {
  if (typeof code !== 'number' || !Number.isInteger(code)) return false
  return code === 3 || [-32700, -32600, -32601, -32602, -32603].includes(code) || (code >= -32099 && code <= -32000)
}

function sameId(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b))
  return a === b
}

type Answer = { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }

const short = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v)
  return text.length > 160 ? `${text.slice(0, 160)}…` : text
}

/** An id as written in a report (Infinity and -0 are not JSON). */
function idText(id: unknown): string {
  if (typeof id === 'number') return Object.is(id, -0) ? '-0' : String(id)
  if (typeof id === 'string' && id.length > 40) return `"${id.slice(0, 12)}…" (${id.length} chars)`
  return short(id)
}

/**
 * A problem is written `<cause> — <details>`: runs group findings by the cause, so one wrong
 * behaviour is one finding however many requests showed it.
 */
const problem = (cause: string, details: string) => `${cause} — ${details}`

/** What is wrong with one answer's envelope (undefined: well-formed). */
function envelopeProblem(a: unknown, label: string): string | undefined {
  if (typeof a !== 'object' || a === null || Array.isArray(a))
    return problem('answer is not an object', `${label}: ${short(a)}`)
  const answer = a as Answer
  if (answer.jsonrpc !== '2.0') return problem('answer without jsonrpc "2.0"', `${label}: ${short(a)}`)
  if (!('id' in answer)) return problem('answer without id', `${label}: ${short(a)}`)
  const hasError = answer.error !== undefined
  // Erigon's streamed methods may write a result and then an error: accepted when the error is there.
  if (!hasError && !('result' in answer))
    return problem('answer with neither result nor error', `${label}: ${short(a)}`)
  if (hasError) {
    const { code, message } = answer.error ?? {}
    if (!isJsonRpcErrorCode(code))
      return problem(`error code ${short(code)} is not a JSON-RPC error code`, `${label}: ${short(a)}`)
    if (typeof message !== 'string' || message === '')
      return problem('error without a message', `${label}: ${short(a)}`)
  }
  return undefined
}

function satisfies(answer: Answer, entry: ExpectedEntry, ignoreId = false): boolean {
  if (!ignoreId && !sameId(answer.id, entry.id) && !(entry.altIds ?? []).some((id) => sameId(answer.id, id)))
    return false
  const isError = answer.error !== undefined
  if (entry.want === 'any') return true
  if (entry.want === 'result') return !isError
  return isError && entry.want.includes(answer.error!.code as number)
}

/** Pairs answers with expected entries (a bipartite matching: ids may repeat). */
function match(
  answers: Answer[],
  entries: ExpectedEntry[],
  ignoreIds = false,
): { unmatchedAnswers: Answer[]; unmatchedEntries: ExpectedEntry[] } {
  const owner = new Array<number>(entries.length).fill(-1)
  const tryAssign = (a: number, seen: boolean[]): boolean => {
    for (let e = 0; e < entries.length; e++) {
      if (seen[e] || !satisfies(answers[a]!, entries[e]!, ignoreIds)) continue
      seen[e] = true
      if (owner[e] === -1 || tryAssign(owner[e]!, seen)) {
        owner[e] = a
        return true
      }
    }
    return false
  }
  for (let a = 0; a < answers.length; a++) tryAssign(a, new Array(entries.length).fill(false))
  return {
    unmatchedAnswers: answers.filter((_, i) => !owner.includes(i)),
    unmatchedEntries: entries.filter((e, i) => owner[i] === -1 && !e.optional),
  }
}

const describeAnswer = (a: Answer) =>
  a.error !== undefined
    ? `id ${idText(a.id)} error ${short(a.error.code)} ${short(a.error.message)}`
    : `id ${idText(a.id)} result ${short(a.result)}`
const describeWant = (e: ExpectedEntry) => (typeof e.want === 'string' ? e.want : `error ${e.want.join('/')}`)
const describeEntry = (e: ExpectedEntry) =>
  `id ${idText(e.id)}${e.altIds?.length ? ` (or ${e.altIds.map(idText).join(', ')})` : ''} wants ${describeWant(e)}`

/** The cause of an answer that is not what the entry wants, its id aside. */
function wrongAnswer(entry: ExpectedEntry, answer: Answer | undefined): string {
  const got =
    answer === undefined ? 'no answer' : answer.error !== undefined ? `error ${short(answer.error.code)}` : 'a result'
  return problem(
    `${entry.label}: ${got}, want ${describeWant(entry)}`,
    answer === undefined ? describeEntry(entry) : describeAnswer(answer),
  )
}

/**
 * What is wrong with the answer to one fuzz request (empty: nothing). `status` is the HTTP status
 * (200 for a WebSocket message), `text` the body ('' when nothing came).
 */
export function checkAnswer(request: FuzzRequest, status: number, text: string): string[] {
  const { expect } = request
  if (expect.kind === 'http')
    return status === expect.status
      ? []
      : [problem(`${expect.label}: HTTP ${status}, want ${expect.status}`, text.slice(0, 160))]
  if (status !== 200) return [problem(`${request.label}: HTTP ${status}`, text.slice(0, 160))]
  const owesNothing = expect.kind === 'nothing' || (expect.kind === 'batch' && expect.entries.every((e) => e.optional))
  if (text === '') return owesNothing ? [] : [problem(`${request.label}: empty body`, 'nothing came back')]
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return [problem(`${request.label}: the answer is not JSON`, text.slice(0, 160))]
  }
  const answers = Array.isArray(body) ? body : [body]
  const problems = answers.map((a) => envelopeProblem(a, request.label)).filter((p): p is string => p !== undefined)
  if (problems.length > 0) return problems
  const typed = answers as Answer[]
  switch (expect.kind) {
    case 'nothing':
      return [problem('a notification was answered', text.slice(0, 160))]
    case 'rejected': {
      const ok = typed.every(
        (a) => a.error !== undefined && expect.codes.includes(a.error.code as number) && a.id === null,
      )
      return ok
        ? []
        : [
            problem(
              `${expect.label}: want errors ${expect.codes.join('/')} with id null`,
              typed.map(describeAnswer).join('; '),
            ),
          ]
    }
    case 'single': {
      if (Array.isArray(body))
        return [problem(`${request.label}: an array answered a single request`, text.slice(0, 160))]
      const answer = typed[0]!
      if (satisfies(answer, expect.entry)) return []
      if (satisfies(answer, expect.entry, true))
        return [
          problem(
            `id ${idText(expect.entry.id)} answered as ${idText(answer.id)}`,
            `${expect.entry.label}: ${describeAnswer(answer)}`,
          ),
        ]
      return [wrongAnswer(expect.entry, answer)]
    }
    case 'batch': {
      const single = request.text.trimStart().startsWith('{')
      if (!single && !Array.isArray(body))
        return [problem(`${request.label}: a batch answered with a single object`, text.slice(0, 160))]
      const strict = match(typed, expect.entries)
      if (strict.unmatchedEntries.length === 0 && strict.unmatchedAnswers.length === 0) return []
      const out: string[] = []
      const left = [...strict.unmatchedAnswers]
      const take = (a: Answer) => left.splice(left.indexOf(a), 1)
      // An entry whose id came back with the wrong kind of answer.
      const noneWithId: ExpectedEntry[] = []
      for (const e of strict.unmatchedEntries) {
        const sameIdAnswer = left.find((a) => sameId(a.id, e.id))
        if (sameIdAnswer) {
          take(sameIdAnswer)
          out.push(wrongAnswer(e, sameIdAnswer))
        } else noneWithId.push(e)
      }
      // An entry whose answer is right but carries another id (1e400 answered as null, …).
      for (const e of noneWithId) {
        const rightButId = left.find((a) => satisfies(a, e, true))
        if (rightButId) {
          take(rightButId)
          out.push(
            problem(
              `id ${idText(e.id)} answered as ${idText(rightButId.id)}`,
              `${e.label}, in a batch of ${expect.entries.length}`,
            ),
          )
        } else if (left.length > 0) {
          // Both wrong: pair it with an answer nobody claimed.
          const other = left[0]!
          take(other)
          out.push(
            wrongAnswer(e, other),
            problem(
              `id ${idText(e.id)} answered as ${idText(other.id)}`,
              `${e.label}, in a batch of ${expect.entries.length}`,
            ),
          )
        } else out.push(wrongAnswer(e, undefined))
      }
      for (const a of left) out.push(problem(`${request.label}: unexpected answer`, describeAnswer(a)))
      return out
    }
  }
}
