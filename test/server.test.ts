import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { type AnvilInstance, startAnvil } from '../src/node/devnet/startAnvil.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { rpcResult } from './src/rpc.js'
import { runCli } from './src/runCli.js'

let anvil: AnvilInstance
let edge: RunningEdgetrace

beforeAll(async () => {
  anvil = await startAnvil()
  edge = await startEdgetrace({
    upstream: anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'web3', 'net'],
    batchLimit: 5,
    corsDomains: ['https://app.example'],
  })
})
afterAll(async () => {
  await edge.close()
  await anvil.stop()
})

async function post(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(edge.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined }
}

async function overWs(messages: string[]): Promise<unknown[]> {
  const ws = new WebSocket(edge.wsUrl)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const replies: unknown[] = []
  for (const m of messages) {
    ws.send(m)
    replies.push(await new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString())))))
  }
  ws.close()
  return replies
}

// The same bad inputs over both transports: the right error each time, and the server keeps serving.
const BAD: [string, string, unknown][] = [
  ['malformed JSON', '{"jsonrpc":"2.0",', { id: null, error: { code: -32700, message: 'parse error' } }],
  ['not a request', '"hello"', { id: null, error: { code: -32600, message: 'invalid request' } }],
  ['unknown method', '{"jsonrpc":"2.0","id":1,"method":"eth_doesNotExist"}', { id: 1, error: { code: -32601 } }],
  ['unknown namespace', '{"jsonrpc":"2.0","id":2,"method":"foo_bar"}', { id: 2, error: { code: -32601 } }],
  [
    'disabled namespace',
    '{"jsonrpc":"2.0","id":3,"method":"debug_traceCall","params":[]}',
    { id: 3, error: { code: -32601, message: expect.stringContaining('add debug to --http.api') } },
  ],
  [
    'wrong parameter type',
    '{"jsonrpc":"2.0","id":4,"method":"eth_call","params":[{"to":"0x1234"}]}',
    {
      id: 4,
      error: {
        code: -32602,
        message: expect.stringMatching(
          /^invalid argument 0: field "to": (json: cannot unmarshal|hex string has length)/,
        ),
      },
    },
  ],
  [
    'bad block parameter',
    '{"jsonrpc":"2.0","id":5,"method":"eth_call","params":[{},"yesterday"]}',
    {
      id: 5,
      error: {
        code: -32602,
        message: expect.stringMatching(/^invalid argument 1: expected a block number, tag or hash/),
      },
    },
  ],
  [
    'oversized batch',
    JSON.stringify(Array.from({ length: 6 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))),
    {
      id: null,
      error: {
        code: -32000,
        message: 'batch limit 5 exceeded (can increase by --rpc.batch.limit). Requested batch of size: 6',
      },
    },
  ],
]

