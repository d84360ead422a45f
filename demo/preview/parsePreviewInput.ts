import type { CallRequest } from '../explore.js'

/** What the preview page was given: calls from one account, or typed data to sign. */
export type PreviewInput =
  | { kind: 'calls'; calls: (CallRequest & Record<string, unknown>)[]; account?: string }
  | { kind: 'typedData'; account: string; typedData: Record<string, unknown> }

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isTypedData = (v: unknown): boolean => isObject(v) && 'types' in v && 'primaryType' in v && 'message' in v

/** Typed data given as an object or as its JSON text (eth_signTypedData_v4 takes either). */
function typedDataOf(raw: unknown, where: string): Record<string, unknown> {
  let value = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch (err) {
      throw new Error(`${where}: typed data given as text is not JSON (${(err as Error).message})`)
    }
  }
  if (!isObject(value) || !isTypedData(value))
    throw new Error(`${where}: expected EIP-712 typed data ({types, primaryType, domain, message})`)
  return value
}

/** The signer of typed data given without one: the permit's owner (EIP-2612) or holder (DAI). */
function signerOf(typedData: Record<string, unknown>): string {
  const message = isObject(typedData.message) ? typedData.message : {}
  const signer = message.owner ?? message.holder
  if (typeof signer === 'string' && ADDRESS.test(signer)) return signer
  throw new Error(
    'typed data without its signer: give {"account": "0x…", "typedData": {…}} or eth_signTypedData_v4\'s ["0x…", {…}]',
  )
}

/** One account's calls: each given `from` is the account's (the one edgetrace_previewTransactions requires). */
function callsOf(list: unknown[], from: unknown, where: string): PreviewInput {
  if (list.length === 0) throw new Error(`${where}: no calls — give at least one`)
  const calls = list.map((c, i) => {
    if (!isObject(c))
      throw new Error(`${where}[${i}]: expected a call object ({to, value, data, …}), got ${JSON.stringify(c)}`)
    return typeof from === 'string' && c.from === undefined ? { ...c, from } : c
  })
  const account = typeof from === 'string' ? from : undefined
  return account ? { kind: 'calls', calls, account } : { kind: 'calls', calls }
}

/** A parsed value: typed data, a wallet_sendCalls request, a list of calls or one transaction. */
function fromValue(value: unknown): PreviewInput {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new Error('an empty list: paste a transaction, a list of calls, or typed data')
    // eth_signTypedData_v4's params: [account, typedData].
    if (
      value.length === 2 &&
      typeof value[0] === 'string' &&
      ADDRESS.test(value[0]) &&
      (isObject(value[1]) || typeof value[1] === 'string')
    )
      return { kind: 'typedData', account: value[0], typedData: typedDataOf(value[1], 'params[1]') }
    // wallet_sendCalls' and eth_sendTransaction's params: [{from, calls}] or [tx].
    if (value.length === 1 && isObject(value[0]) && Array.isArray(value[0].calls)) return fromValue(value[0])
    return callsOf(value, undefined, 'calls')
  }
  if (!isObject(value))
    throw new Error(
      `expected a transaction, a list of calls or typed data (a JSON object or array), got ${JSON.stringify(value)}`,
    )
  // A whole EIP-1193 request: {method, params}.
  if (typeof value.method === 'string' && Array.isArray(value.params)) return fromValue(value.params)
  if ('typedData' in value) {
    const typedData = typedDataOf(value.typedData, 'typedData')
    const account = value.account ?? signerOf(typedData)
    if (typeof account !== 'string' || !ADDRESS.test(account))
      throw new Error(`account: expected an address (0x and 40 hex digits), got ${JSON.stringify(account)}`)
    return { kind: 'typedData', account, typedData }
  }
  if (isTypedData(value)) return { kind: 'typedData', account: signerOf(value), typedData: value }
  // wallet_sendCalls (EIP-5792): {version, from, chainId, calls: [{to, value, data}]}.
  if (Array.isArray(value.calls)) return callsOf(value.calls, value.from, 'calls')
  return callsOf([value], undefined, 'transaction')
}

/**
 * What a person pasted into the preview page, read as a wallet's request: a transaction
 * (`{from, to, value, data, …}`, or eth_sendTransaction's `[tx]`), a list of calls or wallet_sendCalls'
 * `{from, calls}`, or EIP-712 typed data (`{account?, typedData}`, the typed data alone — its owner
 * signs — or eth_signTypedData_v4's `[account, typedData]`). A whole `{method, params}` request is
 * read by its params. Errors say what is wrong in words.
 */
export function parsePreviewInput(text: string): PreviewInput {
  if (text.trim() === '') throw new Error('nothing to preview: paste a transaction, a list of calls, or typed data')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`)
  }
  return fromValue(value)
}
