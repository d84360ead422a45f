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
  /** Permit2's approve(address token, address spender, uint160 amount, uint48 expiration). */
  permit2Approve: '0x87517c45',
  /** Permit2's transferFrom(address from, address to, uint160 amount, address token). */
  permit2TransferFrom: '0x36c78516',
} as const

const read = (to: Hex, data: string): SimulateCall => ({ to, data: data as Hex })
const min = (a: bigint, b: bigint) => (a < b ? a : b)
function words(call: SimulatedCall | undefined, n: number): bigint[] | null {
  if (call?.status !== 1n || call.returnData.length < 2 + n * 64) return null
  return Array.from({ length: n }, (_, i) => BigInt(`0x${call.returnData.slice(2 + i * 64, 66 + i * 64)}`))
}

/**
 * The worst case's calls for one grant: the permit's effect, the spender's pull of `take`, then the
 * owner's `balanceOf` (see GrantPreview.worstCase); the pull is the second-to-last call.
 */
function pullCalls(
  permit: RecognizedPermit,
  owner: Hex,
  token: Hex,
  g: { amount: bigint; expiration?: bigint | null | undefined },
  take: bigint,
): SimulateCall[] {
  const calls: SimulateCall[] = []
  if (permit.kind === 'eip2612' || permit.kind === 'dai') {
    calls.push(
      {
        from: owner,
        to: token,
        data: `${SELECTORS.approve}${addressWord(permit.spender)}${uintWord(g.amount)}` as Hex,
      },
      {
        from: permit.spender,
        to: token,
        data: `${SELECTORS.transferFrom}${addressWord(owner)}${addressWord(permit.spender)}${uintWord(take)}` as Hex,
      },
    )
  } else if (permit.kind === 'permit2') {
    calls.push(
      {
        from: owner,
        to: PERMIT2,
        data: `${SELECTORS.permit2Approve}${addressWord(token)}${addressWord(permit.spender)}${uintWord(g.amount)}${uintWord(g.expiration ?? 0n)}` as Hex,
      },
      {
        from: permit.spender,
        to: PERMIT2,
        data: `${SELECTORS.permit2TransferFrom}${addressWord(owner)}${addressWord(permit.spender)}${uintWord(take)}${addressWord(token)}` as Hex,
      },
    )
  } else {
    calls.push({
      from: PERMIT2,
      to: token,
      data: `${SELECTORS.transferFrom}${addressWord(owner)}${addressWord(permit.spender)}${uintWord(take)}` as Hex,
    })
  }
  calls.push(read(token, `${SELECTORS.balanceOf}${addressWord(owner)}`))
  return calls
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
   * The permit's effect then the spender's pull of `min(amount, balance)`, simulated on the block's
   * state: whether the pull succeeds and the owner's `balanceOf` after it (null where the balance did
   * not answer, or nothing is allowed). EIP-2612 and DAI: the owner's `approve(spender, amount)`, then
   * the spender's `transferFrom(owner, spender, take)`. Permit2 PermitSingle / PermitBatch: the owner's
   * Permit2 `approve(token, spender, amount, expiration)` (what `permit` sets), then the spender's
   * Permit2 `transferFrom(owner, spender, take, token)`. Permit2 transfers: what `permitTransferFrom`
   * does once the signature checks, Permit2's own `transferFrom(owner, spender, take)` on the token.
   * Both Permit2 pulls need the owner's ERC-20 allowance to Permit2: without it they fail.
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
            // The token's allowance to Permit2 (what a Permit2 pull needs; read so it is fetched with the rest).
            read(g.token, `${SELECTORS.allowance}${addressWord(owner)}${addressWord(PERMIT2)}`),
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
  // The worst case's calls prepared with the reads (the whole amount taken: its pull is not known before
  // the balance is), so their senders and what they touch are fetched in the same two round trips.
  const guessed = permit.grants.flatMap((g) => (g.amount > 0n ? pullCalls(permit, owner, g.token, g, g.amount) : []))
  const block = await prepareSimulation(engine, selector, { ...opts, blocks: [{ calls }, { calls: guessed }] })
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
  // The worst case: the permit's allowance set (a Permit2 transfer needs none), then the spender pulls all it can.
  const pulls = grants.flatMap((g, i) =>
    g.balance !== null && g.amount > 0n ? [{ i, take: min(g.amount, g.balance) }] : [],
  )
  if (pulls.length > 0) {
    const steps = pulls.map(({ i, take }) => pullCalls(permit, owner, grants[i]!.token.address, grants[i]!, take))
    const worst = { validation: false, traceTransfers: false, stateRoots: false, blocks: [{ calls: steps.flat() }] }
    const simulated = (await simulateBlocks(engine, block, worst, deadline))[0]!.calls
    let at = 0
    pulls.forEach(({ i }, k) => {
      const g = grants[i]!
      const n = steps[k]!.length
      const pulled = simulated[at + n - 2]
      const after = words(simulated[at + n - 1], 1)?.[0] ?? null
      at += n
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
