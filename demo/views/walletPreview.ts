import { decodeLog } from '../abi/signatures.js'
import { h } from '../dom.js'
import { big, eth, short, units } from '../format.js'
import { type CallFrame, walk } from '../traceTypes.js'

/** What a call would move: ether, tokens (ERC-20, 721, 1155) and approvals, from one call trace. */
export type Movement =
  | { kind: 'ether'; from: string; to: string; amount: bigint }
  | { kind: 'erc20'; token: string; from: string; to: string; amount: bigint }
  | { kind: 'erc721'; token: string; from: string; to: string; tokenId: bigint }
  | { kind: 'erc1155'; token: string; from: string; to: string; id: bigint; amount: bigint }
  | { kind: 'approval'; token: string; owner: string; spender: string; amount: bigint }
  | { kind: 'approval721'; token: string; owner: string; spender: string; tokenId: bigint }
  | { kind: 'approvalForAll'; token: string; owner: string; operator: string; approved: boolean }

const arg = (args: { name: string; value: unknown }[], i: number) => String(args[i]!.value)

/**
 * The movements, in execution order: value carried by every call frame that did not fail (nor
 * any caller of it), and the token standards' events those frames emitted.
 */
export function collectMovements(root: CallFrame): Movement[] {
  const out: Movement[] = []
  walk(root, (frame, _path, failedAbove) => {
    if (failedAbove || frame.error) return
    const value = big(frame.value)
    if (value > 0n && frame.type !== 'DELEGATECALL' && frame.type !== 'STATICCALL')
      out.push({ kind: 'ether', from: frame.from, to: frame.to ?? '?', amount: value })
    for (const log of frame.logs ?? []) {
      const decoded = decodeLog(log.topics, log.data)
      if (!decoded) continue
      const a = decoded.args
      const token = log.address
      const sig = decoded.signature
      if (sig === 'Transfer(address,address,uint256)' && log.topics.length === 3)
        out.push({ kind: 'erc20', token, from: arg(a, 0), to: arg(a, 1), amount: BigInt(arg(a, 2)) })
      else if (sig === 'Transfer(address,address,uint256)' && log.topics.length === 4)
        out.push({ kind: 'erc721', token, from: arg(a, 0), to: arg(a, 1), tokenId: BigInt(arg(a, 2)) })
      else if (sig === 'Approval(address,address,uint256)' && log.topics.length === 3)
        out.push({ kind: 'approval', token, owner: arg(a, 0), spender: arg(a, 1), amount: BigInt(arg(a, 2)) })
      else if (sig === 'Approval(address,address,uint256)' && log.topics.length === 4)
        out.push({ kind: 'approval721', token, owner: arg(a, 0), spender: arg(a, 1), tokenId: BigInt(arg(a, 2)) })
      else if (sig === 'ApprovalForAll(address,address,bool)')
        out.push({
          kind: 'approvalForAll',
          token,
          owner: arg(a, 0),
          operator: arg(a, 1),
          approved: arg(a, 2) === 'true',
        })
      else if (sig === 'TransferSingle(address,address,address,uint256,uint256)')
        out.push({
          kind: 'erc1155',
          token,
          from: arg(a, 1),
          to: arg(a, 2),
          id: BigInt(arg(a, 3)),
          amount: BigInt(arg(a, 4)),
        })
      else if (sig === 'TransferBatch(address,address,address,uint256[],uint256[])') {
        const ids = a[3]!.value as string[]
        const amounts = a[4]!.value as string[]
        for (const [i, id] of ids.entries())
          out.push({
            kind: 'erc1155',
            token,
            from: arg(a, 1),
            to: arg(a, 2),
            id: BigInt(id),
            amount: BigInt(amounts[i] ?? '0'),
          })
      }
    }
  })
  return out
}

export type TokenInfo = { symbol?: string; decimals?: number }

const MAX = (1n << 256n) - 1n

/** The preview, as a wallet would show it before signing: who sends what to whom, and what is approved. */
export function renderWalletPreview(
  movements: readonly Movement[],
  tokens: ReadonlyMap<string, TokenInfo>,
  nameOf: (a: string) => string | undefined,
  you: string | undefined,
): HTMLElement {
  if (movements.length === 0) return h('p', { class: 'muted' }, 'Moves no ether or tokens and approves nothing.')
  const who = (a: string) => {
    const label = a.toLowerCase() === you?.toLowerCase() ? 'you' : (nameOf(a) ?? short(a, 6))
    return h('span', { class: 'who', title: a }, label)
  }
  const amount = (token: string, value: bigint) => {
    const info = tokens.get(token.toLowerCase())
    if (value === MAX) return `unlimited ${info?.symbol ?? short(token, 6)}`
    return `${units(value, info?.decimals ?? 0)} ${info?.symbol ?? `tokens of ${short(token, 6)}`}`
  }
  const isYou = (a: string) => a.toLowerCase() === you?.toLowerCase()
  const verb = (a: string, v: string) => (isYou(a) ? ` ${v} ` : ` ${v === 'let' ? 'lets' : `${v}s`} `)
  /** `<from> send(s) <what>[ of <token>] to <to>[ (<standard>)]` */
  const sends = (from: string, what: string, to: string, token?: string, standard?: string) => [
    who(from),
    verb(from, 'send'),
    h('b', {}, what),
    token ? ` of ${short(token, 6)}` : '',
    ' to ',
    who(to),
    standard ? ` (${standard})` : '',
  ]
  const line = (m: Movement): (HTMLElement | string)[] => {
    switch (m.kind) {
      case 'ether':
        return sends(m.from, eth(m.amount), m.to)
      case 'erc20':
        return sends(m.from, amount(m.token, m.amount), m.to, undefined, 'ERC-20')
      case 'erc721':
        return sends(m.from, `NFT #${m.tokenId}`, m.to, m.token, 'ERC-721')
      case 'erc1155':
        return sends(m.from, `${m.amount} × id ${m.id}`, m.to, m.token, 'ERC-1155')
      case 'approval':
        return [
          who(m.owner),
          verb(m.owner, 'let'),
          who(m.spender),
          ' spend ',
          h('b', {}, amount(m.token, m.amount)),
          ' (approval)',
        ]
      case 'approval721':
        return [
          who(m.owner),
          verb(m.owner, 'let'),
          who(m.spender),
          ' take ',
          h('b', {}, `NFT #${m.tokenId}`),
          ` of ${short(m.token, 6)} (approval)`,
        ]
      case 'approvalForAll':
        return [
          who(m.owner),
          m.approved ? verb(m.owner, 'let') : ` no longer ${isYou(m.owner) ? 'let' : 'lets'} `,
          who(m.operator),
          ` move all of ${short(m.token, 6)} (approval for all)`,
        ]
    }
  }
  return h(
    'ul',
    { class: 'movements' },
    movements.map((m) => h('li', { class: `movement ${m.kind}` }, line(m))),
  )
}
