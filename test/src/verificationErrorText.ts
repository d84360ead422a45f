/**
 * A verification failure as a person reads it: its one-line message, then its data spelled out —
 * `block N 0xhash`, then each fact by its name (`address 0x…`, `slot 0x…`, the roots, hashes and values) — so that a test can ask
 * whether the error names a block, an address or a slot wherever the wire puts it.
 */
export function verificationErrorText(error: { message: string; data?: unknown } | undefined): string {
  if (!error) return ''
  const data = (error.data ?? {}) as { block?: { number?: string; hash: string } } & Record<string, unknown>
  const { block, ...rest } = data
  const parts = [error.message]
  if (block) parts.push(`block ${block.number !== undefined ? `${BigInt(block.number)} ` : ''}${block.hash}`)
  for (const [key, value] of Object.entries(rest)) if (typeof value === 'string') parts.push(`${key} ${value}`)
  return parts.join('\n')
}
