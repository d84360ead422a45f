import { ParamError } from '../params.js'

/**
 * A Go integer argument (the reference daemon's ots_* take uint64 / uint16, not hexutil types): a JSON
 * number, whole and in range — Go's decoder words otherwise.
 */
export function parseGoUint(bits: 16 | 64) {
  const goType = `uint${bits}`
  return (raw: unknown): bigint => {
    if (typeof raw !== 'number') {
      const kind = raw === null ? 'null' : Array.isArray(raw) ? 'array' : typeof raw
      throw new ParamError(`json: cannot unmarshal ${kind} into Go value of type ${goType}`)
    }
    if (!Number.isSafeInteger(raw) || raw < 0 || BigInt(raw) >= 2n ** BigInt(bits))
      throw new ParamError(`json: cannot unmarshal number ${raw} into Go value of type ${goType}`)
    return BigInt(raw)
  }
}
