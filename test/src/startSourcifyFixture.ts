import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'

type Json = Record<string, any>

/**
 * A verified contract in Sourcify APIv2's shape (`GET /v2/contract/{chainId}/{address}`, as Sourcify's
 * OpenAPI spec, services/server/src/apiv2.yaml, gives the fields: `sourceIds` as `{path: {id}}`, the
 * bytecodes' `recompiledBytecode`, `sourceMap`, `linkReferences`, `cborAuxdata`), from a solc
 * standard-JSON compilation: `file`'s contract `name` as verified at `address`, with the on-chain code
 * given (Sourcify's `runtimeBytecode.onchainBytecode`).
 */
export function sourcifyAnswer(args: {
  input: Json
  output: Json
  file: string
  name: string
  chainId: bigint
  address: string
  onchain: string
}): Json {
  const { input, output, file, name, chainId, address, onchain } = args
  const c = output.contracts[file][name]
  const d = c.evm.deployedBytecode
  return {
    match: 'match',
    creationMatch: null,
    runtimeMatch: 'match',
    chainId: chainId.toString(),
    address,
    verifiedAt: '2026-11-27T00:00:00Z',
    matchId: '1',
    abi: c.abi,
    compilation: {
      language: 'Solidity',
      compiler: 'solc',
      compilerVersion: '0.8.37+commit.f401782d',
      compilerSettings: input.settings,
      name,
      fullyQualifiedName: `${file}:${name}`,
    },
    sources: Object.fromEntries(Object.entries<Json>(input.sources).map(([p, s]) => [p, { content: s.content }])),
    sourceIds: Object.fromEntries(Object.entries<Json>(output.sources).map(([p, s]) => [p, { id: s.id }])),
    runtimeBytecode: {
      onchainBytecode: onchain,
      recompiledBytecode: `0x${d.object}`,
      sourceMap: d.sourceMap,
      linkReferences: d.linkReferences ?? {},
      immutableReferences: d.immutableReferences ?? {},
      cborAuxdata: {},
      transformations: [],
      transformationValues: {},
    },
    // The creation bytecode, when the compilation asked for it (cborAuxdata: where the runtime
    // code's metadata sits in it, as Sourcify gives it: `{id: {value, offset}}`).
    ...(c.evm.bytecode?.object
      ? {
          creationBytecode: {
            onchainBytecode: null,
            recompiledBytecode: `0x${c.evm.bytecode.object}`,
            sourceMap: c.evm.bytecode.sourceMap,
            linkReferences: c.evm.bytecode.linkReferences ?? {},
            cborAuxdata: creationAuxdata(c.evm.bytecode.object, d.object),
            transformations: [],
            transformationValues: {},
          },
        }
      : {}),
    storageLayout: c.storageLayout,
  }
}

/** Where the runtime code's CBOR metadata is in the creation code (Sourcify's `cborAuxdata`), or {}. */
function creationAuxdata(creation: string, runtime: string): Json {
  const at = creation.indexOf(runtime)
  if (at < 0 || at % 2 !== 0 || runtime.length < 4) return {}
  const cbor = Number.parseInt(runtime.slice(-4), 16)
  const end = (at + runtime.length) / 2
  const start = end - cbor - 2
  return { '1': { value: `0x${creation.slice(start * 2, end * 2)}`, offset: start } }
}

export type SourcifyFixture = {
  /** Its base URL (what `--sourcify` takes). */
  url: string
  /** What it answers, by `${chainId}/${address lowercase}`; others get APIv2's 404. */
  answers: Map<string, Json>
  /** Every request's path and query, in order. */
  requests: string[]
  stop(): Promise<void>
}

/** A Sourcify server on loopback serving APIv2's contract lookup from `answers` (a real HTTP server). */
export async function startSourcifyFixture(): Promise<SourcifyFixture> {
  const answers = new Map<string, Json>()
  const requests: string[] = []
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    // As Sourcify's own server answers (cors({origin: '*'}) on every non-session path): a page may ask it.
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'access-control-allow-origin': '*',
    })
    res.end(text)
  }
  const server = createServer((req: IncomingMessage, res) => {
    requests.push(req.url ?? '')
    const url = new URL(req.url ?? '/', 'http://localhost')
    const m = /^\/v2\/contract\/(\d+)\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname)
    if (req.method !== 'GET' || !m) return send(res, 404, { customCode: 'route_not_found', message: 'no such route' })
    const answer = answers.get(`${m[1]}/${m[2]!.toLowerCase()}`)
    if (!answer)
      return send(res, 404, {
        customCode: 'not_found',
        message: `Contract ${m[2]} on chain ${m[1]} not found`,
        errorId: '00000000-0000-0000-0000-000000000000',
      })
    const fields = (url.searchParams.get('fields') ?? '').split(',')
    const base = ['match', 'creationMatch', 'runtimeMatch', 'chainId', 'address', 'verifiedAt', 'matchId']
    return send(
      res,
      200,
      Object.fromEntries(Object.entries(answer).filter(([k]) => base.includes(k) || fields.includes(k))),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    answers,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
