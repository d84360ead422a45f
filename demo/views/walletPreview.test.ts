import { encodeAbiParameters, encodeEventTopics, parseAbiItem } from 'viem'
import { expect, it } from 'vitest'
import type { CallFrame } from '../traceTypes.js'
import { collectMovements } from './walletPreview.js'

// What a wallet preview reads from one callTracer trace: logs built with viem, as a token would emit them.
const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const TOKEN = '0x00000000000000000000000000000000000000cc'

function log(signature: string, args: Record<string, unknown>) {
  const event = parseAbiItem(signature) as never
  const topics = encodeEventTopics({ abi: [event], args } as never) as string[]
  const plain = (event as { inputs: { indexed?: boolean; name: string; type: string }[] }).inputs.filter(
    (i) => !i.indexed,
  )
  const data = encodeAbiParameters(plain, plain.map((i) => args[i.name]) as never)
  return { address: TOKEN, topics, data }
}

const frame = (over: Partial<CallFrame>): CallFrame => ({
  type: 'CALL',
  from: A,
  to: TOKEN,
  gas: '0x0',
  gasUsed: '0x0',
  input: '0x',
  ...over,
})

it('finds ether, ERC-20, ERC-721 and ERC-1155 transfers and approvals, skipping what reverted', () => {
  const trace = frame({
    value: '0x5',
    logs: [
      log('event Transfer(address indexed from, address indexed to, uint256 value)', { from: A, to: B, value: 7n }),
      log('event Approval(address indexed owner, address indexed spender, uint256 value)', {
        owner: A,
        spender: B,
        value: 2n ** 256n - 1n,
      }),
      log('event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)', {
        from: A,
        to: B,
        tokenId: 42n,
      }),
      log('event ApprovalForAll(address indexed owner, address indexed operator, bool approved)', {
        owner: A,
        operator: B,
        approved: true,
      }),
    ],
    calls: [
      frame({
        from: TOKEN,
        to: B,
        logs: [
          log(
            'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
            {
              operator: A,
              from: A,
              to: B,
              id: 3n,
              value: 9n,
            },
          ),
          log(
            'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
            {
              operator: A,
              from: A,
              to: B,
              ids: [1n, 2n],
              values: [10n, 20n],
            },
          ),
        ],
      }),
      // A frame that failed: nothing in it (nor beneath it) happened.
      frame({
        from: TOKEN,
        to: B,
        value: '0x64',
        error: 'execution reverted',
        logs: [
          log('event Transfer(address indexed from, address indexed to, uint256 value)', { from: B, to: A, value: 1n }),
        ],
        calls: [frame({ from: B, to: A, value: '0x1' })],
      }),
      // A DELEGATECALL's value is its caller's, not a transfer.
      frame({ type: 'DELEGATECALL', from: TOKEN, to: B, value: '0x5' }),
    ],
  })
  expect(collectMovements(trace)).toEqual([
    { kind: 'ether', from: A, to: TOKEN, amount: 5n },
    { kind: 'erc20', token: TOKEN, from: A, to: B, amount: 7n },
    { kind: 'approval', token: TOKEN, owner: A, spender: B, amount: 2n ** 256n - 1n },
    { kind: 'erc721', token: TOKEN, from: A, to: B, tokenId: 42n },
    { kind: 'approvalForAll', token: TOKEN, owner: A, operator: B, approved: true },
    { kind: 'erc1155', token: TOKEN, from: A, to: B, id: 3n, amount: 9n },
    { kind: 'erc1155', token: TOKEN, from: A, to: B, id: 1n, amount: 10n },
    { kind: 'erc1155', token: TOKEN, from: A, to: B, id: 2n, amount: 20n },
  ])
})
