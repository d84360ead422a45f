import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createSourceRegistry } from '../sources/createSourceRegistry.js'
import { readSourcifyContract } from '../sources/readSourcifyContract.js'
import { createLruCache } from '../utils/createLruCache.js'
import { SOURCIFY_MISMATCH, createSourcifyLookup } from './createSourcifyLookup.js'

// The lookup's bounds, against a fetch that answers what each case needs: the devnet's Token as
// Sourcify would describe it (its build, src/node/devnet/sources.json), the code to match made from it.

const build = JSON.parse(readFileSync(join(import.meta.dirname, '../node/devnet/sources.json'), 'utf8'))
const token = build.output.contracts['Token.sol'].Token
const ADDRESS = '0x00000000000000000000000000000000000000aa'
const answer = {
  abi: token.abi,
  compilation: { name: 'Token', fullyQualifiedName: 'Token.sol:Token' },
  sources: Object.fromEntries(Object.entries<{ content: string }>(build.input.sources).map(([p, s]) => [p, s])),
  sourceIds: Object.fromEntries(
    Object.entries<{ id: number }>(build.output.sources).map(([p, s]) => [p, { id: s.id }]),
  ),
  runtimeBytecode: {
    recompiledBytecode: `0x${token.evm.deployedBytecode.object}`,
    sourceMap: token.evm.deployedBytecode.sourceMap,
    immutableReferences: token.evm.deployedBytecode.immutableReferences ?? {},
    linkReferences: {},
  },
  storageLayout: token.storageLayout,
}
const code = hexToBytes(`0x${token.evm.deployedBytecode.object}`)

function lookupWith(respond: (url: string, init: RequestInit) => Promise<Response>, more = {}) {
  const asked: string[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    asked.push(url)
    return respond(url, init)
  }) as typeof globalThis.fetch
  const lookup = createSourcifyLookup({
    url: 'http://sourcify.test/server/',
    chainId: 31337n,
    cache: createLruCache(64 * 1024 * 1024),
    fetch,
    ...more,
  })
  return { lookup, asked }
}

describe('readSourcifyContract', () => {
  it('reads an APIv2 answer into a contract: name, file, sources by sourceIds, ABI, layout, link references masked', () => {
    const c = readSourcifyContract({
      ...answer,
      runtimeBytecode: { ...answer.runtimeBytecode, linkReferences: { 'L.sol': { L: [{ start: 1, length: 20 }] } } },
    })!
    expect([c.name, c.file, c.abi.length > 0, c.storageLayout !== undefined]).toEqual([
      'Token',
      'Token.sol',
      true,
      true,
    ])
    expect(c.sources.get(build.output.sources['Token.sol'].id)?.path).toBe('Token.sol')
    expect(c.masked).toContainEqual({ start: 1, length: 20 })
    expect(c.runtime.subarray(1, 21).every((b) => b === 0)).toBe(true)
    expect(readSourcifyContract({ abi: [] })).toBeUndefined()
  })

  it("reads the creation bytecode: its source map, and its `cborAuxdata` (the metadata's offset and value) masked", () => {
    const creation = token.evm.bytecode.object as string
    const at = creation.indexOf(token.evm.deployedBytecode.object) / 2
    const end = at + (token.evm.deployedBytecode.object as string).length / 2
    const cbor = Number.parseInt(creation.slice(end * 2 - 4, end * 2), 16) + 2
    const c = readSourcifyContract({
      ...answer,
      creationBytecode: {
        recompiledBytecode: `0x${creation}`,
        sourceMap: token.evm.bytecode.sourceMap,
        linkReferences: {},
        cborAuxdata: { '1': { value: `0x${creation.slice((end - cbor) * 2, end * 2)}`, offset: end - cbor } },
      },
    })!
    expect(c.creation!.sourceMap).toBe(token.evm.bytecode.sourceMap)
    expect(c.creation!.masked).toEqual([{ start: end - cbor, length: cbor }])
    // Init code: the creation code with its constructor's argument after it.
    const init = hexToBytes(`0x${creation}${'00'.repeat(31)}01`)
    expect(createSourceRegistry([c]).matchCreation(init)?.name).toBe('Token')
    // Without creationBytecode: none.
    expect(readSourcifyContract(answer)!.creation).toBeUndefined()
  })
})

describe('createSourcifyLookup', () => {
  it('asks APIv2 once per code hash, however many ask at once; a match is kept', async () => {
    const { lookup, asked } = lookupWith(async () => Response.json(answer))
    const results = await Promise.all([lookup(ADDRESS, code), lookup(ADDRESS, code), lookup(ADDRESS, code)])
    expect(results.map((r) => ('contract' in r ? r.contract.name : r.note))).toEqual(['Token', 'Token', 'Token'])
    expect(asked).toEqual([
      `http://sourcify.test/server/v2/contract/31337/${ADDRESS}?fields=abi,compilation,sources,sourceIds,runtimeBytecode,creationBytecode,storageLayout`,
    ])
    await lookup(ADDRESS, code)
    expect(asked).toHaveLength(1)
  })

  it('refuses an answer whose code is not the code given, and does not ask again while the failure is fresh', async () => {
    const { lookup, asked } = lookupWith(async () => Response.json(answer), { failureTtlMs: 60_000 })
    const other = code.slice()
    other[10] ^= 0xff
    expect(await lookup(ADDRESS, other)).toEqual({ note: SOURCIFY_MISMATCH })
    expect(await lookup(ADDRESS, other)).toEqual({ note: SOURCIFY_MISMATCH })
    expect(asked).toHaveLength(1)
  })

  it('asks again once a failure is old', async () => {
    const { lookup, asked } = lookupWith(async () => new Response('{}', { status: 404 }), { failureTtlMs: 0 })
    expect(await lookup(ADDRESS, code)).toEqual({ note: `sourcify: ${ADDRESS} is not verified on chain 31337` })
    await new Promise((r) => setTimeout(r, 2))
    await lookup(ADDRESS, code)
    expect(asked).toHaveLength(2)
  })

  it('reads no answer past its size limit, declared or not', async () => {
    const big = JSON.stringify(answer)
    const declared = lookupWith(async () => new Response(big, { headers: { 'content-length': String(big.length) } }), {
      maxBytes: 1000,
    })
    expect(await declared.lookup(ADDRESS, code)).toEqual({
      note: `sourcify: answer of ${big.length} bytes is over the 1000-byte limit`,
    })
    const streamed = lookupWith(
      async () =>
        new Response(
          new ReadableStream({
            pull(c) {
              c.enqueue(new Uint8Array(600).fill(0x20))
            },
          }),
        ),
      { maxBytes: 1000 },
    )
    expect(await streamed.lookup(ADDRESS, code)).toEqual({ note: 'sourcify: answer is over the 1000-byte limit' })
  })

  it('gives up on a server that does not answer within its timeout', async () => {
    const { lookup } = lookupWith(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
      { timeoutMs: 50 },
    )
    expect(await lookup(ADDRESS, code)).toEqual({ note: 'sourcify: no answer within 50 ms' })
  })
})
