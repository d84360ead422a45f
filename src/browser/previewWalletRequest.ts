import { InvalidParamsRpcError } from '../errors/rpc.js'
import { parseCallArgs } from '../rpc/parseCallArgs.js'
import { describe, parseAddress, parseQuantity } from '../rpc/parsers.js'
import type { Hex } from '../types/hex.js'
import type { JsonRpcErrorObject } from '../types/jsonRpc.js'
import type { EdgetraceClient } from './connectEdgetraceWorker.js'

/** The app's own wallet: any EIP-1193 provider (window.ethereum, an injected or WalletConnect one). */
export type Eip1193Wallet = {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>
  on?(event: string, listener: (...args: never[]) => void): unknown
  removeListener?(event: string, listener: (...args: never[]) => void): unknown
}

/** edgetrace_previewTransactions' answer (docs/preview.md); fields added later come along as they are. */
export type TransactionsPreviewResult = {
  block: { number: Hex; hash: Hex }
  trust: unknown
  account: Hex
  calls: { status: 'success' | 'failure'; gasUsed: Hex; [field: string]: unknown }[]
  assetChanges: {
    token: { address: Hex; standard: string; symbol: string | null; name: string | null; decimals: number | null }
    value: { pre: Hex; post: Hex; diff: Hex } | null
    [field: string]: unknown
  }[]
  [field: string]: unknown
}

/**
 * What the app's `preview` hook is handed for eth_sendTransaction and wallet_sendCalls: the calls as
 * previewed (from the account, in order), and the preview — or, when it could not be computed (state
 * that does not verify, an upstream away, another chain), `preview: null` and the error.
 */
export type TransactionsPreview = {
  kind: 'transactions'
  method: 'eth_sendTransaction' | 'wallet_sendCalls'
  /** The sender: the request's `from`, else the wallet's first account (eth_accounts). */
  account: Hex | null
  /** The chain the request is for: its `chainId`, else the wallet's (eth_chainId). */
  chainId: Hex | null
  calls: Record<string, unknown>[]
  preview: TransactionsPreviewResult | null
  error: JsonRpcErrorObject | null
}

/** EIP-712 typed data as eth_signTypedData_v4 carries it (parsed when given as a JSON string). */
export type TypedData = {
  types: Record<string, unknown>
  primaryType: string
  domain?: Record<string, unknown>
  message: Record<string, unknown>
}

/**
 * edgetrace_previewTypedData's answer (docs/preview.md): `recognized`, and for a permit
 * its kind, spender, grants (token, amount, allowance in force, nonce), deadline, `usable` and `problems`.
 */
export type TypedDataPreviewResult = { recognized: boolean; account: Hex; [field: string]: unknown }

/**
 * eth_signTypedData_v4: the typed data decoded and edgetrace_previewTypedData's answer at the latest
 * block — or, when it could not be computed, `preview: null` and the error.
 */
export type TypedDataPreview = {
  kind: 'typedData'
  account: Hex
  decoded: TypedData
  preview: TypedDataPreviewResult | null
  error: JsonRpcErrorObject | null
}

export type WalletPreview = TransactionsPreview | TypedDataPreview

/**
 * The app's ABIs: asked for each address a previewed transaction calls, it gives that contract's JSON
 * ABI (an array, as solc, viem and ethers have it) or undefined. edgetrace_previewTransactions then
 * names the calls' functions and custom errors by it (`options.abis`); nothing is fetched from anyone
 * else. An ABI edgetrace refuses (malformed, too big) makes the preview fail with its -32602.
 */
export type AbiHook = (address: Hex) => Promise<readonly unknown[] | undefined> | readonly unknown[] | undefined

/** The methods previewed before the wallet sees them. */
export const PREVIEWED_METHODS = ['eth_sendTransaction', 'wallet_sendCalls', 'eth_signTypedData_v4'] as const

