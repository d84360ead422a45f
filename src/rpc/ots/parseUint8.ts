import { ParamError } from '../params.js'

/** A Go uint8 argument: a bare JSON number 0…255, never a hex string (reference §0), with Go's words. */
export function parseUint8(raw: unknown): number {
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw) || raw < 0 || raw > 255)
      throw new ParamError(`json: cannot unmarshal number ${raw} into Go value of type uint8`)
    return raw
  }
  const kind = Array.isArray(raw) ? 'array' : raw === null ? 'null' : typeof raw
  throw new ParamError(`json: cannot unmarshal ${kind} into Go value of type uint8`)
}
