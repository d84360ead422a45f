import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compileDevnet } from '../../../scripts/compileContracts.js'

describe('devnet artifacts', () => {
  it('artifacts.json is what the committed sources compile to (run scripts/compileContracts.ts after editing them)', () => {
    const committed = readFileSync(new URL('./artifacts.json', import.meta.url), 'utf8')
    expect(committed === compileDevnet().artifacts).toBe(true)
  })

  it('sources.json (the build-info the explorer debugs the devnet with) is the same compilation', () => {
    const committed = readFileSync(new URL('./sources.json', import.meta.url), 'utf8')
    expect(committed === compileDevnet().sources).toBe(true)
  })
})