/** eth_sendTransaction's fields a preview runs with (chainId is checked apart; nonce, type and blobs are the wallet's). */
const CALL_FIELDS = [
  'from',
  'to',
  'gas',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'value',
  'data',
  'input',
  'accessList',
  'authorizationList',
] as const

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** `raw`'s fields among `fields`, checked as a call (geth's TransactionArgs); a bad one is -32602 naming `where`. */
function callOf(raw: unknown, fields: readonly string[], where: string): Record<string, unknown> {
  if (!isObject(raw)) throw new InvalidParamsRpcError(`${where}: expected an object, got ${describe(raw)}`)
  const call: Record<string, unknown> = {}
  for (const f of fields) if (raw[f] !== undefined && raw[f] !== null) call[f] = raw[f]
  try {
    parseCallArgs(call)
  } catch (err) {
    throw new InvalidParamsRpcError(`${where}: ${messageOf(err)}`)
  }
  return call
}

function paramsOf(method: string, params: unknown): unknown[] {
  if (!Array.isArray(params))
    throw new InvalidParamsRpcError(`${method}: params: expected an array, got ${describe(params)}`)
  return params
}

function checked<value>(parse: (raw: unknown) => value, raw: unknown, where: string): value {
  try {
    return parse(raw)
  } catch (err) {
    throw new InvalidParamsRpcError(`${where}: ${messageOf(err)}`)
  }
}

/** eth_signTypedData_v4's `[address, typedData]`, the typed data a JSON string or an object. */
function typedDataOf(params: unknown): TypedDataPreview {
  const method = 'eth_signTypedData_v4'
  const [address, raw] = paramsOf(method, params)
  const account = checked(parseAddress, address, `${method}: params[0]`)
  let decoded: unknown = raw
  if (typeof raw === 'string') {
    try {
      decoded = JSON.parse(raw)
    } catch (err) {
      throw new InvalidParamsRpcError(`${method}: params[1]: not JSON: ${messageOf(err)}`)
    }
  }
  if (!isObject(decoded))
    throw new InvalidParamsRpcError(`${method}: params[1]: expected typed data, got ${describe(raw)}`)
  if (!isObject(decoded.types)) throw new InvalidParamsRpcError(`${method}: params[1].types: expected an object`)
  if (typeof decoded.primaryType !== 'string')
    throw new InvalidParamsRpcError(`${method}: params[1].primaryType: expected a string`)
  if (!isObject(decoded.message)) throw new InvalidParamsRpcError(`${method}: params[1].message: expected an object`)
  if (decoded.domain !== undefined && !isObject(decoded.domain))
    throw new InvalidParamsRpcError(`${method}: params[1].domain: expected an object`)
  return { kind: 'typedData', account, decoded: decoded as TypedData, preview: null, error: null }
}

/** The typed data previewed by edgetrace_previewTypedData in the worker (its error handed on as such). */
async function previewTypedData(client: EdgetraceClient, request: TypedDataPreview): Promise<TypedDataPreview> {
  try {
    const res = await client.call('edgetrace_previewTypedData', [request.account, request.decoded, 'latest'])
    if ('error' in res) return { ...request, error: res.error }
    return { ...request, preview: res.result as TypedDataPreviewResult }
  } catch (err) {
    return { ...request, error: errorObject(err) }
  }
}

/** An error the wallet (or anything) threw, as a JSON-RPC error object. */
function errorObject(err: unknown): JsonRpcErrorObject {
  const e = err as { code?: unknown; message?: unknown; data?: unknown }
  return {
    code: typeof e?.code === 'number' ? e.code : -32603,
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(e?.data !== undefined ? { data: e.data } : {}),
  }
}

/**
 * The preview of a request the wallet is about to be asked: eth_sendTransaction's transaction or
 * wallet_sendCalls' calls (EIP-5792), run in order by edgetrace_previewTransactions in the edgetrace
 * worker at the latest block, or eth_signTypedData_v4's typed data decoded and previewed by
 * edgetrace_previewTypedData. A malformed request is
 * -32602 naming the argument (thrown: it never reaches the wallet); a preview that fails is
 * returned as such, with its error, for the app to decide.
 */
