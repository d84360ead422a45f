import { KECCAK256_NULL, equalsBytes } from '@ethereumjs/util'
import type { VerifiedHeader } from '../../../chain/parseHeader.js'
import type { Hex } from '../../../types/hex.js'
import type { Engine } from '../../createEngine.js'
import type { PreviewSignal } from './spenderSignals.js'

/** Default age under which a spender contract is new, days. */
export const NEW_CONTRACT_DAYS = 30
/** Slot time the cutoff block is first guessed with (a slower chain's guess lands inside the window). */
const SLOT_SECONDS = 12n
/** Blocks probed at once when the guess alone does not decide (one round: a header batch and a proof batch). */
const PROBES = 7n

const hasCode = async (engine: Engine, header: VerifiedHeader, address: Hex) => {
  const account = await engine.source.getAccount(header, address)
  return account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL)
}
const at = (h: VerifiedHeader) => ({ number: h.number, timestamp: h.header.timestamp })

/**
 * `newContract` for a spender contract (one with code on the block): whether it got its code less
 * than `days` days before the block, by the index-free search ots_getContractCreator makes (code
 * hashes proven at earlier blocks), bounded to one guess and one round of probes: the block about
 * `days` days back (by 12 s slots, its timestamp checked), and where that does not decide, 7 blocks
 * between it and the block. Answers `createdAfter` (a block without its code, inside the window) when
 * new, nothing when it had code before the window, and `age: 'unknown'` when the bound is reached
 * without deciding. Cost: 2 upstream round trips, 4 at most. The blocks are the block's ancestors
 * (headers.ancestor): within 256 blocks by its parent links, their headers then known; farther, by
 * number, kept once final.
 */
export async function newContractSignal(
  engine: Engine,
  block: VerifiedHeader,
  spender: Hex,
  days = NEW_CONTRACT_DAYS,
): Promise<PreviewSignal[]> {
  if (days <= 0) return []
  const window = BigInt(Math.floor(days * 86_400))
  const cutoff = block.header.timestamp - window
  const guessNumber = block.number - window / SLOT_SECONDS
  const guess =
    guessNumber >= block.number ? block : await engine.headers.ancestor(block, guessNumber < 1n ? 1n : guessNumber)
  const fresh = (createdAfter: VerifiedHeader): PreviewSignal[] => [
    { kind: 'newContract', severity: 'warning', spender, days, createdAfter: at(createdAfter) },
  ]
  const unknown: PreviewSignal[] = [{ kind: 'newContract', severity: 'info', spender, days, age: 'unknown' }]
  const codeAtGuess = await hasCode(engine, guess, spender)
  if (guess.header.timestamp > cutoff) {
    // The guess is inside the window: no code there, created inside it. Code at block 1 of a chain
    // younger than the window: as new as the chain.
    if (!codeAtGuess) return fresh(guess)
    return guess.number <= 1n ? [{ ...fresh(guess)[0]!, createdAfter: null, createdBy: at(guess) }] : unknown
  }
  if (codeAtGuess) return []
  // Created after the guess (before the window): one round of probes between it and the block.
  const span = block.number - guess.number
  const k = span < PROBES ? span : PROBES
  const points = Array.from({ length: Number(k) }, (_, i) => guess.number + (span * BigInt(i + 1)) / (k + 1n))
  const probed = await Promise.all(
    points.map(async (number) => {
      const header = await engine.headers.ancestor(block, number)
      return { header, code: await hasCode(engine, header, spender) }
    }),
  )
  const first = probed.findIndex((p) => p.code)
  const before = first === -1 ? probed[probed.length - 1] : first > 0 ? probed[first - 1] : undefined
  const lastWithout = before?.header ?? guess
  if (lastWithout.header.timestamp > cutoff) return fresh(lastWithout)
  const firstWith = first === -1 ? block : probed[first]!.header
  if (firstWith.header.timestamp <= cutoff) return []
  return unknown
}
