import { BlockNotFoundError } from '../../errors/state.js'
import { TransactionIndexError } from '../../errors/replay.js'
import { InvalidParamsRpcError, ServerRpcError } from '../../errors/rpc.js'
import { type ApprovalChange, type BalanceChange, previewCalls } from '../../exec/preview/previewCalls.js'
import { frameSignals } from '../../exec/preview/signals/frameSignals.js'
import { previewSignals } from '../../exec/preview/signals/previewSignals.js'
import { prefetchFirstInteraction } from '../../exec/preview/signals/firstInteractionSignals.js'
import type { Hex } from '../../types/hex.js'
import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parsePreviewCalls, parsePreviewOptions } from './parsePreviewCalls.js'
import { abiValueJson } from './abiValueJson.js'
import { trust } from './trust.js'

/** The native currency as viem's simulateCalls names it (its `address` is the usual placeholder). */
const NATIVE = {
  address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  standard: 'native',
  symbol: 'ETH',
  name: 'Ether',
  decimals: 18,
} as const

/** A signed amount as a quantity (`-0x…` below zero). */
const signed = (v: bigint): Hex => (v < 0n ? (`-${quantity(-v)}` as Hex) : quantity(v))
const change = (v: BalanceChange) => ({ pre: quantity(v.pre), post: quantity(v.post), diff: signed(v.diff) })

const amount = (v: bigint | null) => (v === null ? null : quantity(v))

/** An approval as answered: amounts as quantities, an ERC-721 token's approved address, an operator flag. */
function approvalJson(a: ApprovalChange) {
  const { token, standard, spender, kind } = a
  if (a.kind === 'approve')
    return { token, standard, spender, kind, tokenId: quantity(a.tokenId), pre: a.pre, post: a.post }
  if (a.kind === 'approvalForAll') return { token, standard, spender, kind, pre: a.pre, post: a.post }
  if (a.kind === 'allowance') return { token, standard, spender, kind, pre: amount(a.pre), post: amount(a.post) }
  return {
    token,
    standard,
    spender,
    kind,
    pre: amount(a.pre),
    post: amount(a.post),
    expiration: { pre: amount(a.expiration.pre), post: amount(a.expiration.post) },
    nonce: { pre: amount(a.nonce.pre), post: amount(a.nonce.post) },
  }
}

/** A signal as answered: its numbers as quantities. */
const signalJson = (s: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'bigint' ? quantity(v) : v]))

/**
 * edgetrace_previewTransactions(calls, block = latest, options?): a wallet's preview before signing,
 * computed on the block's verified state — each call's status, gas used, decoded revert and logs,
 * and the account's asset changes in viem's `simulateCalls` shape: ether (net of gas, the gas paid
 * said apart) and every ERC-20 its Transfer (or WETH Deposit/Withdrawal) events name, pre and post
 * read by verified `balanceOf` calls. Says the block it ran on and the trust that anchors it.
 */
export const previewTransactions = defineMethod({
  name: 'edgetrace_previewTransactions',
  servedWith: 'eth',
  params: [required(parsePreviewCalls), optional(parseBlockParameter), optional(parsePreviewOptions)],
  async run(engine, [given, selector, options], context) {
    const account = options?.account ?? given[0]!.from
    if (account === undefined) {
      throw new InvalidParamsRpcError(
        'invalid argument 0: calls[0].from: missing, and no options.account to preview for',
      )
    }
    // Calls without `from` are the account's.
    const calls = given.map((c) => (c.from === undefined ? { ...c, from: account } : c))
    // The firstInteraction look-back needs only the block: its headers and the account's proof at
    // its start fetched as soon as the block is known, beside the preview's own rounds.
    const onBlock = (block: VerifiedHeader) => {
      if (calls.some((c) => c.to)) {
        prefetchFirstInteraction(engine, block, account, options?.firstInteractionBlocks).catch(() => {})
      }
    }
    const [preview, anchor] = await Promise.all([
      previewCalls(engine, {
        selector: selector ?? { kind: 'tag', tag: 'latest' },
        calls,
        account,
        deadline: context.deadline,
        transactionIndex: options?.transactionIndex,
        abis: options?.abis,
        onBlock,
      }).catch((err: unknown) => {
        // geth's words for a block it does not have.
        if (err instanceof BlockNotFoundError) throw new ServerRpcError('header not found', { cause: err })
        if (err instanceof TransactionIndexError)
          throw new InvalidParamsRpcError(`invalid argument 2: options.transactionIndex: ${err.message}`, {
            cause: err,
          })
        throw err
      }),
      trust.run(engine, [], context),
    ])
    const { block } = preview
    const signals = [
      ...frameSignals(preview.frames),
      ...(await previewSignals(engine, {
        block,
        account,
        calls,
        logs: preview.calls.map((c) => c.logs),
        approvals: preview.approvals,
        chainId: engine.rules.chainId,
        newContractDays: options?.newContractDays,
        firstInteractionBlocks: options?.firstInteractionBlocks,
      })),
    ]
    return {
      block: {
        number: quantity(block.number),
        hash: block.hash,
        ...(preview.transactionIndex === undefined ? {} : { transactionIndex: preview.transactionIndex }),
      },
      trust: anchor,
      account,
      calls: preview.calls.map((c) => ({
        status: c.status,
        gasUsed: quantity(c.gasUsed),
        returnData: c.returnData,
        logs: c.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })),
        function: c.function ?? null,
        error: c.error ? { message: c.error.message, code: c.error.code } : null,
        revert: !c.revert
          ? null
          : c.revert.type === 'Panic'
            ? { ...c.revert, code: quantity(c.revert.code) }
            : c.revert.type === 'custom'
              ? { ...c.revert, args: c.revert.args.map((a) => ({ ...a, value: abiValueJson(a.value) })) }
              : c.revert,
      })),
      assetChanges: [
        { token: NATIVE, value: change(preview.native), gasPaid: quantity(preview.native.gasPaid) },
        ...preview.tokens.map((t) => ({ token: t.token, value: t.value && change(t.value) })),
        ...preview.nfts.map((n) => ({
          token: n.token,
          tokenId: quantity(n.tokenId),
          value: n.value && change(n.value),
        })),
      ],
      approvals: preview.approvals.map(approvalJson),
      signals: signals.map(signalJson),
    }
  },
})
