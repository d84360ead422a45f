import { ParamError } from '../params.js'
import { parseObject } from '../parsers.js'
import { parsePreviewOptions } from './parsePreviewCalls.js'

/** edgetrace_previewTypedData's options: the spender signals' windows, as edgetrace_previewTransactions names them. */
export type TypedDataOptions = {
  newContractDays?: number | undefined
  firstInteractionBlocks?: number | undefined
}

const OPTIONS = ['newContractDays', 'firstInteractionBlocks']

/**
 * edgetrace_previewTypedData's `options`: `{ newContractDays, firstInteractionBlocks }` — the age in
 * days under which a spender contract is new (default 30, 0 off, at most 36500) and the blocks looked
 * back for the account's first interaction with it (default 32, 0 off, at most 1024), checked as
 * edgetrace_previewTransactions checks them; any other key is refused naming the known ones.
 */
export function parseTypedDataOptions(raw: unknown): TypedDataOptions {
  const o = parseObject(raw, 'preview options')
  for (const key of Object.keys(o)) {
    if (!OPTIONS.includes(key)) throw new ParamError(`options.${key}: unknown option (known: ${OPTIONS.join(', ')})`)
  }
  const { newContractDays, firstInteractionBlocks } = parsePreviewOptions(o)
  return { newContractDays, firstInteractionBlocks }
}
