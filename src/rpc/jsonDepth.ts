import { InvalidRequestRpcError } from '../errors/rpc.js'

/**
 * The deepest nesting of arrays and objects one request may have, the request object itself being
 * level 1. Legitimate requests stay far below it: state overrides reach 5 levels (request, params,
 * overrides, account, stateDiff), trace configs 4, EIP-712 typed data about as deep as its structs
 * nest (rarely beyond 10). Deeper input is refused before anything walks it recursively — the
 * upstream's JSON serialiser, structured clone and our own parsers all recurse, and V8 overflows
 * its stack somewhere below 10,000 levels — while 128 leaves every real request a wide margin.
 */
export const MAX_JSON_DEPTH = 128

/** The answer to a request nested deeper than MAX_JSON_DEPTH (never dispatched). */
export function nestingTooDeepError(): InvalidRequestRpcError {
  return new InvalidRequestRpcError(
    `invalid request: nesting too deep (at most ${MAX_JSON_DEPTH} levels of arrays and objects)`,
  )
}

/**
 * Whether a value nests arrays and objects more than `limit` levels deep (the value itself is level
 * 1). Iterative, so any depth is measured without recursion; it stops at the first path over the
 * limit, and a cycle counts as too deep. A node shared by several paths is walked again only when
 * reached deeper than before, so shared structure (structured clone keeps it) costs at most `limit`
 * walks per node.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false
  const reached = new Map<object, number>()
  const stack: [object, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (depth > limit) return true
    const before = reached.get(node)
    if (before !== undefined && before >= depth) continue
    reached.set(node, depth)
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

/** The id an answer to `request` carries: its own when it is a valid one (string or number), null otherwise. */
export function answerId(request: unknown): string | number | null {
  const id =
    typeof request === 'object' && request !== null && !Array.isArray(request)
      ? (request as { id?: unknown }).id
      : undefined
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

/**
 * Whether the JSON-RPC core takes `request` for a notification: an object without an `id` member, with
 * jsonrpc "2.0" and a method name. A notification is never answered, whatever is wrong with its
 * params — an over-deep one included — as geth runs a notification and drops its answer; only an
 * invalid envelope without an id is answered (id null).
 */
export function isNotification(request: unknown): boolean {
  if (typeof request !== 'object' || request === null || Array.isArray(request) || 'id' in request) return false
  const { jsonrpc, method } = request as { jsonrpc?: unknown; method?: unknown }
  return jsonrpc === '2.0' && typeof method === 'string' && method !== ''
}

/**
 * A message (one request or a batch) with every request nested over the limit replaced by a
 * stand-in nested exactly one level too deep, carrying the same id (and the same jsonrpc and method
 * when they are strings, so that a notification stays one): the handler refuses the stand-in
 * exactly as it would the original, but it can be structured-cloned (postMessage) and
 * JSON.stringify-ed, which both overflow the stack on the original. The message itself when no
 * request is too deep.
 */
export function cutTooDeepRequests(message: unknown): unknown {
  if (!Array.isArray(message)) return cut(message)
  return message.some((request) => nestsDeeperThan(request)) ? message.map(cut) : message
}

function cut(request: unknown): unknown {
  if (!nestsDeeperThan(request)) return request
  let params: unknown[] = []
  for (let level = 1; level < MAX_JSON_DEPTH; level++) params = [params]
  const standIn: Record<string, unknown> = { params }
  if (Array.isArray(request)) return standIn
  const { jsonrpc, method } = request as { jsonrpc?: unknown; method?: unknown }
  if (typeof jsonrpc === 'string') standIn.jsonrpc = jsonrpc
  if (typeof method === 'string') standIn.method = method
  if ('id' in (request as object)) standIn.id = answerId(request)
  return standIn
}
