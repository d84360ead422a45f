import { MerklePatriciaTrie, updateMPTFromMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { keccak_256 } from '@noble/hashes/sha3.js'
import {
  KECCAK256_RLP,
  bigIntToUnpaddedBytes,
  createAddressFromString,
  equalsBytes,
  hexToBytes,
  unpadBytes,
} from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { ProofVerificationError } from '../errors/state.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { Hex } from '../types/hex.js'
import type { Engine } from './createEngine.js'

type ProofAnswer = { accountProof?: Hex[]; storageProof?: { key: Hex; proof?: Hex[] }[] }

/**
 * Writes `key` (deletes it when `value` is null) only when every node on its path is known:
 * ethereumjs would otherwise take a missing node for an empty subtree and give a made-up root.
 */
export async function writeProven(trie: MerklePatriciaTrie, key: Uint8Array, value: Uint8Array | null): Promise<void> {
  // An empty trie has no node to walk (its root is the hash of nothing).
  if (!equalsBytes(trie.root(), KECCAK256_RLP)) await trie.findPath(keccak_256(key), true)
  if (value) await trie.put(key, value)
  else await trie.del(key)
}

const toBytes = (nodes: Hex[] | undefined) => (nodes ?? []).map((n) => hexToBytes(n))
const isZero = (v: Uint8Array) => v.every((b) => b === 0)

/**
 * The post-state root of simulated blocks, as a full node computes it: the base block's state trie,
 * known only by the nodes the upstream's proofs bring (eth_getProof at the base block, asked once per
 * account and slot the simulation wrote), with each block's writes applied on top. The nodes need no
 * trust: they are found by their hashes from the verified stateRoot and storage roots, so a missing
 * or altered node cannot give a root — it is an error naming what could not be computed.
 *
 * Not covered: a deletion that collapses a branch onto a sibling no proof brought (the error says
 * so); storage of an account deleted and re-created within one block.
 */
export function createStateRootTracker(engine: Engine, base: VerifiedHeader) {
  const accounts = new MerklePatriciaTrie({ useKeyHashing: true })
  accounts.root(base.header.stateRoot)
  const storage = new Map<Hex, MerklePatriciaTrie>()
  const provenAccounts = new Set<Hex>()
  const provenSlots = new Map<Hex, Set<Hex>>()
  // Accounts whose storage starts empty from here: replaced by a `state` override, or deleted.
  const fresh = new Set<Hex>()

  async function storageTrie(address: Hex): Promise<MerklePatriciaTrie> {
    let trie = storage.get(address)
    if (!trie) {
      trie = new MerklePatriciaTrie({ useKeyHashing: true })
      const account = fresh.has(address) ? undefined : await engine.source.getAccount(base, address)
      trie.root(account ? account.storageRoot : KECCAK256_RLP)
      storage.set(address, trie)
    }
    return trie
  }

  async function fetchProofs(state: OverlayStateManager): Promise<void> {
    const asks: Promise<void>[] = []
    for (const address of state.dirtyAddresses()) {
      const known = provenSlots.get(address) ?? new Set<Hex>()
      const slots = fresh.has(address) ? [] : state.dirtySlots(address).filter((s) => !known.has(s))
      if (provenAccounts.has(address) && slots.length === 0) continue
      asks.push(
        (async () => {
          // Kept in memory (a key of no persisted kind) so that a repeated simulation asks nothing.
          const cacheKey = `simroot:${base.hash}:${address}:${[...slots].sort().join(',')}`
          let answer = engine.cache.get<ProofAnswer>(cacheKey)
          if (!answer) {
            answer = (await engine.upstream.request('eth_getProof', [
              address,
              slots,
              { blockHash: base.hash },
            ])) as ProofAnswer
            const nodes = [
              ...(answer?.accountProof ?? []),
              ...(answer?.storageProof ?? []).flatMap((p) => p.proof ?? []),
            ]
            engine.cache.set(cacheKey, answer, 256 + nodes.reduce((n, x) => n + x.length, 0))
          }
          await updateMPTFromMerkleProof(accounts, toBytes(answer?.accountProof), false)
          const trie = await storageTrie(address)
          for (const p of answer?.storageProof ?? []) await updateMPTFromMerkleProof(trie, toBytes(p.proof), false)
          provenAccounts.add(address)
          for (const s of slots) known.add(s)
          provenSlots.set(address, known)
        })(),
      )
    }
    await Promise.all(asks)
  }

  return {
    /** An account's storage is replaced wholesale (a `state` override): its trie starts empty. */
    startFresh(address: Hex) {
      const trie = new MerklePatriciaTrie({ useKeyHashing: true })
      fresh.add(address)
      storage.set(address, trie)
    },

    /** The state root after the writes `state` holds so far (all blocks up to now). */
    async root(state: OverlayStateManager, blockNumber: bigint): Promise<Uint8Array> {
      await fetchProofs(state)
      let where: { address?: Hex; slot?: Hex } = {}
      try {
        for (const address of state.dirtyAddresses()) {
          where = { address }
          const key = hexToBytes(address)
          const account = state.isDeleted(address)
            ? undefined
            : await state.getAccount(createAddressFromString(address))
          if (!account) {
            await writeProven(accounts, key, null)
            if (!fresh.has(address)) this.startFresh(address)
            continue
          }
          const trie = await storageTrie(address)
          for (const slot of state.dirtySlots(address)) {
            where = { address, slot }
            const value = await state.getStorage(createAddressFromString(address), hexToBytes(slot))
            await writeProven(trie, hexToBytes(slot), isZero(value) ? null : RLP.encode(unpadBytes(value)))
          }
          where = { address }
          await writeProven(
            accounts,
            key,
            RLP.encode([
              bigIntToUnpaddedBytes(account.nonce),
              bigIntToUnpaddedBytes(account.balance),
              trie.root(),
              account.codeHash,
            ]),
          )
        }
      } catch (err) {
        throw new ProofVerificationError(
          `the post-state root of simulated block ${blockNumber} needs a trie node the upstream's proofs did not bring`,
          { block: { number: base.number, hash: base.hash }, ...where },
          { cause: err },
        )
      }
      return accounts.root()
    },
  }
}
