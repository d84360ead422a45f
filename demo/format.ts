/** Display helpers: wei as ETH, gas with separators, short hex. */

export const big = (q: string | number | bigint | undefined | null): bigint =>
  q === undefined || q === null || q === '' ? 0n : BigInt(q)

/** A whole number with thin separators: 1 234 567. */
export const grouped = (n: bigint | number): string => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/** An amount with `decimals` decimals, trailing zeros dropped: 1.5, 0.000021. */
export function units(value: bigint, decimals: number): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  const fraction = decimals > 0 ? (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '') : ''
  return `${negative ? '-' : ''}${grouped(whole)}${fraction ? `.${fraction}` : ''}`
}

export const eth = (wei: bigint): string => `${units(wei, 18)} ETH`
export const gwei = (wei: bigint): string => `${units(wei, 9)} gwei`

export const short = (hex: string, keep = 6): string =>
  hex.length > 2 + keep * 2 ? `${hex.slice(0, 2 + keep)}…${hex.slice(-keep + 2)}` : hex

export const ms = (t: number): string => (t < 1000 ? `${Math.round(t)} ms` : `${(t / 1000).toFixed(2)} s`)
