import type { VerifiedHeader } from '../../chain/parseHeader.js'
import { addressWord, uintWord } from './abiWords.js'
import type { BlockSelector } from '../../types/blockSelector.js'
import type { Deadline } from '../../types/deadline.js'
import type { Hex } from '../../types/hex.js'
import type { Engine } from '../createEngine.js'
import { prepareSimulation } from '../prepareSimulation.js'
import { type SimulateCall, type SimulatedCall, simulateBlocks } from '../simulateBlocks.js'
import { PERMIT2 } from './approvalsTouched.js'
import { decodeTokenText } from './decodeTokenText.js'
import type { TokenInfo } from './previewCalls.js'
import type { RecognizedPermit } from './typedDataPermits.js'

const SELECTORS = {
  allowance: '0xdd62ed3e',
  nonces: '0x7ecebe00',
  balanceOf: '0x70a08231',
  permit2Allowance: '0x927da105',
  nonceBitmap: '0x4fe02b44',
  decimals: '0x313ce567',
  symbol: '0x95d89b41',
  name: '0x06fdde03',
  approve: '0x095ea7b3',
  transferFrom: '0x23b872dd',
} as const

const read = (to: Hex, data: string): SimulateCall => ({ to, data: data as Hex })
function words(call: SimulatedCall | undefined, n: number): bigint[] | null {
  if (call?.status !== 1n || call.returnData.length < 2 + n * 64) return null
  return Array.from({ length: n }, (_, i) => BigInt(`0x${call.returnData.slice(2 + i * 64, 66 + i * 64)}`))
}

/** One grant of a permit with what the block says of it (null where a read did not answer). */
export type GrantPreview = {
  token: TokenInfo
  /** What the signature would allow (DAI's `allowed`: the whole uint256, or 0). */
  amount: bigint
  /** Permit2 allowances: until when. */
  expiration: bigint | null
  /** The allowance in force now: ERC-20 allowance(owner, spender), Permit2's allowance(owner, token, spender), or for a Permit2 transfer the ERC-20 allowance(owner, Permit2). */
  current: { amount: bigint | null; expiration: bigint | null; nonce: bigint | null }
  /** The signed nonce, the one the contract expects now, and whether the signature can be used with it. */
  nonce: { signed: bigint; current: bigint | null; valid: boolean | null }
  /** balanceOf(owner) on the block: what the spender could take at most now is min(amount, balance). */
  balance: bigint | null
  /**
   * EIP-2612 and DAI: the permit's effect (the owner's `approve(spender, amount)`) then the spender's
   * `transferFrom(owner, spender, min(amount, balance))`, simulated on the block's state: whether the
   * pull succeeds and the owner's `balanceOf` after it (null for Permit2, or where the balance did not answer).
   */
  worstCase: { status: 'success' | 'failure'; balanceAfter: bigint | null; loss: bigint | null } | null
}

export type TypedDataPreview = {
  block: VerifiedHeader
  owner: Hex
  grants: GrantPreview[]
  deadline: { value: bigint | null; blockTime: bigint; passed: boolean }
}

/**
 * What a recognised permit would allow, read on the block's verified state (one simulated block of
 * plain calls): each token's metadata and the owner's balance, the allowance in force, the nonce
 * the contract expects now (a token's `nonces(owner)`, Permit2's allowance nonce, or its unordered
 * `nonceBitmap(owner, nonce >> 8)` bit for a transfer), and whether the deadline is past the block's time.
 */
