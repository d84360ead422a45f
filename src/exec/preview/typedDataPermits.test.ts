import { expect, it } from 'vitest'
import { typedDataUint } from './typedDataPermits.js'

it('typedDataUint reads a uint as wallets pass it: a safe number, a decimal or 0x string of at most a uint256', () => {
  expect(typedDataUint(5)).toBe(5n)
  expect(typedDataUint('1000000000000000000')).toBe(10n ** 18n)
  expect(typedDataUint('0x2a')).toBe(42n)
  expect(typedDataUint(`0x${'f'.repeat(64)}`)).toBe((1n << 256n) - 1n)
  expect(typedDataUint('9'.repeat(78))).toBe(10n ** 78n - 1n)
  for (const bad of [-1, 1.5, 2 ** 53, '', '0x', '-1', '1e18', ' 1', null, undefined, {}, [1]])
    expect(typedDataUint(bad), JSON.stringify(bad)).toBeUndefined()
})

it('typedDataUint refuses a string longer than a uint256 at once, never parsing megabytes of digits', () => {
  expect(typedDataUint(`0x${'f'.repeat(65)}`)).toBeUndefined()
  expect(typedDataUint('9'.repeat(79))).toBeUndefined()
  expect(typedDataUint('9'.repeat(4_000_000))).toBeUndefined()
})
