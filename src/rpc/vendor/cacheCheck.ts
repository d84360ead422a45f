import type { Account } from '@ethereumjs/util'
import { bytesToBigInt, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../../utils/keccak256.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { ServerRpcError } from '../../errors/rpc.js'
import { parseProofAnswer } from '../../state/parseProofAnswer.js'
import { verifyAccountProof } from '../../state/verifyAccountProof.js'
import { verifyStorageProof } from '../../state/verifyStorageProof.js'
import type { Hex } from '../../types/hex.js'
import { parseCacheKey } from '../../utils/cacheKeys.js'
import { defineMethod } from '../defineMethod.js'

/** The most eth_getProof calls one check makes (accounts and slots re-proven); the rest are counted as skipped. */
export const CACHE_CHECK_MAX_PROOFS = 1000

/** Re-proofs asked at once. */
const WAVE = 100

type Tally = { checked: number; failed: number }
type Failure = { key: string; reason: string }

const sameAccount = (kept: Account | null, proven: Account | undefined) =>
  kept === null || proven === undefined
    ? kept === null && proven === undefined
    : kept.balance === proven.balance &&
      kept.nonce === proven.nonce &&
      equalsBytes(kept.storageRoot, proven.storageRoot) &&
      equalsBytes(kept.codeHash, proven.codeHash)

/**
 * erigon_cacheCheck(): a self-check of edgetrace's cache of verified state (the reference's checks
 * its own state cache against its database). Every entry in memory is verified again, from scratch:
 * a header must hash to the hash it is kept under; code must hash to its code hash; an account is
 * proven again (eth_getProof at its block) against the stateRoot of its block's kept header, and must
 * equal what is kept; a slot is proven again through an account whose storageRoot it is kept under
 * (one kept for some block; a slot whose root no kept account has cannot be re-proven: `unanchored`).
 * An entry that fails is evicted (so nothing unproven is served from it) and listed with its reason.
 * At most 1,000 proofs are asked; what is left is counted as `skipped`. With `--unverified` nothing
 * was proven, so there is nothing to check: the answer says so.
 */
export const cacheCheck = defineMethod({
  name: 'erigon_cacheCheck',
  params: [],
  async run(engine) {
    if (!engine.source.verified)
      throw new ServerRpcError('the cache holds unverified state (--unverified): there are no proofs to check')
    const headers: Tally = { checked: 0, failed: 0 }
    const accounts: Tally = { checked: 0, failed: 0 }
    const slots: Tally & { unanchored: number } = { checked: 0, failed: 0, unanchored: 0 }
    const code: Tally = { checked: 0, failed: 0 }
    const failures: Failure[] = []
    let skipped = 0
    const keys = engine.cache.keys()
    // An entry evicted while the check runs (it asks the upstream) is passed over, not failed.
    const peek = <value>(key: string) => (engine.cache.has(key) ? engine.cache.get<value>(key) : undefined)
    const fail = (tally: Tally, key: string, reason: string) => {
      tally.failed++
      failures.push({ key, reason })
      engine.cache.delete(key)
    }

    const kept = new Map<string, VerifiedHeader>()
    for (const key of keys) {
      const parsed = parseCacheKey(key)
      if (parsed.kind === 'header') {
        const header = peek<VerifiedHeader>(key)
        if (!header) continue
        headers.checked++
        const hash = bytesToHex(header.header.hash())
        if (hash !== parsed.hash.toLowerCase() || header.hash !== hash)
          fail(headers, key, `the header hashes to ${hash}, it is kept as ${parsed.hash}`)
        else kept.set(hash, header)
      } else if (parsed.kind === 'code') {
        const bytes = peek<Uint8Array>(key)
        if (!bytes) continue
        code.checked++
        const hash = bytesToHex(keccak256(bytes))
        if (hash !== parsed.codeHash.toLowerCase())
          fail(code, key, `the code hashes to ${hash}, it is kept as ${parsed.codeHash}`)
      }
    }

    // Accounts by block, and the (block, address) each storage root can be re-proven through.
    const anchors = new Map<string, { blockHash: string; address: string }>()
    const accountKeys: { key: string; blockHash: string; address: string; account: Account | null }[] = []
    for (const key of keys) {
      const parsed = parseCacheKey(key)
      if (parsed.kind !== 'account' || !engine.cache.has(key)) continue
      const account = peek<Account | null>(key) ?? null
      accountKeys.push({ key, blockHash: parsed.blockHash, address: parsed.address, account })
      if (account)
        anchors.set(bytesToHex(account.storageRoot), { blockHash: parsed.blockHash, address: parsed.address })
    }
    const headerOf = async (blockHash: string) =>
      kept.get(blockHash.toLowerCase()) ?? (await engine.headers.byHash(blockHash as Hex))
    const prove = async (blockHash: string, address: string, slotKeys: string[]) =>
      parseProofAnswer(await engine.upstream.request('eth_getProof', [address, slotKeys, blockHash]))
    // Each re-proof is a task, run WAVE at a time (the upstream client batches what is asked at once).
    const tasks: (() => Promise<void>)[] = []
    const schedule = (task: () => Promise<void>): boolean => {
      if (tasks.length >= CACHE_CHECK_MAX_PROOFS) {
        skipped++
        return false
      }
      tasks.push(task)
      return true
    }

    for (const entry of accountKeys) {
      if (!schedule(() => checkAccount(entry))) continue
      accounts.checked++
    }
    async function checkAccount(entry: (typeof accountKeys)[number]) {
      try {
        const header = await headerOf(entry.blockHash)
        const where = { block: { number: header.number, hash: header.hash }, address: entry.address as Hex }
        const proven = await verifyAccountProof(
          header.header.stateRoot,
          await prove(entry.blockHash, entry.address, []),
          where,
        )
        if (!sameAccount(entry.account, proven))
          fail(
            accounts,
            entry.key,
            `block ${header.number} ${header.hash}: the proof proves another account for ${entry.address}`,
          )
      } catch (err) {
        fail(accounts, entry.key, (err as Error).message)
      }
    }

    for (const key of keys) {
      const parsed = parseCacheKey(key)
      if (parsed.kind !== 'slot' || !engine.cache.has(key)) continue
      const value = peek<Uint8Array>(key) ?? new Uint8Array(0)
      const anchor = anchors.get(parsed.storageRoot.toLowerCase())
      if (!anchor) {
        slots.unanchored++
        continue
      }
      if (!schedule(() => checkSlot(key, parsed.storageRoot, parsed.slot, value, anchor))) continue
      slots.checked++
    }
    async function checkSlot(
      key: string,
      storageRoot: string,
      slot: string,
      value: Uint8Array,
      anchor: { blockHash: string; address: string },
    ) {
      try {
        const header = await headerOf(anchor.blockHash)
        const answer = await prove(anchor.blockHash, anchor.address, [slot])
        const where = { block: { number: header.number, hash: header.hash }, address: anchor.address, slot }
        const proven = await verifyStorageProof(hexToBytes(storageRoot as Hex), answer.storageProof[0], where)
        if (bytesToBigInt(proven) !== bytesToBigInt(value))
          fail(
            slots,
            key,
            `block ${header.number} ${header.hash}: ${anchor.address} slot ${slot} is proven to hold another value`,
          )
      } catch (err) {
        fail(slots, key, (err as Error).message)
      }
    }

    for (let start = 0; start < tasks.length; start += WAVE)
      await Promise.all(tasks.slice(start, start + WAVE).map((task) => task()))

    return {
      entries: keys.length,
      headers,
      accounts,
      slots,
      code,
      skipped,
      proofsAsked: tasks.length,
      evicted: failures.length,
      failures,
    }
  },
})
