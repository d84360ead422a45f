import { BlockNotFoundError } from '../../errors/state.js'
import { InvalidParamsRpcError, ServerRpcError } from '../../errors/rpc.js'
import { firstInteractionSignals } from '../../exec/preview/signals/firstInteractionSignals.js'
import { newContractSignal } from '../../exec/preview/signals/newContractSignal.js'
import { type PreviewSignal, spenderSignals } from '../../exec/preview/signals/spenderSignals.js'
import { previewPermit } from '../../exec/preview/typedDataPreview.js'
import { type RecognizedPermit, recognizePermit, typedDataUint } from '../../exec/preview/typedDataPermits.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { parseTypedData } from './parseTypedData.js'
import { parseTypedDataOptions } from './parseTypedDataOptions.js'
import { trust } from './trust.js'

const amount = (v: bigint | null) => (v === null ? null : quantity(v))
/** A signed amount as a quantity (`-0x…` below zero). */
const signed = (v: bigint) => (v < 0n ? `-${quantity(-v)}` : quantity(v))

/** An ERC-20 amount at or above 2^255 is unlimited; Permit2's amounts are uint160, its max the unlimited one. */
const UNLIMITED_ERC20 = 1n << 255n
const UNLIMITED_PERMIT2 = (1n << 160n) - 1n

/** A signal as answered: its numbers as quantities. */
const signalJson = (s: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'bigint' ? quantity(v) : v]))

/**
 * edgetrace_previewTypedData(account, typedData, block = latest, options?): what an eth_signTypedData_v4
 * signature would allow, on the block's verified state. EIP-2612 and DAI permits, Permit2's
 * PermitSingle / PermitBatch / PermitTransferFrom / PermitBatchTransferFrom are recognised: token
 * (metadata read), spender, amount, expiration, deadline against the block's time, the allowance in
 * force and whether the nonce is the one the contract expects; `problems` says in words what makes the
 * signature useless; `signals` an unlimited amount, a spender without code, a spender contract younger
 * than `options.newContractDays` and one the account sent nothing to in the last
 * `options.firstInteractionBlocks` blocks (as edgetrace_previewTransactions'). Any other typed data is
 * answered decoded, `recognized: false`, with no claims.
 */
export const previewTypedData = defineMethod({
  name: 'edgetrace_previewTypedData',
  servedWith: 'eth',
  params: [
    required(parseAddress),
    required(parseTypedData),
    optional(parseBlockParameter),
    optional(parseTypedDataOptions),
  ],
  async run(engine, [account, typedData, selector, options], context) {
    let permit: RecognizedPermit | null
    try {
      permit = recognizePermit(typedData)
    } catch (err) {
      throw new InvalidParamsRpcError(
        `invalid argument 1: typedData.${err instanceof Error ? err.message : String(err)}`,
      )
    }
    const decoded = {
      primaryType: typedData.primaryType,
      domain: typedData.domain,
      message: typedData.message,
      types: typedData.types,
    }
    const anchor = await trust.run(engine, [], context)
    if (!permit) return { recognized: false, account, typedData: decoded, trust: anchor }
    const owner = permit.owner ?? account
    const preview = await previewPermit(engine, {
      selector: selector ?? { kind: 'tag', tag: 'latest' },
      permit,
      owner,
      deadline: context.deadline,
    }).catch((err: unknown) => {
      if (err instanceof BlockNotFoundError) throw new ServerRpcError('header not found', { cause: err })
      throw err
    })
    const problems: string[] = []
    if (owner !== account.toLowerCase())
      problems.push(
        `the permit's owner ${owner} is not the signing account ${account.toLowerCase()}: the signature does not verify`,
      )
    // EIP-712's domain binds the signature to a chain: one for another chain does not verify here.
    const signedFor = typedDataUint(typedData.domain.chainId)
    if (signedFor !== undefined && signedFor !== engine.rules.chainId)
      problems.push(
        `domain.chainId ${signedFor} is not this chain's ${engine.rules.chainId}: the signature is for another chain`,
      )
    if (preview.deadline.passed)
      problems.push(
        `the deadline ${preview.deadline.value} is past the block's time ${preview.deadline.blockTime}: the signature cannot be used`,
      )
    preview.grants.forEach((g, i) => {
      // Permit2 refuses to spend an allowance past its expiration (0 is the block's time when permit() runs).
      if (permit.kind === 'permit2' && g.expiration && g.expiration < preview.deadline.blockTime) {
        problems.push(
          `grants[${i}]: expiration ${g.expiration} is past the block's time ${preview.deadline.blockTime}: Permit2 would not spend the allowance it sets`,
        )
      }
      if (g.nonce.valid === false) {
        problems.push(
          permit.kind === 'permit2Transfer'
            ? `grants[${i}]: nonce ${g.nonce.signed} is already used on Permit2: the signature cannot be used`
            : `grants[${i}]: nonce ${g.nonce.signed} is not the current nonce ${g.nonce.current}: the signature cannot be used`,
        )
      }
    })
    const { block } = preview
    // The same signals as edgetrace_previewTransactions' approvals: an unlimited amount, a spender
    // without code, else a young spender contract; and the account's first interaction with it.
    const signals: PreviewSignal[] = []
    for (const g of preview.grants) {
      const limit = permit.kind === 'permit2' ? UNLIMITED_PERMIT2 : UNLIMITED_ERC20
      if (g.amount >= limit) {
        signals.push({
          kind: 'unlimitedApproval',
          severity: 'warning',
          token: g.token.address,
          standard: permit.kind === 'permit2' ? 'permit2' : 'erc20',
          spender: permit.spender,
          amount: g.amount,
          ...(g.expiration !== null ? { expiration: g.expiration } : {}),
        })
      }
    }
    if (preview.grants.some((g) => g.amount > 0n)) {
      const [spender, first] = await Promise.all([
        spenderSignals(engine, block, permit.spender).then((eoa) =>
          eoa.length > 0 ? eoa : newContractSignal(engine, block, permit.spender, options?.newContractDays),
        ),
        firstInteractionSignals(engine, block, account, [permit.spender], options?.firstInteractionBlocks),
      ])
      signals.push(...spender, ...first)
    }
    return {
      recognized: true,
      kind: permit.kind,
      account,
      owner,
      spender: permit.spender,
      typedData: decoded,
      block: { number: quantity(block.number), hash: block.hash },
      trust: anchor,
      deadline: {
        value: amount(preview.deadline.value),
        blockTime: quantity(preview.deadline.blockTime),
        passed: preview.deadline.passed,
      },
      grants: preview.grants.map((g) => ({
        token: g.token,
        amount: quantity(g.amount),
        expiration: amount(g.expiration),
        current: {
          amount: amount(g.current.amount),
          expiration: amount(g.current.expiration),
          nonce: amount(g.current.nonce),
        },
        nonce: { signed: quantity(g.nonce.signed), current: amount(g.nonce.current), valid: g.nonce.valid },
        balance: amount(g.balance),
        atRisk: g.balance === null ? null : quantity(g.amount < g.balance ? g.amount : g.balance),
        worstCase: g.worstCase && {
          status: g.worstCase.status,
          balanceAfter: amount(g.worstCase.balanceAfter),
          loss: g.worstCase.loss === null ? null : signed(g.worstCase.loss),
        },
      })),
      usable: problems.length === 0,
      problems,
      signals: signals.map(signalJson),
    }
  },
})
