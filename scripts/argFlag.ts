/** A command-line option's value (`--name VALUE`), or undefined when it is absent; a name without a value is an error. */
export function argFlag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  if (at < 0) return undefined
  const value = process.argv[at + 1]
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
  return value
}
