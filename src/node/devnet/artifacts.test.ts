import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compileContracts } from '../../../scripts/compileContracts.js'

describe('devnet artifacts', () => {
  it('artifacts.json is what the committed sources compile to (run scripts/compileContracts.ts after editing them)', () => {
    const committed = readFileSync(new URL('./artifacts.json', import.meta.url), 'utf8')
    expect(committed === compileContracts()).toBe(true)
  })
})
