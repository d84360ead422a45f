import { eoaCode7702RecoverAuthority } from '@ethereumjs/util'
import { addressTopic } from '../abiWords.js'
import type { VerifiedHeader } from '../../../chain/parseHeader.js'
import type { Hex } from '../../../types/hex.js'
import type { SimulatedLog } from '../../createSimulationLogRecorder.js'
import type { Engine } from '../../createEngine.js'
import type { CallArgs } from '../../types.js'
import type { ApprovalChange } from '../previewCalls.js'
import { TRANSFER_TOPIC } from '../tokensMoved.js'
import { firstInteractionSignals } from './firstInteractionSignals.js'
import { newContractSignal } from './newContractSignal.js'
import { type PreviewSignal, codeKindOf, spenderSignals } from './spenderSignals.js'

/** An ERC-20 allowance at or above 2^255 is unlimited (wallets and tokens use max uint256, some 2^255 and up). */
const UNLIMITED_ERC20 = 1n << 255n
/** Permit2's amounts are uint160: its max is its unlimited. */
const UNLIMITED_PERMIT2 = (1n << 160n) - 1n
const ZERO = '0x0000000000000000000000000000000000000000'

export type PreviewSignalsParameters = {
  block: VerifiedHeader
  account: Hex
  /** The calls as given (their authorization lists). */
  calls: readonly CallArgs[]
  /** Each call's logs, in order. */
  logs: readonly (readonly SimulatedLog[])[]
  approvals: readonly ApprovalChange[]
  chainId: bigint
  /** A spender contract younger than this is `newContract` (default 30; 0: not looked for). */
  newContractDays?: number | undefined
  /** Blocks looked back for the account's transactions to each call's target (default 32; 0: not looked for). */
  firstInteractionBlocks?: number | undefined
}

const addressOf = (topic: string): Hex => `0x${topic.slice(26).toLowerCase()}`

/**
 * The preview's signals, each from verified data: the approvals as read after the calls
 * (`unlimitedApproval`), the spenders' and recipients' verified code on the block (`spenderIsEoa`,
 * `recipientIsEoa`), the calls' Transfer logs (`transferToTokenContract`), and the calls'
 * authorization lists (`delegationInstalled`).
 */
export async function previewSignals(
  engine: Engine,
  {
    block,
    account,
    calls,
    logs,
    approvals,
    chainId,
    newContractDays,
    firstInteractionBlocks,
  }: PreviewSignalsParameters,
): Promise<PreviewSignal[]> {
  const out: PreviewSignal[] = []
  const spenders = new Set<Hex>()
  for (const a of approvals) {
    const spender = a.spender?.toLowerCase() as Hex | undefined
    if (a.kind === 'allowance' && a.post !== null && a.post >= UNLIMITED_ERC20 && (a.pre ?? 0n) !== a.post) {
      out.push({
        kind: 'unlimitedApproval',
        severity: 'warning',
        token: a.token.address,
        standard: 'erc20',
        spender: a.spender,
        amount: a.post,
      })
    }
    if (a.kind === 'permit2' && a.post !== null && a.post >= UNLIMITED_PERMIT2 && (a.pre ?? 0n) !== a.post) {
      out.push({
        kind: 'unlimitedApproval',
        severity: 'warning',
        token: a.token.address,
        standard: 'permit2',
        spender: a.spender,
        amount: a.post,
        expiration: a.expiration.post,
      })
    }
    // A spender granted something (not one whose approval was revoked or left as it was).
    const granted =
      a.kind === 'allowance' || a.kind === 'permit2'
        ? (a.post ?? 0n) > 0n
        : a.kind === 'approvalForAll'
          ? a.post === true
          : a.post !== null && a.post !== ZERO
    if (spender && spender !== ZERO && granted) spenders.add(spender)
  }
  // Spenders' and recipients' code read together (one upstream round trip where not cached).
  const recipientList: { token: Hex; recipient: Hex }[] = []

  // ERC-20 Transfers out of the account: to the token's own address, or to an address without code.
  const who = addressTopic(account)
  const recipients = new Map<string, { token: Hex; recipient: Hex }>()
  for (const log of logs.flat()) {
    const [topic, from, to] = log.topics.map((t) => t.toLowerCase())
    if (topic !== TRANSFER_TOPIC || log.topics.length !== 3 || from !== who) continue
    const token = log.address.toLowerCase() as Hex
    const recipient = addressOf(to!)
    if (recipient === token) {
      if (!recipients.has(`self/${token}`)) {
        recipients.set(`self/${token}`, { token, recipient })
        out.push({ kind: 'transferToTokenContract', severity: 'danger', token, recipient })
      }
      continue
    }
    if (recipient !== ZERO) recipients.set(`${token}/${recipient}`, { token, recipient })
  }
  for (const [key, entry] of recipients) if (!key.startsWith('self/')) recipientList.push(entry)
  const targets = calls.flatMap((c) => (c.to ? [c.to] : []))
  const [spenderFound, recipientCode, first] = await Promise.all([
    Promise.all(
      [...spenders].map(async (spender) => {
        const eoa = await spenderSignals(engine, block, spender)
        return eoa.length > 0 ? eoa : newContractSignal(engine, block, spender, newContractDays)
      }),
    ),
    Promise.all(recipientList.map(({ recipient }) => codeKindOf(engine, block, recipient))),
    firstInteractionSignals(engine, block, account, targets, firstInteractionBlocks),
  ])
  out.push(...first)
  out.push(...spenderFound.flat())
  recipientList.forEach(({ token, recipient }, i) => {
    const code = recipientCode[i]!
    if (code.kind === 'contract') return
    out.push({
      kind: 'recipientIsEoa',
      severity: 'info',
      token,
      recipient,
      ...(code.kind === 'delegated' ? { delegated: true, delegatedTo: code.delegatedTo } : { delegated: false }),
    })
  })

  // EIP-7702 authorizations: who would delegate to what (the authority recovered from the signature).
  calls.forEach((call, index) => {
    for (const auth of call.authorizationList ?? []) {
      if (auth.chainId !== 0n && auth.chainId !== chainId) continue
      let authority: Hex
      try {
        authority = eoaCode7702RecoverAuthority({
          chainId: `0x${auth.chainId.toString(16)}`,
          address: auth.address,
          nonce: `0x${auth.nonce.toString(16)}`,
          yParity: `0x${auth.yParity.toString(16)}`,
          r: `0x${auth.r.toString(16)}`,
          s: `0x${auth.s.toString(16)}`,
        })
          .toString()
          .toLowerCase() as Hex
      } catch {
        continue
      }
      const delegate = auth.address.toLowerCase() as Hex
      out.push(
        delegate === ZERO
          ? { kind: 'delegationCleared', severity: 'info', call: index, authority }
          : { kind: 'delegationInstalled', severity: 'danger', call: index, authority, delegate, nonce: auth.nonce },
      )
    }
  })
  return out
}
