import { createMPT, createMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { ProofVerificationError } from '../errors/state.js'
import { verifyStorageProof } from './verifyStorageProof.js'
import type { Hex } from '../types/hex.js'

const block = { number: 7n, hash: `0x${'77'.repeat(32)}` }
const address = '0x00000000000000000000000000000000000000aa'
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

/** A storage trie with slot 1 = `value`, and the storage-proof entry an honest node sends for `key`. */
async function storageWith(key: string, value = 0x2a) {
  const trie = await createMPT({ useKeyHashing: true })
  await trie.put(hexToBytes(slot(1) as Hex), RLP.encode(new Uint8Array([value])))
  const proof = (await createMerkleProof(trie, hexToBytes(key as Hex))).map((n) => bytesToHex(n))
  return { root: trie.root(), entry: { key, value: key === slot(1) ? `0x${value.toString(16)}` : '0x0', proof } }
}

describe('verifyStorageProof', () => {
  it("returns the slot's value without leading zeros, empty for a slot proven absent or an empty trie", async () => {
    const set = await storageWith(slot(1))
    expect(await verifyStorageProof(set.root, set.entry, { block, address, slot: slot(1) })).toEqual(
      new Uint8Array([0x2a]),
    )
    const unset = await storageWith(slot(2))
    expect(await verifyStorageProof(unset.root, unset.entry, { block, address, slot: slot(2) })).toEqual(
      new Uint8Array(0),
    )
    const empty = { key: slot(1), value: '0x0', proof: [] }
    expect(await verifyStorageProof(KECCAK256_RLP, empty, { block, address, slot: slot(1) })).toEqual(new Uint8Array(0))
  })

  it('refuses a value the proof does not prove, naming the slot', async () => {
    const set = await storageWith(slot(1))
    const err = await verifyStorageProof(
      set.root,
      { ...set.entry, value: '0x2b' },
      { block, address, slot: slot(1) },
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProofVerificationError)
    expect((err as Error).message).toContain('storage value differs from what the proof proves')
    expect((err as ProofVerificationError).data).toEqual({
      block: { number: '0x7', hash: block.hash },
      address,
      slot: slot(1),
    })
  })

  it('refuses a missing proof and a proof from another storage trie, with both roots in data', async () => {
    const set = await storageWith(slot(1))
    const where = { block, address, slot: slot(1) }
    const missing = { key: slot(1), value: '0x2a' } as unknown as typeof set.entry
    await expect(verifyStorageProof(set.root, missing, where)).rejects.toThrow(
      'storage proof does not verify against the storageRoot',
    )
    // The storage of another account (or another block), where slot 1 holds 0x2b.
    const other = await storageWith(slot(1), 0x2b)
    const err = await verifyStorageProof(set.root, other.entry, where).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProofVerificationError)
    expect((err as ProofVerificationError).data).toEqual({
      block: { number: '0x7', hash: block.hash },
      address,
      slot: slot(1),
      expectedRoot: bytesToHex(set.root),
      gotRoot: bytesToHex(other.root),
    })
  })
})
