import { BlockNotFoundError } from '../../errors/state.js'
import { InvalidParamsRpcError, ServerRpcError } from '../../errors/rpc.js'
import { previewPermit } from '../../exec/preview/typedDataPreview.js'
import { type RecognizedPermit, recognizePermit } from '../../exec/preview/typedDataPermits.js'
import { quantity } from '../../utils/hex.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional, required } from '../params.js'
import { parseAddress } from '../parsers.js'
import { parseTypedData } from './parseTypedData.js'
import { trust } from './trust.js'

const amount = (v: bigint | null) => (v === null ? null : quantity(v))

/**
 * edgetrace_previewTypedData(account, typedData, block = latest): what an eth_signTypedData_v4
 * signature would allow, on the block's verified state. EIP-2612 and DAI permits, Permit2's
 * PermitSingle / PermitBatch / PermitTransferFrom / PermitBatchTransferFrom are recognised: token
 * (metadata read), spender, amount, expiration, deadline against the block's time, the allowance in
 * force and whether the nonce is the one the contract expects; `problems` says in words what makes the
 * signature useless. Any other typed data is answered decoded, `recognized: false`, with no claims.
 */
export const previewTypedData = defineMethod({
  name: 'edgetrace_previewTypedData',
  servedWith: 'eth',
  params: [required(parseAddress), required(parseTypedData), optional(parseBlockParameter)],
  async run(engine, [account, typedData, selector], context) {
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
    if (preview.deadline.passed)
      problems.push(
        `the deadline ${preview.deadline.value} is past the block's time ${preview.deadline.blockTime}: the signature cannot be used`,
      )
    preview.grants.forEach((g, i) => {
      if (g.nonce.valid === false) {
        problems.push(
          permit.kind === 'permit2Transfer'
            ? `grants[${i}]: nonce ${g.nonce.signed} is already used on Permit2: the signature cannot be used`
            : `grants[${i}]: nonce ${g.nonce.signed} is not the current nonce ${g.nonce.current}: the signature cannot be used`,
        )
      }
    })
    const { block } = preview
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
      })),
      usable: problems.length === 0,
      problems,
    }
  },
})
