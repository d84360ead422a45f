import type { SignatureTable } from './createSignatureTable.js'
import { type AbiValue, decodeParams, decodeTopic, hexToBytes } from './decodeAbi.js'
import type { DecodedArg } from './decodeCallData.js'

/** A log named by its first topic, its indexed arguments from the topics and the others from its data. */
export type DecodedLog = { name: string; signature: string; args: DecodedArg[] }

/**
 * Decodes a log by the first table that knows its first topic with as many indexed parameters as
 * the log has further topics (ERC-20's and ERC-721's Transfer share a topic) and whose other
 * parameters the data fits; undefined when none does. Anonymous events (no topic of their own) are
 * not named.
 */
export function decodeLog(
  topics: readonly string[],
  data: Uint8Array | string,
  tables: readonly SignatureTable[],
): DecodedLog | undefined {
  const first = topics[0]?.toLowerCase()
  if (!first) return undefined
  const bytes = typeof data === 'string' ? hexToBytes(data) : data
  for (const table of tables) {
    for (const item of table.topics.get(first) ?? []) {
      const indexed = item.params.filter((p) => p.indexed)
      if (indexed.length !== topics.length - 1) continue
      const plain = decodeParams(
        item.params.filter((p) => !p.indexed).map((p) => p.type),
        bytes,
      )
      if (!plain) continue
      let topic = 1
      let next = 0
      let values: AbiValue[]
      try {
        values = item.params.map((p) => (p.indexed ? decodeTopic(p.type, topics[topic++]!) : plain[next++]!))
      } catch {
        continue
      }
      return {
        name: item.name,
        signature: item.signature,
        args: item.params.map((p, i) => ({ name: p.name, type: p.type, value: values[i]! })),
      }
    }
  }
  return undefined
}
