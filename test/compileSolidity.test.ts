import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { compileSolidity } from './src/compileSolidity.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'edgetrace-solc-cache-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter { uint256 public n; function add(uint256 k) external { n += k; } }
`

it('compiled output is kept on disk by (solc version, source, settings) and read back instead of compiling again', async () => {
  const first = compileSolidity('Counter.sol', SOURCE, dir)
  expect(first.Counter?.runtime).toMatch(/^0x60[0-9a-f]+$/)
  const files = await readdir(dir)
  expect(files).toHaveLength(1)
  expect(files[0]).toMatch(/^[0-9a-f]{64}\.json$/)
  expect(JSON.parse(await readFile(join(dir, files[0]!), 'utf8'))).toEqual(first)

  // What the cache holds is what the next call answers (solc is not run again): replaced, it is read back.
  const marked = { Counter: { creation: '0x01', runtime: '0x02' } }
  await writeFile(join(dir, files[0]!), JSON.stringify(marked))
  expect(compileSolidity('Counter.sol', SOURCE, dir)).toEqual(marked)

  // Another source (even one more space) or another file name is another entry, compiled afresh
  // (the bytecode's metadata hash differs with either).
  for (const [name, source] of [
    ['Counter.sol', `${SOURCE} `],
    ['Other.sol', SOURCE],
  ] as const) {
    const again = compileSolidity(name, source, dir)
    expect(again.Counter?.runtime).toMatch(/^0x60[0-9a-f]+$/)
    expect(again.Counter?.runtime).not.toBe(first.Counter?.runtime)
  }
  expect(await readdir(dir)).toHaveLength(3)

  // An unreadable entry is compiled again and rewritten.
  await writeFile(join(dir, files[0]!), '{"Counter": ')
  expect(compileSolidity('Counter.sol', SOURCE, dir)).toEqual(first)
  expect(JSON.parse(await readFile(join(dir, files[0]!), 'utf8'))).toEqual(first)
})

it('a source that does not compile throws solc’s error and caches nothing', async () => {
  const before = (await readdir(dir)).length
  expect(() => compileSolidity('Bad.sol', 'pragma solidity ^0.8.0; contract Bad { function f( }', dir)).toThrow(
    /ParserError/,
  )
  expect(await readdir(dir)).toHaveLength(before)
})