describe('Node server', () => {
  it.each(BAD)('HTTP: %s', async (_name, body, expected) => {
    const { status, json } = await post(body)
    expect(status).toBe(200)
    expect(json).toMatchObject(expected as object)
    expect(await rpcResult(edge.url, 'eth_chainId')).toBe(`0x${anvil.chainId.toString(16)}`)
  })

  it('WebSocket: the same answers as HTTP', async () => {
    const replies = await overWs(BAD.map(([, body]) => body))
    for (const [i, reply] of replies.entries()) expect(reply).toMatchObject(BAD[i]![2] as object)
    expect(await overWs(['{"jsonrpc":"2.0","id":9,"method":"net_version"}'])).toEqual([
      { jsonrpc: '2.0', id: 9, result: String(anvil.chainId) },
    ])
  })

  it('answers eth_blockNumber from the verified head, and argument errors as JSON-RPC errors', async () => {
    expect(await rpcResult(edge.url, 'eth_blockNumber')).toBe(await rpcResult(anvil.url, 'eth_blockNumber'))
    const { json } = await post('{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x12"]}')
    expect(json.error.code).toBeTypeOf('number')
    expect(json.error.message).toBeTypeOf('string')
  })

  it('answers web3 and net locally', async () => {
    expect(await rpcResult(edge.url, 'web3_clientVersion')).toMatch(/^edgetrace\/v\d+\.\d+\.\d+\/node-/)
    expect(await rpcResult(edge.url, 'web3_sha3', ['0x68656c6c6f'])).toBe(
      '0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8',
    )
    expect(await rpcResult(edge.url, 'net_version')).toBe(String(anvil.chainId))
  })

  it('answers a batch in order and says nothing to notifications', async () => {
    const { json } = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 'b', method: 'net_version' },
      ]),
    )
    expect(json.map((r: { id: string }) => r.id)).toEqual(['a', 'b'])
    const note = await post('{"jsonrpc":"2.0","method":"eth_chainId"}')
    expect(note.json).toBeUndefined()
  })

  it('refuses bodies over 5 MiB and keeps serving', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'web3_sha3',
      params: [`0x${'00'.repeat(3 * 1024 * 1024)}`],
    })
    const res = await fetch(edge.url, { method: 'POST', body: huge }).catch(() => undefined)
    if (res) expect(res.status).toBe(413)
    expect(await rpcResult(edge.url, 'eth_chainId')).toBeDefined()
  })

  it('answers CORS preflights only for the configured origins', async () => {
    const ok = await fetch(edge.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const other = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { origin: 'https://evil.example' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('edgetrace CLI', () => {
  it('starts in front of an upstream with the reference flags and prints a banner', async () => {
    const run = await runCli(
      [
        '--upstream',
        anvil.url,
        '--hardfork',
        'prague',
        '--http.port',
        '0',
        '--http.api',
        'eth,web3',
        '--rpc.gascap',
        '1000000',
        '--rpc.evmtimeout',
        '30s',
      ],
      /listening: +(http:\/\/\S+)/,
    )
    const url = /listening: +(http:\/\/\S+)/.exec(run.output)![1]!
    expect(run.output).toContain('state:      verified')
    expect(run.output).toContain('--hardfork prague (chain id 31337)')
    expect(await rpcResult(url, 'web3_clientVersion')).toMatch(/^edgetrace/)
    run.kill()
  })

  it('says clearly when the chain is unknown and no rules are given', async () => {
    const run = await runCli(['--upstream', anvil.url, '--http.port', '0'], /never/)
    expect(run.code).toBe(1)
    expect(run.output).toContain(
      'chain id 31337 is not a known chain: pass --chain <geth-style genesis file> or --hardfork <name>',
    )
  })

  it('rejects unknown flags and bad values', async () => {
    expect((await runCli(['--http.port', 'abc'], /never/)).output).toContain('--http.port expects a whole number')
    expect((await runCli(['--nope'], /never/)).output).toContain('unknown flag --nope')
    expect((await runCli(['--rpc.evmtimeout', '5 minutes'], /never/)).output).toContain('invalid duration')
  })

  it('with no --upstream, starts the embedded devnet and serves it', async () => {
    const run = await runCli(['--http.port', '0', '--http.api', 'eth,web3,net'], /listening: +(http:\/\/\S+)/)
    const url = /listening: +(http:\/\/\S+)/.exec(run.output)![1]!
    expect(run.output).toMatch(/embedded devnet: anvil, \d+ demo contracts, \d+ demo transactions/)
    expect(run.output).toContain('--hardfork prague (chain id 31337)')
    const upstream = /upstream: +(http:\/\/\S+)/.exec(run.output)![1]!
    const call = { to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', data: '0x18160ddd' } // Token.totalSupply()
    expect(await rpcResult(url, 'eth_call', [call, 'latest'])).toBe(
      await rpcResult(upstream, 'eth_call', [call, 'latest']),
    )
    run.kill()
  })

  it('announces --unverified in the banner', async () => {
    const run = await runCli(
      ['--upstream', anvil.url, '--hardfork', 'prague', '--http.port', '0', '--unverified'],
      /listening/,
    )
    expect(run.output).toContain('UNVERIFIED (--unverified)')
    run.kill()
  })
})
