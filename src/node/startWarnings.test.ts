import { describe, expect, it } from 'vitest'
import { startWarnings } from './startWarnings.js'

describe('startWarnings', () => {
  it('says nothing on loopback, even with debug', () => {
    expect(startWarnings('127.0.0.1', ['eth', 'debug'])).toEqual([])
    expect(startWarnings('localhost', ['debug'])).toEqual([])
  })
  it('warns beyond loopback, and once more when debug is served there', () => {
    expect(startWarnings('0.0.0.0', ['eth'])).toHaveLength(1)
    const both = startWarnings('0.0.0.0', ['eth', 'debug'])
    expect(both).toHaveLength(2)
    expect(both[1]).toMatch(/^WARNING: the debug namespace is enabled on 0\.0\.0\.0/)
  })
})
