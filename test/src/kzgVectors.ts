import { readFileSync, readdirSync } from 'node:fs'

/**
 * A consensus-spec KZG reference-test case (data.yaml, as c-kzg-4844 ships them): `input` a map of
 * hex strings, lists of hex strings and lists of numbers; `output` true, false, null, a hex string
 * or a list (of lists) of hex strings. Only the YAML those files use is read.
 */
export type KzgCase = {
  name: string
  input: Record<string, string | string[] | number[]>
  output: boolean | null | string | string[] | string[][]
}

const FIXTURES = new URL('../fixtures/c-kzg-4844/', import.meta.url)

const scalar = (text: string): string | number => {
  const t = text.trim()
  return t.startsWith("'") ? t.slice(1, -1) : Number(t)
}

export function readKzgCase(path: string): KzgCase {
  // A flow list ([0, 1, …]) may be folded over several lines: join it back first.
  const lines: string[] = []
  for (const line of readFileSync(new URL(`${path}/data.yaml`, FIXTURES), 'utf8').split('\n')) {
    const open = lines.at(-1)
    if (open?.includes('[') && !open.includes(']')) lines[lines.length - 1] = `${open} ${line.trim()}`
    else lines.push(line)
  }
  const input: KzgCase['input'] = {}
  let output: KzgCase['output'] = null
  let key: string | undefined
  let inOutput = false
  const outList: string[][] = []
  for (const line of lines) {
    if (line.trim() === '' || line === 'input:') continue
    if (line.startsWith('output:')) {
      inOutput = true
      const rest = line.slice('output:'.length).trim()
      if (rest === 'true' || rest === 'false') output = rest === 'true'
      else if (rest === 'null') output = null
      else if (rest !== '') output = scalar(rest) as string
      continue
    }
    if (inOutput) {
      const nested = line.match(/^- - (.*)$/)
      if (nested) outList.push([scalar(nested[1]!) as string])
      else if (/^ {2}- /.test(line)) outList.at(-1)!.push(scalar(line.slice(4)) as string)
      else if (line.startsWith('- ')) outList.push([scalar(line.slice(2)) as string])
      continue
    }
    const field = line.match(/^ {2}(\w+):\s*(.*)$/)
    if (field) {
      key = field[1]!
      const rest = field[2]!
      if (rest.startsWith('[')) {
        const inner = rest.slice(1, -1).trim()
        input[key] = inner === '' ? [] : (inner.split(',').map(scalar) as string[] | number[])
      } else if (rest === '') input[key] = []
      else input[key] = scalar(rest) as string
      continue
    }
    const item = line.match(/^ {2}- (.*)$/)
    if (item && key) (input[key] as string[]).push(scalar(item[1]!) as string)
  }
  if (outList.length > 0)
    output =
      outList.every((l) => l.length === 1) && !lines.some((l) => l.startsWith('- - '))
        ? outList.map((l) => l[0]!)
        : outList
  return { name: path.split('/').pop()!, input, output }
}

/** Every case of one function's kzg-mainnet directory, by name. */
export function readKzgCases(fn: string): KzgCase[] {
  return readdirSync(new URL(`${fn}/kzg-mainnet/`, FIXTURES))
    .sort()
    .map((name) => readKzgCase(`${fn}/kzg-mainnet/${name}`))
}
