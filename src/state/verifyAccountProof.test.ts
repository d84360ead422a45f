import { createMPT, createMerkleProof } from '@ethereumjs/mpt'
import { Account, KECCAK256_NULL, KECCAK256_RLP, bigIntToHex, bytesToHex, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { ProofVerificationError } from '../errors/state.js'
import type { ProofAnswer } from './parseProofAnswer.js'
import { verifyAccountProof } from './verifyAccountProof.js'
import type { Hex } from '../types/hex.js'

const PRESENT = '0x00000000000000000000000000000000000000aa'
const ABSENT = '0x00000000000000000000000000000000000000bb'
const block = { number: 7n, hash: `0x${'77'.repeat(32)}` }
const codeHash = keccak_256(new Uint8Array([0x60, 0x00]))
const storageRoot = keccak_256(new Uint8Array([1]))

/** A state trie holding one account, and its eth_getProof answer for `address` as an honest node sends it. */
async function stateWith(address: string) {
  const trie = await createMPT({ useKeyHashing: true })
  const account = new Account(3n, 1000n, storageRoot, codeHash)
  await trie.put(hexToBytes(PRESENT), account.serialize())
  const present = address === PRESENT
  const proof: ProofAnswer = {
    address,
    nonce: present ? '0x3' : '0x0',
    balance: present ? '0x3e8' : '0x0',
    storageHash: bytesToHex(present ? storageRoot : KECCAK256_RLP),
    codeHash: bytesToHex(present ? codeHash : KECCAK256_NULL),
    accountProof: (await createMerkleProof(trie, hexToBytes(address as Hex))).map((n) => bytesToHex(n)),
    storageProof: [],
  }
  return { root: trie.root(), proof }
}

describe('verifyAccountProof', () => {
  it('returns the account the proof proves, and undefined for one it proves absent', async () => {
    const present = await stateWith(PRESENT)
    const account = await verifyAccountProof(present.root, present.proof, { block, address: PRESENT })
    expect(account?.nonce).toBe(3n)
    expect(account?.balance).toBe(1000n)
    expect(account?.storageRoot).toEqual(storageRoot)
    expect(account?.codeHash).toEqual(codeHash)
    const absent = await stateWith(ABSENT)
    expect(await verifyAccountProof(absent.root, absent.proof, { block, address: ABSENT })).toBeUndefined()
    // Some nodes send zeros for an absent account's hashes.
    const zeros = { ...absent.proof, storageHash: '0x0', codeHash: `0x${'00'.repeat(32)}` }
    expect(await verifyAccountProof(absent.root, zeros, { block, address: ABSENT })).toBeUndefined()
  })

  it('refuses a field the proof does not back, for a present account and for an absent one', async () => {
    const present = await stateWith(PRESENT)
    for (const field of ['nonce', 'balance'] as const) {
      const claimed = { ...present.proof, [field]: bigIntToHex(BigInt(present.proof[field]) + 1n) }
      await expect(verifyAccountProof(present.root, claimed, { block, address: PRESENT })).rejects.toThrow(
        'account fields differ from what the proof proves',
      )
    }
    const otherCode = { ...present.proof, codeHash: bytesToHex(KECCAK256_NULL) }
    await expect(verifyAccountProof(present.root, otherCode, { block, address: PRESENT })).rejects.toThrow(
      'account fields differ',
    )
    const absent = await stateWith(ABSENT)
    const funded = { ...absent.proof, balance: '0x1' }
    await expect(verifyAccountProof(absent.root, funded, { block, address: ABSENT })).rejects.toThrow(
      'account is proven absent, but the upstream claims fields for it',
    )
  })

  it('refuses an answer for another address', async () => {
    const present = await stateWith(PRESENT)
    await expect(verifyAccountProof(present.root, present.proof, { block, address: ABSENT })).rejects.toThrow(
      `eth_getProof answered for ${PRESENT}`,
    )
  })

  it('refuses a proof rooted elsewhere, with the root it had to lead from and the one it leads from in data', async () => {
    const present = await stateWith(PRESENT)
    const elsewhere = keccak_256(new Uint8Array([2]))
    const err = await verifyAccountProof(elsewhere, present.proof, { block, address: PRESENT }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProofVerificationError)
    expect((err as ProofVerificationError).data).toEqual({
      block: { number: '0x7', hash: block.hash },
      address: PRESENT,
      expectedRoot: bytesToHex(elsewhere),
      gotRoot: bytesToHex(present.root),
    })
  })
})
