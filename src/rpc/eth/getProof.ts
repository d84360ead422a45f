import { KECCAK256_NULL, KECCAK256_RLP, bytesToBigInt, bytesToHex } from '@ethereumjs/util'
import { InvalidParamsRpcError } from '../../errors/rpc.js'
import { type ProofAnswer, parseProofAnswer } from '../../state/parseProofAnswer.js'
import { ProofVerificationError } from '../../errors/state.js'
import { requestProof } from '../../state/requestProof.js'
import { verifyAccountProof } from '../../state/verifyAccountProof.js'
import { verifyStorageProof } from '../../state/verifyStorageProof.js'
import type { Hex } from '../../types/hex.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { ParamError, optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { type StorageKey, parseStorageKey } from './parseStorageKey.js'
import { resolveStateBlock } from './resolveStateBlock.js'

/** geth's maxGetProofKeys. */
const MAX_KEYS = 1024

function parseStorageKeys(raw: unknown): StorageKey[] {
  if (!Array.isArray(raw)) throw new ParamError('json: cannot unmarshal non-array into Go value of type []string')
  return raw.map(parseStorageKey)
}

const lower = (nodes: string[]) => nodes.map((n) => n.toLowerCase())

/**
 * eth_getProof(address, storageKeys, block = latest): the upstream's EIP-1186 proof, returned only
 * after it verified — the account proof against the block's stateRoot, each storage proof against
 * the proven storageRoot — and with every field taken from what the proofs prove. Keys come back as
 * geth writes them: a 32-byte key as given, a shorter one as a quantity.
 */
export const getProof = defineMethod({
  name: 'eth_getProof',
  params: [required(parseAddress), required(parseStorageKeys), optional(parseBlockParameter)],
  async run(engine, [address, keys, selector]) {
    if (keys.length > MAX_KEYS) throw new InvalidParamsRpcError(`too many storage keys (max ${MAX_KEYS})`)
    const block = await resolveStateBlock(engine, selector)
    const slots = keys.map((k) => k.slot)
    const raw = await requestProof(engine.upstream, block, address, slots)
    const where = { block: { number: block.number, hash: block.hash }, address }
    let proof: ProofAnswer
    try {
      proof = parseProofAnswer(raw)
    } catch (err) {
      throw new ProofVerificationError('eth_getProof answer is malformed', where, { cause: err })
    }
    if (proof.storageProof.length !== keys.length) {
      const got = proof.storageProof.length
      throw new ProofVerificationError(`asked for ${keys.length} slots, got ${got} storage proofs`, where)
    }
    const account = await verifyAccountProof(block.header.stateRoot, proof, where)
    const storageRoot = account?.storageRoot ?? KECCAK256_RLP
    const storageProof = await Promise.all(
      keys.map(async (key, i) => {
        const entry = proof.storageProof[i]
        const value = await verifyStorageProof(storageRoot, entry, { ...where, slot: key.slot })
        return {
          key: key.inputLength === 32 ? key.slot : quantity(BigInt(key.slot)),
          value: quantity(bytesToBigInt(value)),
          proof: lower(entry!.proof),
        }
      }),
    )
    // Verified: the source may keep it (it checks it again before it does).
    await engine.source.offerProof(block, raw)
    return {
      address,
      accountProof: lower(proof.accountProof),
      balance: quantity(account?.balance ?? 0n),
      codeHash: bytesToHex(account?.codeHash ?? KECCAK256_NULL) as Hex,
      nonce: quantity(account?.nonce ?? 0n),
      storageHash: bytesToHex(storageRoot) as Hex,
      storageProof,
    }
  },
})
