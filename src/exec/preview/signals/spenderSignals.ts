import { KECCAK256_NULL, bytesToHex, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../../chain/parseHeader.js'
import type { Hex } from '../../../types/hex.js'
import type { Engine } from '../../createEngine.js'

/** A signal a wallet can show beside a preview: what it is, how much it should worry, and its details. */
export type PreviewSignal = { kind: string; severity: 'info' | 'warning' | 'danger' } & Record<string, unknown>

/** EIP-7702's delegation designator: `0xef0100 ‖ address`. */
const DELEGATION_PREFIX = '0xef0100'

/** What an address holds on the block: no code (an EOA), an EIP-7702 delegation (to whom), or code. */
export type CodeKind = { kind: 'eoa' } | { kind: 'delegated'; delegatedTo: Hex } | { kind: 'contract' }

/** The address's verified code on the block, said as an EOA, a delegated EOA (EIP-7702) or a contract. */
export async function codeKindOf(engine: Engine, block: VerifiedHeader, address: Hex): Promise<CodeKind> {
  // The proven account first: an EOA's code hash says it has none (no code fetched).
  const account = await engine.source.getAccount(block, address)
  if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return { kind: 'eoa' }
  const code = bytesToHex(await engine.source.getCode(block, address)).toLowerCase()
  if (code === '0x') return { kind: 'eoa' }
  if (code.length === 2 + 46 && code.startsWith(DELEGATION_PREFIX)) {
    return { kind: 'delegated', delegatedTo: `0x${code.slice(8)}` as Hex }
  }
  return { kind: 'contract' }
}

/**
 * The signals about a spender (one an approval or a permit allows to move the account's assets), on
 * the block's verified state: `spenderIsEoa` where it has no code — anyone holding its key can spend,
 * no contract logic limits it — with `delegatedTo` where it is an EIP-7702 delegated EOA (its code
 * is then another contract's, which the EOA's key can change at will). A contract spender gives none.
 * Shared by the transaction preview and typed-data previews (permits).
 */
export async function spenderSignals(engine: Engine, block: VerifiedHeader, spender: Hex): Promise<PreviewSignal[]> {
  const code = await codeKindOf(engine, block, spender)
  if (code.kind === 'contract') return []
  return [
    {
      kind: 'spenderIsEoa',
      severity: 'warning',
      spender,
      ...(code.kind === 'delegated' ? { delegated: true, delegatedTo: code.delegatedTo } : { delegated: false }),
    },
  ]
}
