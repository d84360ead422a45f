import { bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { RangeVerificationError } from '../../errors/state.js'
import { UpstreamRpcError } from '../../errors/upstream.js'
import type { AccessListEntry } from '../../state/types.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { describe } from '../parsers.js'
import { ParamError, optional, required } from '../params.js'
import { defineMethod } from '../defineMethod.js'
import type { Hex } from '../../types/hex.js'

/** geth's and Erigon's limits (AccountRangeMaxResults, AccountRangeMaxResultsWithStorage). */
export const ACCOUNT_RANGE_MAX_RESULTS = 8192
export const ACCOUNT_RANGE_MAX_RESULTS_WITH_STORAGE = 256

type DumpAccount = {
  balance: string
  nonce: number
  root?: string
  codeHash: string
  code?: string
  storage?: Record<string, string>
  address?: string
  key?: string
}
type Dump = { root: string; accounts: Record<string, DumpAccount>; next?: string }

/**
 * The `start` of debug_accountRange in each format in use: geth's (and Erigon's since 2026) hex
 * string, or Erigon's older base64 string or JSON array of byte values.
 */
export function parseRangeStart(raw: unknown): Hex {
  if (raw === undefined || raw === null || raw === '') return '0x'
  if (Array.isArray(raw)) {
    if (!raw.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
      throw new ParamError('start: expected an array of byte values')
    return bytesToHex(Uint8Array.from(raw)) as Hex
  }
  if (typeof raw !== 'string')
    throw new ParamError(`start: expected hex, base64 or an array of bytes, got ${describe(raw)}`)
  if (/^0x[0-9a-fA-F]*$/.test(raw)) return raw.toLowerCase() as Hex
  if (/^[A-Za-z0-9+/]*={0,2}$/.test(raw)) return bytesToHex(Uint8Array.from(atob(raw), (c) => c.charCodeAt(0))) as Hex
  throw new ParamError(`start: expected hex, base64 or an array of bytes, got ${describe(raw)}`)
}

const parseBool = (raw: unknown) => {
  if (typeof raw !== 'boolean') throw new ParamError(`expected a boolean, got ${describe(raw)}`)
  return raw
}
const parseInteger = (raw: unknown) => {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw))
    throw new ParamError(`expected a JSON number, got ${describe(raw)}`)
  return raw
}

/**
 * debug_accountRange(block, start, maxResults, nocode, nostorage[, incompletes]): Merkle proofs
 * cannot list accounts, so the range comes from the upstream (which must offer this method) — and
 * every account in it is checked against a proof at the same block (balance, nonce, storage root,
 * code hash; code against its hash; each listed slot against its proof). An account the upstream
 * leaves out of the middle of a range cannot be detected this way; one without its address cannot
 * be checked and is refused.
 */
export const accountRange = defineMethod({
  name: 'debug_accountRange',
  params: [
    required(parseBlockParameter),
    optional(parseRangeStart),
    required(parseInteger),
    required(parseBool),
    required(parseBool),
    optional(parseBool),
  ],
  async run(engine, [selector, start, requested, nocode, nostorage, incompletes]): Promise<Dump> {
    if (incompletes === true)
      throw new ServerRpcError('incompletes is not supported: only accounts whose address is known can be verified')
    if (selector.kind === 'tag' && selector.tag === 'pending')
      throw new ServerRpcError('accountRange for pending block not supported')
    const cap = nostorage ? ACCOUNT_RANGE_MAX_RESULTS : ACCOUNT_RANGE_MAX_RESULTS_WITH_STORAGE
    const maxResults = requested <= 0 || requested > cap ? cap : requested
    const header = await engine.headers.resolve(selector)
    let dump: Dump
    try {
      dump = await engine.upstream.request<Dump>('debug_accountRange', [
        { blockHash: header.hash },
        start ?? '0x',
        maxResults,
        nocode,
        nostorage,
        false,
      ])
    } catch (err) {
      if (err instanceof UpstreamRpcError && err.code === -32601) {
        throw new ServerRpcError(
          'debug_accountRange needs an upstream that enumerates accounts, and this one does not offer debug_accountRange (Merkle proofs alone cannot list accounts)',
        )
      }
      throw err
    }
    // One line naming the block; the hash, address, roots and values are the error's data.
    const where = `block ${header.number}`
    const stateRoot = bytesToHex(header.header.stateRoot)
    if (`0x${dump.root.replace(/^0x/, '').toLowerCase()}` !== stateRoot) {
      throw new RangeVerificationError(`${where}: the upstream's range is of another state root than the header's`, {
        facts: { block: header, expectedRoot: stateRoot, gotRoot: dump.root.toLowerCase() },
      })
    }
    const entries: AccessListEntry[] = Object.entries(dump.accounts).map(([address, a]) => ({
      address: (a.address ?? address).toLowerCase() as Hex,
      storageKeys: Object.keys(a.storage ?? {}).map((k) => bytesToHex(hexToBytes(k as Hex)) as Hex),
    }))
    await engine.source.prefetch(header, entries)
    for (const [listed, a] of Object.entries(dump.accounts)) {
      const address = (a.address ?? listed).toLowerCase() as Hex
      if (!/^0x[0-9a-f]{40}$/.test(address))
        throw new RangeVerificationError(`${where}: the upstream lists an account without its address (${listed})`, {
          facts: { block: header },
        })
      if (a.key !== undefined && bytesToHex(keccak256(hexToBytes(address))) !== a.key.toLowerCase()) {
        throw new RangeVerificationError(
          `${where}: the upstream files the account under key ${a.key}, which is not its hash`,
          { facts: { block: header, address } },
        )
      }
      const account = await engine.source.getAccount(header, address)
      const bad = (field: string, theirs: unknown, ours: unknown, slot?: string) =>
        new RangeVerificationError(`${where}: the upstream's ${field} of the account is not the proven one`, {
          facts: { block: header, address, slot, expectedValue: String(ours), gotValue: String(theirs) },
        })
      if (!account)
        throw new RangeVerificationError(`${where}: the upstream lists an account the proof proves absent`, {
          facts: { block: header, address },
        })
      if (BigInt(a.balance) !== account.balance) throw bad('balance', a.balance, account.balance)
      if (BigInt(a.nonce) !== account.nonce) throw bad('nonce', a.nonce, account.nonce)
      if (a.codeHash.toLowerCase() !== bytesToHex(account.codeHash))
        throw bad('codeHash', a.codeHash, bytesToHex(account.codeHash))
      if (a.root !== undefined && !/^0x0*$/.test(a.root) && a.root.toLowerCase() !== bytesToHex(account.storageRoot))
        throw bad('storage root', a.root, bytesToHex(account.storageRoot))
      if (a.code !== undefined && bytesToHex(keccak256(hexToBytes(a.code as Hex))) !== bytesToHex(account.codeHash))
        throw bad('code (its hash)', bytesToHex(keccak256(hexToBytes(a.code as Hex))), bytesToHex(account.codeHash))
      for (const [slot, value] of Object.entries(a.storage ?? {})) {
        const ours = await engine.source.getStorage(header, address, bytesToHex(hexToBytes(slot as Hex)) as Hex)
        if (bytesToBigInt(ours) !== BigInt(`0x${value.replace(/^0x/, '') || '0'}`))
          throw bad('value of a slot', value, bytesToHex(ours), slot)
      }
    }
    return dump
  },
})
