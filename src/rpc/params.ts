import { BaseError } from '../errors/base.js'
import { InvalidParamsRpcError, RpcError } from '../errors/rpc.js'

/** Parses one positional argument; throws a plain message which `parseParams` turns into -32602. */
export type ParamParser<value> = {
  parse(raw: unknown): value
  /** An optional argument may be omitted or null. */
  optional: boolean
}

export type ParsedParams<parsers extends readonly ParamParser<unknown>[]> = {
  [k in keyof parsers]: parsers[k] extends ParamParser<infer v> ? v : never
}

export class ParamError extends Error {
  override name = 'ParamError'
}

export function required<value>(parse: (raw: unknown) => value): ParamParser<value> {
  return { parse, optional: false }
}

export function optional<value>(parse: (raw: unknown) => value): ParamParser<value | undefined> {
  return { parse: (raw) => (raw === undefined || raw === null ? undefined : parse(raw)), optional: true }
}

/**
 * Positional arguments with geth/Erigon's error messages (rpc/json.go): `invalid argument i: …`,
 * `too many arguments, want at most N`, `missing value for required argument N`, `non-array args`.
 */
export function parseParams<const parsers extends readonly ParamParser<unknown>[]>(
  params: unknown,
  parsers: parsers,
): ParsedParams<parsers> {
  const args = params === undefined || params === null ? [] : params
  if (!Array.isArray(args)) throw new InvalidParamsRpcError('non-array args')
  if (args.length > parsers.length) {
    throw new InvalidParamsRpcError(`too many arguments, want at most ${parsers.length}`)
  }
  return parsers.map((parser, i) => {
    const raw = args[i]
    if ((raw === undefined || raw === null) && !parser.optional) {
      throw new InvalidParamsRpcError(`missing value for required argument ${i}`)
    }
    try {
      return parser.parse(raw)
    } catch (err) {
      // A domain error (an unknown tracer, say) keeps its own code; a plain parse failure is -32602.
      if (err instanceof RpcError || err instanceof BaseError) throw err
      const message = err instanceof Error ? err.message : String(err)
      throw new InvalidParamsRpcError(`invalid argument ${i}: ${message}`)
    }
  }) as ParsedParams<parsers>
}
