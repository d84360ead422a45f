import type { Decoded } from '../abi/signatures.js'
import { h } from '../dom.js'
import { units } from '../format.js'
import type { TokenInfo } from './walletPreview.js'

/** A token's symbol and decimals by its address (lowercase), where the page read them. */
export type TokenOf = (address: string) => TokenInfo | undefined

/** The argument of an ERC-20 function that is an amount of the token called, by signature. */
const AMOUNT_ARGUMENT: Readonly<Record<string, number>> = {
  'transfer(address,uint256)': 1,
  'transferFrom(address,address,uint256)': 2,
  'approve(address,uint256)': 1,
  'increaseAllowance(address,uint256)': 1,
  'decreaseAllowance(address,uint256)': 1,
  'mint(address,uint256)': 1,
  'burn(uint256)': 0,
  'burnFrom(address,uint256)': 1,
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)': 2,
  'deposit(uint256)': 0,
  'withdraw(uint256)': 0,
}

/**
 * Which argument of a call to a token, or of an event a token emitted, is an amount of that token:
 * ERC-20's functions above, and its Transfer and Approval events (three topics: an ERC-721's have
 * four, its token id indexed). A token with no decimals() (an NFT) is never scaled: see tokenAmount.
 */
export function amountArgument(signature: string, topics?: readonly string[]): number | undefined {
  if (topics === undefined) return AMOUNT_ARGUMENT[signature]
  return (signature === 'Transfer(address,address,uint256)' || signature === 'Approval(address,address,uint256)') &&
    topics.length === 3
    ? 2
    : undefined
}

const MAX = (1n << 256n) - 1n

/**
 * An amount of a token as "What it moved" says it — `100 EDGE`, in its decimals with its symbol —,
 * its base units on hover; undefined when the token's decimals are not known (shown raw).
 */
export function tokenAmount(raw: string, token: TokenInfo | undefined): HTMLElement | undefined {
  if (token?.decimals === undefined || !/^\d+$/.test(raw)) return undefined
  const value = BigInt(raw)
  const symbol = token.symbol ?? 'tokens'
  return h(
    'span',
    { class: 'amount', title: `${value} base units` },
    value === MAX ? `unlimited ${symbol}` : `${units(value, token.decimals)} ${symbol}`,
  )
}

/** A uint argument's name that says it is an amount (amount, amountIn, value, wad, …). */
const AMOUNT_NAME = /^(amount|value|wad)|amount$/i

/**
 * For callLabelParts: the element for argument i of a decoded call to `to` that is a token amount —
 * an ERC-20 function's amount when `to` is a token; else, in a call that names exactly one token the
 * page knows among its address arguments (a router's or vault's `pull(token, from, amount)`), its uint
 * arguments named as amounts, in that token's decimals. Others stay raw.
 */
export function callAmounts(
  decoded: Decoded | undefined,
  to: string | undefined,
  tokenOf: TokenOf | undefined,
): (index: number, value: string) => HTMLElement | undefined {
  if (!decoded || !tokenOf) return () => undefined
  const own = to ? tokenOf(to.toLowerCase()) : undefined
  const standard = own?.decimals !== undefined ? amountArgument(decoded.signature) : undefined
  const named = new Set(
    decoded.args.flatMap((a) =>
      a.type === 'address' && typeof a.value === 'string' && tokenOf(a.value.toLowerCase())?.decimals !== undefined
        ? [a.value.toLowerCase()]
        : [],
    ),
  )
  const [only] = named.size === 1 ? [...named] : []
  return (i, value) => {
    if (standard !== undefined) return i === standard ? tokenAmount(value, own) : undefined
    const arg = decoded.args[i]
    if (!only || !arg || !/^uint\d*$/.test(arg.type) || !AMOUNT_NAME.test(arg.name)) return undefined
    return tokenAmount(value, tokenOf(only))
  }
}
