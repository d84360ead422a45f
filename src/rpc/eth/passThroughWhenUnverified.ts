import type { MethodDefinition } from '../defineMethod.js'
import { type ParamParser, parseParams } from '../params.js'
import { passThroughParams } from '../passThroughParams.js'

/** Takes any argument as it is: the wrapped method parses them itself (or the upstream does). */
const raw: ParamParser<unknown> = { parse: (value) => value, optional: true }

/**
 * A verified read as `--unverified` serves it: passed through to the upstream as it was sent, as
 * every eth_* read was before it was verified (no proofs to check there). Verified, the wrapped
 * method parses the arguments with its own parsers (geth's -32602 messages) and computes the answer.
 */
export function passThroughWhenUnverified(method: MethodDefinition): MethodDefinition {
  return {
    name: method.name,
    params: method.params.map(() => raw),
    run(engine, args, context) {
      // Trailing omitted arguments are left out, not sent as null.
      const sent = [...args]
      while (sent.length > 0 && sent[sent.length - 1] === undefined) sent.pop()
      if (engine.options.unverified) return engine.upstream.request(method.name, passThroughParams(sent))
      return method.run(engine, parseParams(sent, method.params), context)
    },
  }
}
