import type { MethodDefinition } from './defineMethod.js'
import type { ParamParser } from './params.js'

/** The most positional arguments a forwarded call may carry (the upstream judges them; this bounds them). */
const MAX_ARGUMENTS = 16

/**
 * One argument kept as it was sent, boxed: nothing here reads it (not even as a tracer's
 * configuration) before it goes to the upstream.
 */
const asSent: ParamParser<{ sent: unknown }> = { parse: (raw) => ({ sent: raw }), optional: true }

/**
 * A method forwarded to the upstream by design, its arguments and answer as they are: one whose
 * answer carries no chain state a proof could cover (the upstream's own view — its fee suggestion,
 * sync status, peers, accounts). Every such method is declared, one by one, in its namespace's list
 * (docs/methods.md "Methods forwarded unverified"); a method no namespace declares does not exist.
 */
export function forwardUnverified(name: string): MethodDefinition {
  return {
    name,
    params: Array.from({ length: MAX_ARGUMENTS }, () => asSent),
    run(engine, args) {
      const sent = (args as { sent: unknown }[]).map((arg) => arg.sent)
      // Trailing omitted arguments are left out, not sent as null.
      while (sent.length > 0 && sent[sent.length - 1] === undefined) sent.pop()
      return engine.upstream.request(name, sent)
    },
  }
}
