import { InvalidParamsRpcError } from '../errors/rpc.js'

/** Params forwarded to the upstream as they are; only positional (array) params are forwarded. */
export function passThroughParams(params: unknown): unknown[] {
  if (params === undefined || params === null) return []
  if (!Array.isArray(params)) throw new InvalidParamsRpcError('non-array args')
  return params
}
