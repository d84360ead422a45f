import { describe, expect, it } from 'vitest'
import { scanJsonText } from './scanJsonText.js'

const nest = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`

describe('scanJsonText', () => {
  it('measures a request object and keeps its id text as written', () => {
    const text = ' {"jsonrpc":"2.0", "id" : 1.50 ,"method":"eth_x","params":[{"a":[1]}]} '
    const scan = scanJsonText(text)
    expect(scan).toMatchObject({ batch: false, complete: true })
    expect(scan.requests).toHaveLength(1)
    expect(scan.requests[0]).toMatchObject({ depth: 4, id: '1.50' })
    expect(text.slice(scan.requests[0]!.start, scan.requests[0]!.end)).toBe(text.trim())
  })

  it('takes the id member JSON.parse takes: the last one, names with escapes decoded, never a nested one', () => {
    const id = (text: string) => scanJsonText(text).requests[0]?.id
    expect(id('{"id":1,"id":"two"}')).toBe('"two"')
    expect(id('{"\\u0069d":1e400}')).toBe('1e400')
    expect(id('{"params":{"id":5},"method":"m"}')).toBeUndefined()
    expect(id('{"params":[{"id":5}],"id":123456789012345678901234567890}')).toBe('123456789012345678901234567890')
    expect(id('{"method":"a\\"b{[","id":"x\\"}]"}')).toBe('"x\\"}]"')
    expect(id('{"id":{"a":[1]}}')).toBe('{"a":[1]}')
    expect(id('{"id":null}')).toBe('null')
  })

  it('keeps the jsonrpc and method texts likewise, at the level of the request itself only', () => {
    const [request] = scanJsonText(
      '{"jsonrpc":"1.0","method":5,"params":{"method":"x","jsonrpc":"y"},"\\u006dethod" : "eth_x" ,"jsonrpc":"2.0"}',
    ).requests
    expect(request).toMatchObject({ jsonrpc: '"2.0"', method: '"eth_x"', id: undefined })
    const scan = scanJsonText('[{"method":"a"},{"jsonrpc":"2.0","params":[]},7,[{"method":"b"}]]')
    expect(scan.requests.map((r) => [r.jsonrpc, r.method])).toEqual([
      [undefined, '"a"'],
      ['"2.0"', undefined],
      [undefined, undefined],
      [undefined, undefined],
    ])
  })

  it('counts brackets outside strings only, escapes honoured', () => {
    const scan = scanJsonText(`{"id":1,"params":["[[[[\\"[[[[","\\\\",${nest(3)}]}`)
    expect(scan.complete).toBe(true)
    expect(scan.requests[0]!.depth).toBe(5)
  })

  it('ends a string at a quote after an even run of backslashes only', () => {
    const text = JSON.stringify({ id: 'a\\', params: ['\\"[[[', '\\\\', '[[', [[]]], method: '"]}' })
    const scan = scanJsonText(text)
    expect(scan.complete).toBe(true)
    expect(scan.requests[0]).toMatchObject({ depth: 4, id: JSON.stringify('a\\') })
  })

  it('describes each request of a batch, scalars and nested arrays included', () => {
    const text = `[ {"id":"a","params":${nest(2)}} , 7, "s,]", ${nest(4, '{}')}, {"id":2} ]`
    const scan = scanJsonText(text)
    expect(scan).toMatchObject({ batch: true, complete: true })
    expect(scan.requests.map((r) => r.depth)).toEqual([3, 0, 0, 5, 1])
    expect(scan.requests.map((r) => r.id)).toEqual(['"a"', undefined, undefined, undefined, '2'])
    const fourth = scan.requests[3]!
    expect(text.slice(fourth.start, fourth.end)).toBe(nest(4, '{}'))
  })

  it('measures 100,000 levels without recursion', () => {
    const scan = scanJsonText(`{"id":7,"params":${nest(100_000)}}`)
    expect(scan.requests[0]).toMatchObject({ depth: 100_001, id: '7' })
    expect(scan.complete).toBe(true)
  })

  it('says when the text is not one whole message', () => {
    for (const text of [
      '{"id":1',
      '{"id":"1}',
      '[{"id":1}',
      '{"id":1}}',
      '{"id":1} {"id":2}',
      '[1] [2]',
      '',
      '   ',
      ']',
    ]) {
      expect(scanJsonText(text).complete, text).toBe(false)
    }
    for (const text of ['[]', '42', '"s"', '{}', '[{}]']) expect(scanJsonText(text).complete, text).toBe(true)
  })
})
