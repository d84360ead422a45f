import { expect, it } from 'vitest'
import { createListeners } from './createListeners.js'

type Events = { message: (m: string) => void; connect: (info: { chainId: string }) => void }

it('calls the listeners of an event in the order added; a listener that throws stops none of the others; a removed one is not called', () => {
  const listeners = createListeners<Events>()
  const heard: string[] = []
  const first = (m: string) => heard.push(`first ${m}`)
  listeners.add('message', first)
  listeners.add('message', () => {
    throw new Error('a listener’s own failure')
  })
  listeners.add('message', (m) => heard.push(`third ${m}`))
  listeners.add('connect', ({ chainId }) => heard.push(`connect ${chainId}`))
  expect(() => listeners.emit('message', 'a')).not.toThrow()
  expect(heard).toEqual(['first a', 'third a'])
  listeners.remove('message', first)
  listeners.emit('message', 'b')
  listeners.emit('connect', { chainId: '0x1' })
  expect(heard).toEqual(['first a', 'third a', 'third b', 'connect 0x1'])
  // Adding the same listener twice keeps it once; an event with none is nothing.
  listeners.add('message', first)
  listeners.add('message', first)
  listeners.remove('connect', first as never)
  listeners.emit('message', 'c')
  expect(heard.slice(4)).toEqual(['third c', 'first c'])
})
