import type { Block, BlockHeader } from '@ethereumjs/block'
import type { EVMOpts } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { Account, type Address, bytesToBigInt, createAddressFromString, setLengthLeft } from '@ethereumjs/util'
import { p256 } from '@noble/curves/nist.js'
import { recoverBorAuthor } from '../chain/bor/borSeal.js'
import type { ChainRules } from '../chain/createChainRules.js'

// What a Bor block's execution does differently from Ethereum's (bor core/evm.go, core/state_transition.go,
// core/vm/contracts.go): COINBASE is the block's author (the seal's signer; the header's coinbase is
// zero), the London base fee goes to the burnt contract instead of nowhere, and from Napoli a P-256
// signature verifier sits at 0x100 (RIP-7212, 3,450 gas).

type CustomPrecompile = NonNullable<EVMOpts['customPrecompiles']>[number]

/** RIP-7212's gas, as bor charges it (EIP-7951's Osaka price is twice that). */
export const BOR_P256_VERIFY_GAS = 3450n
const P256_ADDRESS = '0x0000000000000000000000000000000000000100'
const P256_N = p256.Point.CURVE().n

/**
 * bor's p256Verify: hash ‖ r ‖ s ‖ x ‖ y (160 bytes) → 1 as a 32-byte word when (r, s) signs the
 * hash under the key (x, y) on the curve, nothing otherwise (a wrong length included). No low-s rule.
 */
export function borP256Verify(input: Uint8Array): Uint8Array {
  if (input.length !== 160) return new Uint8Array(0)
  const r = bytesToBigInt(input.subarray(32, 64))
  const s = bytesToBigInt(input.subarray(64, 96))
  if (r === 0n || s === 0n || r >= P256_N || s >= P256_N) return new Uint8Array(0)
  try {
    const key = new Uint8Array(65)
    key[0] = 4
    key.set(input.subarray(96, 160), 1)
    const ok = p256.verify(input.subarray(32, 96), input.subarray(0, 32), key, { prehash: false, lowS: false })
    return ok ? setLengthLeft(Uint8Array.of(1), 32) : new Uint8Array(0)
  } catch {
    // Not a point on the curve.
    return new Uint8Array(0)
  }
}

function p256Precompile(): CustomPrecompile {
  return {
    address: createAddressFromString(P256_ADDRESS),
    function: (opts: { data: Uint8Array; gasLimit: bigint }) => {
      if (opts.gasLimit < BOR_P256_VERIFY_GAS) {
        return {
          returnValue: new Uint8Array(0),
          executionGasUsed: opts.gasLimit,
          exceptionError: { error: 'out of gas', errorType: 'EvmError' },
        }
      }
      return { executionGasUsed: BOR_P256_VERIFY_GAS, returnValue: borP256Verify(opts.data) }
    },
  } as never
}

/**
 * The EVM options a block of this chain needs: on a Bor chain, COINBASE answering the block's
 * author (ethereumjs asks a proof-of-authority chain's `cliqueSigner` for it; here the Bor seal's
 * signer, or the header's coinbase when the caller set the fee recipient or the block has no seal —
 * a simulated one, where bor's Author fails), and the P-256 verifier from Napoli on. Nothing on other chains.
 */
export function chainEvmOptions(
  rules: ChainRules,
  header: BlockHeader,
  { authorFromSeal = true }: { authorFromSeal?: boolean } = {},
): Pick<EVMOpts, 'cliqueSigner' | 'customPrecompiles'> {
  const bor = rules.bor
  if (!bor) return {}
  let author: Address | undefined
  const recovered = (): Address => {
    try {
      return createAddressFromString(recoverBorAuthor(header, bor.isJaipur(header.number)))
    } catch {
      return header.coinbase
    }
  }
  const out: Pick<EVMOpts, 'cliqueSigner' | 'customPrecompiles'> = {
    // Asked with the block the EVM runs in (an eth_call's context, overrides applied): its fee
    // recipient when the caller set one, else the author of the verified block it stands on.
    cliqueSigner: (block) => (authorFromSeal ? (author ??= recovered()) : block.coinbase),
  }
  if (bor.isNapoli(header.number)) out.customPrecompiles = [p256Precompile()]
  return out
}

/** The P-256 verifier as a precompile list entry, where a caller builds its own list (eth_simulateV1). */
export function borPrecompiles(rules: ChainRules, number: bigint): CustomPrecompile[] {
  return rules.bor?.isNapoli(number) ? [p256Precompile()] : []
}

/**
 * After a transaction of a Bor block from London on: the base fee it paid (gas used × base fee)
 * credited to the chain's burnt contract, as bor's state transition does.
 */
export async function creditBorBurn(
  state: StateManagerInterface,
  rules: ChainRules,
  header: BlockHeader,
  gasUsed: bigint,
): Promise<void> {
  const bor = rules.bor
  const baseFee = header.baseFeePerGas
  if (!bor || baseFee === undefined || baseFee === 0n || gasUsed === 0n) return
  const contract = bor.burntContract(header.number)
  if (!contract) return
  const address = createAddressFromString(contract)
  const account = (await state.getAccount(address)) ?? new Account()
  account.balance += gasUsed * baseFee
  await state.putAccount(address, account)
}

/**
 * The block a Bor block's transactions run in: the same block, but its header's coinbase the
 * block's author, which bor's EVM context takes as the coinbase (EIP-3651 warms it, not the zero
 * address the header holds). The header's encoding (`raw`, and so its hash and the seal ethereumjs
 * recovers the fee recipient from) stays the verified one. The block itself on other chains, or
 * when the seal does not recover.
 */
export function executionBlock(rules: ChainRules, block: Block): Block {
  const bor = rules.bor
  if (!bor) return block
  let author: Address
  try {
    author = createAddressFromString(recoverBorAuthor(block.header, bor.isJaipur(block.header.number)))
  } catch {
    return block
  }
  const original = block.header
  // Its own fields copied (a spread of it, as ethereumjs' runBlock makes, sees them), the methods inherited.
  const header = Object.create(original, {
    ...Object.getOwnPropertyDescriptors(original),
    coinbase: { value: author, enumerable: true },
    raw: { value: () => original.raw() },
  }) as BlockHeader
  return Object.create(block, { ...Object.getOwnPropertyDescriptors(block), header: { value: header } }) as Block
}
