import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, cutTooDeepRequests, isNotification, nestsDeeperThan } from './jsonDepth.js'

function nested(levels: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

describe('nestsDeeperThan', () => {
  it('counts the value itself as level 1, arrays and objects alike', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false)
    expect(nestsDeeperThan(nested(4), 3)).toBe(true)
    expect(nestsDeeperThan({ a: { b: [{}] } }, 4)).toBe(false)
    expect(nestsDeeperThan({ a: { b: [{}] } }, 3)).toBe(true)
    expect(nestsDeeperThan('[[[[', 1)).toBe(false)
    expect(nestsDeeperThan(null, 0)).toBe(false)
  })

  it('measures 1,000,000 levels without recursion, and calls a cycle too deep', () => {
    expect(nestsDeeperThan(nested(1_000_000))).toBe(true)
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(nestsDeeperThan(cyclic)).toBe(true)
  })

  it('walks shared structure (as structured clone keeps it) in bounded time', () => {
    // 60 levels where each node holds its child twice: 2^60 paths, 60 nodes.
    let node: unknown = {}
    for (let i = 0; i < 60; i++) node = { a: node, b: node }
    const started = Date.now()
    expect(nestsDeeperThan(node)).toBe(false)
    expect(Date.now() - started).toBeLessThan(1_000)
  })
})

describe('isNotification', () => {
  it('is an object without an id member, with jsonrpc "2.0" and a method name', () => {
    expect(isNotification({ jsonrpc: '2.0', method: 'eth_x', params: 5 })).toBe(true)
    for (const request of [
      { jsonrpc: '2.0', method: 'eth_x', id: null },
      { jsonrpc: '2.0', method: 'eth_x', id: undefined },
      { jsonrpc: '2.0', method: '' },
      { jsonrpc: '2.0', method: 5 },
      { jsonrpc: '1.0', method: 'eth_x' },
      { method: 'eth_x' },
      [{ jsonrpc: '2.0', method: 'eth_x' }],
      'eth_x',
      null,
    ]) {
      expect(isNotification(request), JSON.stringify(request)).toBe(false)
    }
  })
})

describe('cutTooDeepRequests', () => {
  it('leaves a shallow message as it is', () => {
    const message = [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: nested(MAX_JSON_DEPTH - 2) }]
    expect(cutTooDeepRequests(message)).toBe(message)
  })

  it('swaps an over-deep request for a stand-in just over the limit, with the same valid id', () => {
    const deep = { jsonrpc: '2.0', id: 'x', method: 'eth_foo', params: nested(10_000) }
    const ok = { jsonrpc: '2.0', id: 2, method: 'eth_chainId' }
    const [standIn, kept] = cutTooDeepRequests([deep, ok]) as [Record<string, unknown>, unknown]
    expect(kept).toBe(ok)
    expect(standIn.id).toBe('x')
    expect(nestsDeeperThan(standIn)).toBe(true)
    expect(nestsDeeperThan(standIn, MAX_JSON_DEPTH + 1)).toBe(false)
    expect(() => JSON.stringify(standIn)).not.toThrow()
    expect(() => structuredClone(standIn)).not.toThrow()
    // An invalid id is answered with null, a missing one stays missing.
    expect((cutTooDeepRequests({ ...deep, id: { a: 1 } }) as { id: unknown }).id).toBeNull()
    expect('id' in (cutTooDeepRequests({ params: deep.params }) as object)).toBe(false)
  })

  it('keeps a notification a notification, and an invalid envelope invalid', () => {
    const params = nested(10_000)
    const notification = cutTooDeepRequests({ jsonrpc: '2.0', method: 'eth_foo', params })
    expect(isNotification(notification)).toBe(true)
    expect(nestsDeeperThan(notification)).toBe(true)
    for (const request of [
      { jsonrpc: '2.0', method: ['eth_foo'], params },
      { jsonrpc: 2, method: 'eth_foo', params },
      { method: 'eth_foo', params },
      [params],
    ]) {
      const standIn = cutTooDeepRequests(request)
      expect(isNotification(standIn), JSON.stringify(standIn).slice(0, 80)).toBe(false)
      expect(nestsDeeperThan(standIn)).toBe(true)
    }
  })
})
