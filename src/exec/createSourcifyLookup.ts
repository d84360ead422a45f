import { bytesToHex } from '@ethereumjs/util'
import { createSourceRegistry } from '../sources/createSourceRegistry.js'
import { SOURCIFY_FIELDS, readSourcifyContract } from '../sources/readSourcifyContract.js'
import type { SourceContract, SourceLookup, SourceLookupResult } from '../sources/types.js'
import { cacheKeys } from '../utils/cacheKeys.js'
import type { LruCache } from '../utils/createLruCache.js'
import { keccak256 } from '../utils/keccak256.js'
import { readBoundedText } from '../utils/readBoundedText.js'

export type CreateSourcifyLookupParameters = {
  /** The Sourcify server (`https://sourcify.dev/server`): its APIv2 is under `{url}/v2/`. */
  url: string
  chainId: bigint
  /** Answers are kept here by code hash (and in its persistent tier, when it has one). */
  cache: LruCache
  log?: ((line: string) => void) | undefined
  /** One request, ms (default 10 s). */
  timeoutMs?: number | undefined
  /** The largest answer read, bytes (default 8 MiB: the shared tier reads no larger value). */
  maxBytes?: number | undefined
  /** How long a failed lookup (not verified, unreachable, refused) is not asked again, ms (default 60 s). */
  failureTtlMs?: number | undefined
  fetch?: typeof fetch | undefined
}

/** The note of a frame whose Sourcify answer was refused. */
export const SOURCIFY_MISMATCH = 'sourcify: runtime bytecode does not match the verified code'

/**
 * `--sourcify URL`: the sources of deployed code from a Sourcify server's APIv2, for the source tracer.
 * What it answers is never trusted by address: it is read into a contract and matched against the
 * code given (the verified code the trace ran) with the registry's masking; a mismatch is refused.
 * Answers that match are kept by (chain id, code hash) in the cache, and through it in the persistent
 * tier, so the same code is debugged later without the server. At most one request per code hash is
 * in flight; failures are remembered for `failureTtlMs`.
 */
export function createSourcifyLookup({
  url,
  chainId,
  cache,
  log,
  timeoutMs = 10_000,
  maxBytes = 8 * 1024 * 1024,
  failureTtlMs = 60_000,
  fetch: fetchFn = fetch,
}: CreateSourcifyLookupParameters): SourceLookup {
  const base = url.replace(/\/+$/, '')
  const inFlight = new Map<string, Promise<SourceLookupResult>>()
  const failed = new Map<string, { until: number; note: string }>()
  const parsed = new Map<string, SourceContract>()

  /** The answer's contract when it matches `code`, else why not. */
  const matchAnswer = (text: string, code: Uint8Array): SourceLookupResult => {
    let contract: SourceContract | undefined
    try {
      contract = readSourcifyContract(JSON.parse(text))
    } catch (err) {
      return { note: `sourcify: unreadable answer (${(err as Error).message})` }
    }
    if (!contract) return { note: 'sourcify: the answer has no runtime bytecode' }
    return createSourceRegistry([contract]).match(code) ? { contract } : { note: SOURCIFY_MISMATCH }
  }

  const ask = async (address: string, code: Uint8Array, codeHash: string): Promise<SourceLookupResult> => {
    const key = cacheKeys.sourcify(chainId, codeHash)
    await cache.restore?.([key])
    const kept = cache.get<string>(key)
    if (typeof kept === 'string') {
      const result = matchAnswer(kept, code)
      if ('contract' in result) return result
      cache.delete(key)
    }
    const at = `${base}/v2/contract/${chainId}/${address}?fields=${SOURCIFY_FIELDS.join(',')}`
    let text: string
    try {
      const response = await fetchFn(at, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      })
      if (response.status === 404) {
        await response.body?.cancel()
        return { note: `sourcify: ${address} is not verified on chain ${chainId}` }
      }
      if (!response.ok) {
        await response.body?.cancel()
        return { note: `sourcify: HTTP ${response.status}` }
      }
      text = await readBoundedText(response, maxBytes, (declared) =>
        declared === undefined
          ? new Error(`answer is over the ${maxBytes}-byte limit`)
          : new Error(`answer of ${declared} bytes is over the ${maxBytes}-byte limit`),
      )
    } catch (err) {
      const e = err as Error
      return { note: `sourcify: ${e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message}` }
    }
    const result = matchAnswer(text, code)
    if ('contract' in result) cache.set(key, text, key.length + text.length * 2)
    else if (result.note === SOURCIFY_MISMATCH)
      log?.(`sourcify: ${address} on chain ${chainId}: refused, its runtime bytecode does not match the verified code`)
    return result
  }

  return (address, code) => {
    const codeHash = bytesToHex(keccak256(code))
    const known = parsed.get(codeHash)
    if (known) return Promise.resolve({ contract: known })
    const failure = failed.get(codeHash)
    if (failure && failure.until > Date.now()) return Promise.resolve({ note: failure.note })
    let pending = inFlight.get(codeHash)
    if (!pending) {
      pending = ask(address.toLowerCase(), code, codeHash).then((result) => {
        inFlight.delete(codeHash)
        // Both bounded: the oldest go first (the cache keeps the answers themselves).
        if ('contract' in result) {
          if (parsed.size >= 256) parsed.delete(parsed.keys().next().value!)
          parsed.set(codeHash, result.contract)
        } else {
          if (failed.size >= 1024) failed.delete(failed.keys().next().value!)
          failed.set(codeHash, { until: Date.now() + failureTtlMs, note: result.note })
        }
        return result
      })
      inFlight.set(codeHash, pending)
    }
    return pending
  }
}
