import type { SourceEvent } from '../../src/tracing/render/source/decodeFrameAbi.js'
import { type Decoded, decodeLog } from '../abi/signatures.js'
import { h } from '../dom.js'
import { short } from '../format.js'
import { type TokenOf, amountArgument, tokenAmount } from './tokenAmounts.js'

export type LogEntry = { address: string; topics: string[]; data: string }

/**
 * The events, in order, decoded where the signature is known; raw topics and data otherwise. A
 * token's Transfer and Approval amounts in its decimals with its symbol where `tokenOf` knows them
 * (the base units on hover). `byAbi[i]`, where the source tracer decoded log i by its emitter's own
 * ABI (sourceEventsFor), is shown instead of the bundled table's reading.
 */
export function renderEvents(
  logs: readonly LogEntry[],
  nameOf: (a: string) => string | undefined,
  tokenOf: TokenOf = () => undefined,
  byAbi: readonly (SourceEvent | undefined)[] = [],
): HTMLElement {
  if (logs.length === 0) return h('p', { class: 'muted' }, 'No events.')
  const show = (value: unknown): string =>
    Array.isArray(value)
      ? `[${value.map(show).join(', ')}]`
      : typeof value === 'string' && /^0x[0-9a-f]{40}$/.test(value) && nameOf(value)
        ? `${value} (${nameOf(value)})`
        : String(value)
  return h(
    'ol',
    { class: 'events', start: 0 },
    logs.map((log, index) => {
      const own = byAbi[index]
      const decoded: Decoded | undefined =
        own?.name && own.signature && own.args
          ? { name: own.name, signature: own.signature, args: own.args }
          : decodeLog(log.topics, log.data)
      const name = nameOf(log.address)
      return h(
        'li',
        {},
        h(
          'span',
          { class: 'target', title: log.address },
          name ? `${name} ` : '',
          h('code', {}, short(log.address, 8)),
        ),
        ' ',
        decoded
          ? h(
              'span',
              { class: `event${own?.name ? ' by-abi' : ''}` },
              h('b', { title: decoded.signature }, decoded.name),
              h(
                'dl',
                { class: 'args' },
                decoded.args.map((a, i) => [
                  h('dt', {}, `${a.name || '?'} (${a.type})`),
                  h(
                    'dd',
                    {},
                    (i === amountArgument(decoded.signature, log.topics) && typeof a.value === 'string'
                      ? tokenAmount(a.value, tokenOf(log.address.toLowerCase()))
                      : undefined) ?? show(a.value),
                  ),
                ]),
              ),
            )
          : h(
              'span',
              { class: 'event raw' },
              h('b', {}, `unknown event ${short(log.topics[0] ?? 'anonymous', 8)}`),
              h('dl', { class: 'args' }, [
                ...log.topics.slice(1).map((t, i) => [h('dt', {}, `topic ${i + 1}`), h('dd', {}, t)]),
                h('dt', {}, 'data'),
                h('dd', {}, log.data),
              ]),
            ),
      )
    }),
  )
}