export async function previewWalletRequest(
  client: EdgetraceClient,
  wallet: Eip1193Wallet,
  request: { method: string; params?: unknown },
  abi?: AbiHook,
): Promise<WalletPreview> {
  const { method } = request
  if (method === 'eth_signTypedData_v4') return previewTypedData(client, typedDataOf(request.params))
  if (method !== 'eth_sendTransaction' && method !== 'wallet_sendCalls') {
    throw new InvalidParamsRpcError(`${method}: not a request edgetrace previews`)
  }
  const params = paramsOf(method, request.params)
  let from: Hex | undefined
  let chainId: Hex | undefined
  let calls: Record<string, unknown>[]
  if (method === 'eth_sendTransaction') {
    const tx = callOf(params[0], CALL_FIELDS, `${method}: params[0]`)
    if (isObject(params[0]) && params[0].chainId !== undefined && params[0].chainId !== null) {
      chainId = `0x${checked(parseQuantity, params[0].chainId, `${method}: params[0]: field "chainId"`).toString(16)}`
    }
    from = tx.from as Hex | undefined
    calls = [tx]
  } else {
    const batch = params[0]
    if (!isObject(batch))
      throw new InvalidParamsRpcError(`${method}: params[0]: expected an object, got ${describe(batch)}`)
    if (!Array.isArray(batch.calls) || batch.calls.length === 0) {
      throw new InvalidParamsRpcError(
        `${method}: params[0].calls: expected a non-empty array, got ${describe(batch.calls)}`,
      )
    }
    if (batch.from !== undefined && batch.from !== null) {
      from = checked(parseAddress, batch.from, `${method}: params[0].from`)
    }
    if (batch.chainId !== undefined && batch.chainId !== null) {
      chainId = `0x${checked(parseQuantity, batch.chainId, `${method}: params[0].chainId`).toString(16)}`
    }
    calls = batch.calls.map((c, i) => callOf(c, ['to', 'data', 'value'], `${method}: params[0].calls[${i}]`))
  }

  const failed = (error: JsonRpcErrorObject): TransactionsPreview => ({
    kind: 'transactions',
    method,
    account: from ?? null,
    chainId: chainId ?? null,
    calls,
    preview: null,
    error,
  })
  try {
    // What the request leaves to the wallet: its account and its chain.
    if (from === undefined) {
      const accounts = await wallet.request({ method: 'eth_accounts', params: [] })
      const first = Array.isArray(accounts) ? accounts[0] : undefined
      if (typeof first !== 'string') {
        return failed({
          code: 4100,
          message: 'no account to preview for: the request has no from and eth_accounts none',
        })
      }
      from = first.toLowerCase() as Hex
    }
    if (chainId === undefined)
      chainId = `0x${BigInt((await wallet.request({ method: 'eth_chainId', params: [] })) as string).toString(16)}`
  } catch (err) {
    return failed(errorObject(err))
  }
  calls = calls.map((c) => ({ ...c, from }))
  const ours = client.started.chainId
  if (BigInt(chainId) !== BigInt(ours)) {
    return failed({
      code: 4901,
      message: `the request is for chain ${chainId}, edgetrace follows chain ${ours}: no preview on another chain`,
    })
  }
  // The app's ABIs of the called addresses, asked together; one it fails to give fails the preview.
  const abis: Record<string, readonly unknown[]> = {}
  if (abi) {
    const called = [...new Set(calls.flatMap((c) => (typeof c.to === 'string' ? [c.to.toLowerCase() as Hex] : [])))]
    try {
      const given = await Promise.all(
        called.map((address) =>
          Promise.resolve()
            .then(() => abi(address))
            .catch((err: unknown) => {
              throw new Error(`options.abi(${address}): ${messageOf(err)}`)
            }),
        ),
      )
      for (const [i, address] of called.entries()) if (given[i] !== undefined) abis[address] = given[i]!
    } catch (err) {
      return failed({ code: -32603, message: messageOf(err) })
    }
  }
  let res: Awaited<ReturnType<EdgetraceClient['call']>>
  try {
    const options = Object.keys(abis).length > 0 ? [{ abis }] : []
    res = await client.call('edgetrace_previewTransactions', [calls, 'latest', ...options])
  } catch (err) {
    return failed(errorObject(err))
  }
  if ('error' in res) return failed(res.error)
  return {
    kind: 'transactions',
    method,
    account: from,
    chainId,
    calls,
    preview: res.result as TransactionsPreviewResult,
    error: null,
  }
}
