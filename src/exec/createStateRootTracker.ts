import { BranchMPTNode, LeafMPTNode, MerklePatriciaTrie, updateMPTFromMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../utils/keccak256.js'
import {
  KECCAK256_RLP,
  bigIntToUnpaddedBytes,
  bytesToHex,
  createAddressFromString,
  equalsBytes,
  hexToBytes,
  unpadBytes,
} from '@ethereumjs/util'
import type { VerifiedHeader } from '../chain/parseHeader.js'
import { ProofVerificationError } from '../errors/state.js'
import type { OverlayStateManager } from '../state/createOverlayStateManager.js'
import type { Hex } from '../types/hex.js'
import { shouldYield, yieldToEventLoop } from '../utils/yieldToEventLoop.js'
import type { Engine } from './createEngine.js'

type ProofAnswer = { accountProof?: Hex[]; storageProof?: { key: Hex; proof?: Hex[] }[] }

/** Brings the proof nodes of a key whose hashed path starts with `prefix` (nibbles) into the trie. */
export type ProveRoutedKey = (prefix: number[]) => Promise<void>

/**
 * Writes `key` (deletes it when `value` is null) only when every node on its path is known:
 * ethereumjs would otherwise take a missing node for an empty subtree and give a made-up root. A
 * deletion that collapses a branch onto its one remaining child needs that child (to merge its key);
 * when no proof brought it, `prove` is asked for a key routed into it.
 */
export async function writeProven(
  trie: MerklePatriciaTrie,
  key: Uint8Array,
  value: Uint8Array | null,
  prove?: ProveRoutedKey,
): Promise<void> {
  // An empty trie has no node to walk (its root is the hash of nothing).
  if (!equalsBytes(trie.root(), KECCAK256_RLP)) await trie.findPath(keccak256(key), true)
  if (value) return trie.put(key, value)
  const missing = await missingSibling(trie, key)
  if (missing && prove) {
    await prove(missing)
    if (await missingSibling(trie, key)) throw new Error('Missing node in DB')
  }
  // Without the child, ethereumjs' delete throws (and stays locked): refuse before it starts.
  if (missing && !prove) throw new Error('Missing node in DB')
  await trie.del(key)
}

/**
 * The path (nibbles) of the node a deletion of `key` would collapse its branch onto, when that node
 * is not known; undefined when the deletion needs nothing more.
 */
async function missingSibling(trie: MerklePatriciaTrie, key: Uint8Array): Promise<number[] | undefined> {
  if (equalsBytes(trie.root(), KECCAK256_RLP)) return undefined
  const { node, stack } = await trie.findPath(keccak256(key), true)
  if (!(node instanceof LeafMPTNode) || stack.length < 2) return undefined
  const branch = stack[stack.length - 2]
  if (!(branch instanceof BranchMPTNode)) return undefined
  const children = branch.getChildren()
  if (children.length !== 2 || branch.value() !== null) return undefined
  const nibbles = bytesToNibbles(keccak256(key))
  const atBranch = nibbles.length - node.key().length - 1
  const [index, child] = children.find(([i]) => i !== nibbles[atBranch])!
  // A child shorter than 32 bytes is embedded in the branch itself.
  if (!(child instanceof Uint8Array)) return undefined
  try {
    await trie.lookupNode(child)
    return undefined
  } catch {
    return [...nibbles.slice(0, atBranch), index]
  }
}

function bytesToNibbles(bytes: Uint8Array): number[] {
  const out: number[] = []
  for (const b of bytes) out.push(b >> 4, b & 0x0f)
  return out
}

/**
 * The longest hashed-path prefix searched for: a preimage routed under n nibbles takes about 16^n
 * hashes (16^4 ≈ 65,000, under a second). A deletion deeper in a large trie stays an error.
 */
const MAX_SEARCHED_NIBBLES = 4

/**
 * A key of `length` bytes whose keccak starts with the `prefix` nibbles — a key the trie routes into
 * the node at that path — or undefined when the path is too deep to search. The search yields to
 * the event loop as it goes.
 */
export async function findKeyRoutedTo(prefix: number[], length: number): Promise<Uint8Array | undefined> {
  if (prefix.length > MAX_SEARCHED_NIBBLES) return undefined
  const candidate = new Uint8Array(length)
  const view = new DataView(candidate.buffer)
  for (let i = 0; i < 64 * 16 ** prefix.length; i++) {
    view.setUint32(length - 4, i)
    const hash = keccak256(candidate)
    let match = true
    for (let n = 0; n < prefix.length && match; n++) {
      match = (n % 2 === 0 ? hash[n >> 1]! >> 4 : hash[n >> 1]! & 0x0f) === prefix[n]
    }
    if (match) return candidate.slice()
    if (i % 4096 === 0 && shouldYield()) await yieldToEventLoop()
  }
  return undefined
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
 * A deletion that collapses a branch onto a sibling no proof brought fetches the proof of a key
 * routed into that sibling (found by search, up to MAX_SEARCHED_NIBBLES deep; deeper, the error says
 * so). Not covered: storage of an account deleted and re-created within one block.
 */
export function createStateRootTracker(engine: Engine, base: VerifiedHeader) {
  const accounts = new MerklePatriciaTrie({ useKeyHashing: true, useKeyHashingFunction: keccak256 })
  accounts.root(base.header.stateRoot)
  const storage = new Map<Hex, MerklePatriciaTrie>()
  const provenAccounts = new Set<Hex>()
  const provenSlots = new Map<Hex, Set<Hex>>()
  // Accounts whose storage starts empty from here: replaced by a `state` override, or deleted.
  const fresh = new Set<Hex>()

  async function storageTrie(address: Hex): Promise<MerklePatriciaTrie> {
    let trie = storage.get(address)
    if (!trie) {
      trie = new MerklePatriciaTrie({ useKeyHashing: true, useKeyHashingFunction: keccak256 })
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

  /** eth_getProof at the base block, for a key routed under a node no earlier proof brought. */
  async function proofAt(address: Hex, slots: Hex[]): Promise<ProofAnswer> {
    return (await engine.upstream.request('eth_getProof', [address, slots, { blockHash: base.hash }])) as ProofAnswer
  }
  const proveAccountUnder: ProveRoutedKey = async (prefix) => {
    const address = await findKeyRoutedTo(prefix, 20)
    if (address)
      await updateMPTFromMerkleProof(
        accounts,
        toBytes((await proofAt(bytesToHex(address) as Hex, [])).accountProof),
        false,
      )
  }
  const proveSlotUnder =
    (owner: Hex, trie: MerklePatriciaTrie): ProveRoutedKey =>
    async (prefix) => {
      const slot = await findKeyRoutedTo(prefix, 32)
      if (!slot) return
      const answer = await proofAt(owner, [bytesToHex(slot) as Hex])
      await updateMPTFromMerkleProof(trie, toBytes(answer.storageProof?.[0]?.proof), false)
    }

  return {
    /** An account's storage is replaced wholesale (a `state` override): its trie starts empty. */
    startFresh(address: Hex) {
      const trie = new MerklePatriciaTrie({ useKeyHashing: true, useKeyHashingFunction: keccak256 })
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
            await writeProven(accounts, key, null, proveAccountUnder)
            if (!fresh.has(address)) this.startFresh(address)
            continue
          }
          const trie = await storageTrie(address)
          for (const slot of state.dirtySlots(address)) {
            where = { address, slot }
            const value = await state.getStorage(createAddressFromString(address), hexToBytes(slot))
            const encoded = isZero(value) ? null : RLP.encode(unpadBytes(value))
            await writeProven(trie, hexToBytes(slot), encoded, proveSlotUnder(address, trie))
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