export async function previewPermit(
  engine: Engine,
  {
    selector,
    permit,
    owner,
    deadline,
  }: { selector: BlockSelector; permit: RecognizedPermit; owner: Hex; deadline?: Deadline | undefined },
): Promise<TypedDataPreview> {
  const per = 6
  const calls = permit.grants.flatMap((g) => {
    const state =
      permit.kind === 'permit2'
        ? [
            read(
              PERMIT2,
              `${SELECTORS.permit2Allowance}${addressWord(owner)}${addressWord(g.token)}${addressWord(permit.spender)}`,
            ),
            read(PERMIT2, '0x'),
          ]
        : permit.kind === 'permit2Transfer'
          ? [
              read(g.token, `${SELECTORS.allowance}${addressWord(owner)}${addressWord(PERMIT2)}`),
              read(PERMIT2, `${SELECTORS.nonceBitmap}${addressWord(owner)}${uintWord(g.nonce >> 8n)}`),
            ]
          : [
              read(g.token, `${SELECTORS.allowance}${addressWord(owner)}${addressWord(permit.spender)}`),
              read(g.token, `${SELECTORS.nonces}${addressWord(owner)}`),
            ]
    return [
      ...state,
      read(g.token, `${SELECTORS.balanceOf}${addressWord(owner)}`),
      read(g.token, SELECTORS.decimals),
      read(g.token, SELECTORS.symbol),
      read(g.token, SELECTORS.name),
    ]
  })
  const opts = { validation: false, traceTransfers: false, stateRoots: false, blocks: [{ calls }] }
  const block = await prepareSimulation(engine, selector, opts)
  const ran = (await simulateBlocks(engine, block, opts, deadline))[0]!.calls
  const text = (c: SimulatedCall | undefined) => decodeTokenText(c && c.status === 1n ? c.returnData : null)
  const grants = permit.grants.map((g, i): GrantPreview => {
    const [state, second, balance, decimals, symbol, name] = ran.slice(i * per, i * per + 6)
    const places = words(decimals, 1)?.[0] ?? null
    const token: TokenInfo = {
      address: g.token,
      standard: 'erc20',
      symbol: text(symbol),
      name: text(name),
      decimals: places !== null && places < 256n ? Number(places) : null,
    }
    let current: GrantPreview['current']
    let nonce: GrantPreview['nonce']
    if (permit.kind === 'permit2') {
      const [amount, expiration, expected] = words(state, 3) ?? [null, null, null]
      current = { amount, expiration, nonce: expected }
      nonce = { signed: g.nonce, current: expected, valid: expected === null ? null : expected === g.nonce }
    } else if (permit.kind === 'permit2Transfer') {
      const bitmap = words(second, 1)?.[0] ?? null
      const used = bitmap === null ? null : ((bitmap >> (g.nonce & 255n)) & 1n) === 1n
      current = { amount: words(state, 1)?.[0] ?? null, expiration: null, nonce: null }
      nonce = { signed: g.nonce, current: null, valid: used === null ? null : !used }
    } else {
      const expected = words(second, 1)?.[0] ?? null
      current = { amount: words(state, 1)?.[0] ?? null, expiration: null, nonce: expected }
      nonce = { signed: g.nonce, current: expected, valid: expected === null ? null : expected === g.nonce }
    }
    return {
      token,
      amount: g.amount,
      expiration: g.expiration ?? null,
      current,
      nonce,
      balance: words(balance, 1)?.[0] ?? null,
      worstCase: null,
    }
  })
  // The worst case of an EIP-2612 or DAI permit: its allowance set, then the spender pulls all it can.
  const pulls = grants.flatMap((g, i) =>
    (permit.kind === 'eip2612' || permit.kind === 'dai') && g.balance !== null && g.amount > 0n
      ? [{ i, take: g.amount < g.balance ? g.amount : g.balance }]
      : [],
  )
  if (pulls.length > 0) {
    const calls: SimulateCall[] = pulls.flatMap(({ i, take }) => {
      const g = grants[i]!
      return [
        {
          from: owner,
          to: g.token.address,
          data: `${SELECTORS.approve}${addressWord(permit.spender)}${uintWord(g.amount)}` as Hex,
        },
        {
          from: permit.spender,
          to: g.token.address,
          data: `${SELECTORS.transferFrom}${addressWord(owner)}${addressWord(permit.spender)}${uintWord(take)}` as Hex,
        },
        read(g.token.address, `${SELECTORS.balanceOf}${addressWord(owner)}`),
      ]
    })
    const worst = { validation: false, traceTransfers: false, stateRoots: false, blocks: [{ calls }] }
    const simulated = (await simulateBlocks(engine, block, worst, deadline))[0]!.calls
    pulls.forEach(({ i }, k) => {
      const g = grants[i]!
      const pulled = simulated[k * 3 + 1]
      const after = words(simulated[k * 3 + 2], 1)?.[0] ?? null
      g.worstCase = {
        status: pulled?.status === 1n ? 'success' : 'failure',
        balanceAfter: after,
        loss: after === null || g.balance === null ? null : g.balance - after,
      }
    })
  }
  const blockTime = block.header.timestamp
  // DAI's expiry 0 is no deadline.
  const none = permit.kind === 'dai' && permit.deadline === 0n
  return {
    block,
    owner,
    grants,
    deadline: {
      value: permit.deadline,
      blockTime,
      passed: !none && permit.deadline !== null && permit.deadline < blockTime,
    },
  }
}
