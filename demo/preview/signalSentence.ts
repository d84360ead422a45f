import { eth } from '../format.js'
import type { PreviewSignal } from './previewTypes.js'

/** How a sentence names things: an address (a person's label), a token by its symbol, a date. */
export type SentenceWords = {
  who: (address: string) => Node | string
  token: (address: string) => string
}

const str = (v: unknown) => (typeof v === 'string' ? v : String(v))
const day = (seconds: unknown) => new Date(Number(BigInt(str(seconds))) * 1000).toISOString().slice(0, 10)
const callNo = (call: unknown) => `call ${Number(call) + 1}`

/**
 * One signal of edgetrace_previewTransactions or edgetrace_previewTypedData as a sentence a person
 * reads before signing (the kinds of src/exec/preview/signals/; an unknown kind is said by its name and
 * fields, so that a daemon newer than the page still shows it).
 */
export function signalSentence(s: PreviewSignal, words: SentenceWords): (Node | string)[] {
  const { who, token } = words
  switch (s.kind) {
    case 'unlimitedApproval':
      return [
        'Unlimited approval: ',
        who(str(s.spender)),
        ` may take all your ${token(str(s.token))}`,
        s.standard === 'permit2' ? ' through Permit2' : '',
        s.expiration !== undefined && s.expiration !== null
          ? ` until ${day(s.expiration)}`
          : ', now and whatever you hold later',
        '.',
      ]
    case 'spenderIsEoa':
      return s.delegated
        ? [
            'The spender ',
            who(str(s.spender)),
            ' is an account delegating to ',
            who(str(s.delegatedTo)),
            ' (EIP-7702): its key can change that code at any time.',
          ]
        : [
            'The spender ',
            who(str(s.spender)),
            ' has no code (a plain account): whoever holds its key can move what you allow, no contract limits it.',
          ]
    case 'recipientIsEoa':
      return [
        who(str(s.recipient)),
        ` receives your ${token(str(s.token))} and has no code${s.delegated ? ' (it delegates by EIP-7702)' : ''}: check the address — tokens sent to a wrong one are lost.`,
      ]
    case 'transferToTokenContract':
      return [
        `You send ${token(str(s.token))} to the token's own contract `,
        who(str(s.recipient)),
        ': tokens sent there are usually lost.',
      ]
    case 'newContract':
      if (s.age === 'unknown')
        return [
          'Could not tell whether the spender ',
          who(str(s.spender)),
          ` is younger than ${str(s.days)} days (the bounded search did not decide).`,
        ]
      return [
        'The spender ',
        who(str(s.spender)),
        ` is a new contract: created less than ${str(s.days)} days ago`,
        typeof s.createdAfter === 'object' && s.createdAfter !== null
          ? ` (after block ${BigInt(str((s.createdAfter as { number: string }).number))}, ${day((s.createdAfter as { timestamp: string }).timestamp)})`
          : '',
        '.',
      ]
    case 'firstInteraction': {
      const window = (s.window ?? {}) as { from?: string; to?: string }
      return [
        'You have not sent a transaction to ',
        who(str(s.contract)),
        window.from !== undefined && window.to !== undefined
          ? ` in the last blocks looked at (${BigInt(window.from)}–${BigInt(window.to)}).`
          : ' before.',
      ]
    }
    case 'valueToNonPayable':
      return [
        `${callNo(s.call)} sends ${eth(BigInt(str(s.value)))} to `,
        who(str(s.to)),
        `, which refuses ether (it reverts without a reason)${s.callFailed ? ': the call fails' : ': the ether stays with the sender'}.`,
      ]
    case 'selfDestruct':
      return [
        `${callNo(s.call)}: the contract `,
        who(str(s.contract)),
        ` self-destructs, sending ${eth(BigInt(str(s.value)))} to `,
        who(str(s.beneficiary)),
        '.',
      ]
    case 'delegationInstalled':
      return [
        `${callNo(s.call)} makes `,
        who(str(s.authority)),
        ' delegate to ',
        who(str(s.delegate)),
        " (EIP-7702): that contract's code then acts for the account, with everything it holds.",
      ]
    case 'delegationCleared':
      return [`${callNo(s.call)} clears the EIP-7702 delegation of `, who(str(s.authority)), '.']
    default: {
      const { kind, severity: _severity, ...rest } = s
      return [`${kind}: ${JSON.stringify(rest)}`]
    }
  }
}
