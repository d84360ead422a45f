/** What every edgetrace error may carry besides its message: context lines, details and a cause. */
export type BaseErrorParameters = {
  /** Lines of context: method, block, address, slot. */
  metaMessages?: string[] | undefined
  /** A longer explanation; defaults to the cause's message. */
  details?: string | undefined
  /** The error this one wraps (`Error.cause`); its message is the default `details`. */
  cause?: unknown
}

/**
 * The one base type of every edgetrace error (viem's shape): a short message that is safe to put on
 * the wire, context lines, details and a cause chain. JSON-RPC transports turn it into
 * `{ code, message, data }` with `toRpcError`.
 */
export class BaseError extends Error {
  /** The class's name, e.g. `'UpstreamRpcError'` (set by each subclass). */
  override name = 'BaseError'
  /** The message alone, without context lines or details: what goes on the wire. */
  readonly shortMessage: string
  /** Lines of context (method, block, address, slot), appended to `message`. */
  readonly metaMessages: string[]
  /** A longer explanation: the one given, else the cause's message (`''` when neither). */
  readonly details: string

  constructor(shortMessage: string, args: BaseErrorParameters = {}) {
    const details =
      args.details ??
      (args.cause instanceof Error ? args.cause.message : args.cause !== undefined ? String(args.cause) : '')
    const metaMessages = args.metaMessages ?? []
    const lines = [shortMessage]
    if (metaMessages.length > 0) lines.push('', ...metaMessages)
    if (details && details !== shortMessage) lines.push('', `Details: ${details}`)
    super(lines.join('\n'), args.cause !== undefined ? { cause: args.cause } : undefined)
    this.shortMessage = shortMessage
    this.metaMessages = metaMessages
    this.details = details
  }

  /** The first error in the cause chain for which `fn` holds (or the last one). */
  walk(fn?: (err: unknown) => boolean): unknown {
    let err: unknown = this
    for (;;) {
      if (fn?.(err)) return err
      const next = err instanceof Error ? err.cause : undefined
      if (next === undefined) return fn ? null : err
      err = next
    }
  }
}

/**
 * A domain error whose context also goes on the wire as the JSON-RPC error's `data` (toRpcError),
 * so a client reads block, address and roots as fields instead of parsing the message. `data` is
 * already in wire form (quantities as 0x hex); undefined when the throw site knows nothing to add.
 */
export class BaseErrorWithData<data extends object = object> extends BaseError {
  override name = 'BaseErrorWithData'
  /** The context in wire form, the JSON-RPC error's `data` (undefined when the throw site has none). */
  readonly data: data | undefined

  constructor(shortMessage: string, data: data | undefined, args: BaseErrorParameters = {}) {
    super(shortMessage, args)
    this.data = data
  }
}
