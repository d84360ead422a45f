import type { TypedData } from '../../exec/preview/typedDataPermits.js'
import { ParamError } from '../params.js'
import { describe } from '../parsers.js'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * edgetrace_previewTypedData's `typedData`: EIP-712 typed data as eth_signTypedData_v4 takes it (an
 * object or its JSON text): `types` (each a list of `{name, type}`), `primaryType` one of them,
 * `message` an object, `domain` an object (default none). A bad part is named (`typedData.types.Permit[1].type: …`).
 */
export function parseTypedData(raw: unknown): TypedData {
  let data: unknown = raw
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw)
    } catch (err) {
      throw new ParamError(`typedData: not JSON: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  if (!isObject(data)) throw new ParamError(`typedData: expected an object, got ${describe(raw)}`)
  const { types, primaryType, domain, message } = data
  if (!isObject(types)) throw new ParamError(`typedData.types: expected an object, got ${describe(types)}`)
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields))
      throw new ParamError(`typedData.types.${name}: expected an array, got ${describe(fields)}`)
    fields.forEach((f, i) => {
      if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string') {
        throw new ParamError(`typedData.types.${name}[${i}]: expected {name, type} strings, got ${describe(f)}`)
      }
    })
  }
  if (typeof primaryType !== 'string')
    throw new ParamError(`typedData.primaryType: expected a string, got ${describe(primaryType)}`)
  if (!(primaryType in types)) throw new ParamError(`typedData.primaryType: ${primaryType} is not in typedData.types`)
  if (!isObject(message)) throw new ParamError(`typedData.message: expected an object, got ${describe(message)}`)
  if (domain !== undefined && domain !== null && !isObject(domain))
    throw new ParamError(`typedData.domain: expected an object, got ${describe(domain)}`)
  return {
    types: types as TypedData['types'],
    primaryType,
    domain: (domain ?? {}) as Record<string, unknown>,
    message,
  }
}
