import type { BorSnapshot } from '../../chain/bor/applyBorHeaders.js'
import type { BorValidator } from '../../chain/bor/borValidatorSet.js'
import { JsonStream } from '../jsonStream.js'

// Go writes a validator's int64 power and priority as plain JSON numbers, which can pass 2^53: the
// text is written here from the bigints, exactly, and goes out as it is.

/** bor's Validator: `{"ID", "signer", "power", "accum"}` (accum = proposer priority). */
export const validatorJson = (v: BorValidator): string =>
  `{"ID":${v.id},"signer":"${v.address}","power":${v.power},"accum":${v.priority}}`

/** The reference's Snapshot: `{"number", "hash", "validatorSet": {"validators", "proposer"}}`. */
export function snapshotJson(snapshot: BorSnapshot): string {
  const { validators, proposer } = snapshot.validatorSet
  return (
    `{"number":${snapshot.number},"hash":"${snapshot.hash}","validatorSet":{"validators":[` +
    `${validators.map(validatorJson).join(',')}],"proposer":${proposer ? validatorJson(proposer) : 'null'}}}`
  )
}

/** A result whose JSON text is already written. */
export const jsonText = (text: string) => new JsonStream(async (write) => write(text))
