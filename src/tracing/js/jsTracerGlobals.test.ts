import bigInt from 'big-integer'
import { expect, it } from 'vitest'
import { toBig } from './jsTracerGlobals.js'

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'

it("writes a big number in every base 2–36 as BigInteger.js's own digits do, and keeps its other bases", () => {
  const values = [
    0n,
    1n,
    9n,
    15n,
    16n,
    35n,
    36n,
    255n,
    2n ** 53n + 1n,
    2n ** 64n - 1n,
    2n ** 255n + 12345n,
    2n ** 256n - 1n,
  ]
  for (const value of [...values, ...values.map((v) => -v)]) {
    const big = toBig(value)
    expect(big.toString()).toBe(value.toString())
    for (let radix = 2; radix <= 36; radix++) {
      // BigInteger.js's digits of the value (its toArray), written with its default alphabet.
      const { value: digits, isNegative } = big.toArray(radix)
      expect(big.toString(radix), `${value} in base ${radix}`).toBe(
        (isNegative ? '-' : '') + digits.map((d) => DIGITS[d]).join(''),
      )
    }
  }
  // Bases past 36 and own alphabets are BigInteger.js's: `<digit>` past the alphabet, its letters.
  expect(toBig(100n).toString(37)).toBe('2q')
  expect(toBig(79n).toString(40)).toBe('1<39>')
  expect(toBig(6n).toString(2, 'ab')).toBe('bba')
  expect(bigInt(255).toString(16)).toBe('ff')
})
