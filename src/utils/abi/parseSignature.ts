import { splitTypes } from './decodeAbi.js'

export type AbiParam = { type: string; name: string; indexed: boolean }
/** A function, event or error: its name, parameters and canonical signature (`transfer(address,uint256)`). */
export type AbiItem = { kind: 'function' | 'event' | 'error'; name: string; params: AbiParam[]; signature: string }

/**
 * Parses a human-readable line: `function transfer(address to, uint256 amount)`, `event …`,
 * `error …`; tuples written as their component types, `(address,bytes)[] calls`.
 */
export function parseSignature(line: string): AbiItem {
  const m = /^(function|event|error)\s+(\w+)\((.*)\)$/.exec(line.trim())
  if (!m) throw new Error(`not a signature: ${line}`)
  const params = splitTypes(m[3]!).map((part) => {
    const words = part.trim().split(/\s+/)
    const type = words[0]!
    const indexed = words.includes('indexed')
    const name = words.length > 1 && words.at(-1) !== 'indexed' ? words.at(-1)! : ''
    return { type, name, indexed }
  })
  const name = m[2]!
  return {
    kind: m[1] as AbiItem['kind'],
    name,
    params,
    signature: `${name}(${params.map((p) => p.type).join(',')})`,
  }
}
