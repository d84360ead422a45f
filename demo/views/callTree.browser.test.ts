import { expect, it } from 'vitest'
import type { CallFrame } from '../traceTypes.js'
import { CHILDREN_SHOWN, renderCallTree } from './callTree.js'
import { renderFlameGraph } from './flameGraph.js'

// A loop of 250 calls (as a batch transfer or an airdrop makes): drawn a hundred at a time, and
// in the flame graph as one box where the calls are too narrow to draw apart.
const child = (i: number): CallFrame => ({
  type: 'STATICCALL',
  from: '0x00000000000000000000000000000000000000aa',
  to: '0x0000000000000000000000000000000000000004',
  gas: '0x100',
  gasUsed: '0x10',
  input: `0x${i.toString(16).padStart(8, '0')}`,
})
const root: CallFrame = {
  type: 'CALL',
  from: '0x00000000000000000000000000000000000000bb',
  to: '0x00000000000000000000000000000000000000aa',
  gas: '0x100000',
  gasUsed: `0x${(250 * 16 * 3).toString(16)}`,
  input: '0x',
  calls: Array.from({ length: 250 }, (_, i) => child(i)),
}

it('draws a frame’s first hundred callees, and the rest on a click', () => {
  const tree = renderCallTree(root)
  document.body.append(tree)
  expect(tree.querySelector('.tools')?.textContent).toContain('251 frames')
  expect(tree.querySelectorAll('.frame-row').length).toBe(1 + CHILDREN_SHOWN)
  const more = tree.querySelector<HTMLButtonElement>('button.more')!
  expect(more.textContent).toBe('show 150 more calls')
  more.click()
  expect(tree.querySelectorAll('.frame-row').length).toBe(251)
  expect(tree.querySelector('button.more')).toBeNull()
  tree.remove()
})

it('groups callees too narrow to draw apart into one flame box', () => {
  const flame = renderFlameGraph(root)
  const boxes = flame.querySelectorAll('.flame-box')
  expect(boxes.length).toBe(2)
  expect(boxes[1]!.classList.contains('group')).toBe(true)
  expect(boxes[1]!.textContent).toBe('250 calls')
  expect(boxes[1]!.getAttribute('title')).toBe('250 calls too narrow to draw apart: 4,000 gas')
})
