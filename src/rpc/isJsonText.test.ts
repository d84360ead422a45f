import { describe, expect, it } from 'vitest'
import { isJsonText } from './isJsonText.js'

const parses = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('isJsonText', () => {
  it('accepts what JSON.parse accepts and nothing else', () => {
    const cases = [
      '1',
      '-0',
      '01',
      '1.',
      '.5',
      '1e5',
      '1E+5',
      '-',
      '-01',
      '2e',
      'true',
      'tru',
      'truex',
      'null',
      'nul',
      'NaN',
      '"a"',
      '"a',
      '"\\u00zz"',
      '"\\u0041"',
      '"\\u004"',
      '"\\x"',
      '"\u0001"',
      '"\\',
      '"\\"',
      '"\\\\"',
      '"\\ud800"',
      '"😀"',
      '[]',
      '[,]',
      '[1,]',
      '[1 2]',
      '[1,,2]',
      '{}',
      '{,}',
      '{"a":1,}',
      '{"a" 1}',
      '{"a":1}',
      '{1:1}',
      '{"a"}',
      '{"a":}',
      '{"a":1 "b":2}',
      '[[[]]]',
      '[[[]]',
      '[]]',
      ' [ 1 , { "a" : [ ] } ] ',
      '{"a":[{"b":{}}],"c":"\\""}',
      '[1]x',
      '',
      ' ',
      '[}',
      '{]',
      '[1]\t\n\r ',
      '\u00a0[]',
    ]
    for (const text of cases) expect(isJsonText(text), JSON.stringify(text)).toBe(parses(text))
    // And on random short texts from JSON's pieces, against JSON.parse itself (a fixed LCG: the same every run).
    const pieces = ['[', ']', '{', '}', ',', ':', '"a"', '1', '-', '0', '.', 'e', 'true', 'null', ' ', '"', '\\', 'x']
    let seed = 1
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x80000000
    const disagreements: string[] = []
    let valid = 0
    for (let k = 0; k < 50_000; k++) {
      let text = ''
      for (let n = 1 + Math.floor(next() * 10); n > 0; n--) text += pieces[Math.floor(next() * pieces.length)]
      const want = parses(text)
      if (want) valid++
      if (isJsonText(text) !== want) disagreements.push(text)
    }
    expect(disagreements).toEqual([])
    expect(valid).toBeGreaterThan(1000) // the texts hold both kinds
  })

  it('checks a part of a text, and nothing beyond it', () => {
    expect(isJsonText('xx[1,2]yy', 2, 7)).toBe(true)
    expect(isJsonText('xx[1,2]yy', 2, 6)).toBe(false)
    expect(isJsonText('"ab\\"', 0, 4)).toBe(false) // the closing quote is past the end
    expect(isJsonText('12', 0, 1)).toBe(true)
  })

  it('checks 1,000,000 levels without recursion, brackets inside strings ignored', () => {
    const levels = 1_000_000
    expect(isJsonText(`${'['.repeat(levels)}"]]]"${']'.repeat(levels)}`)).toBe(true)
    expect(isJsonText(`${'['.repeat(levels)}1 2${']'.repeat(levels)}`)).toBe(false)
    expect(isJsonText(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)).toBe(true)
    expect(isJsonText(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels - 1)}]`)).toBe(false)
  })
})
