import { MessageRejectedError } from '../../errors/execution.js'
import { parseTraceConfig } from '../parseTraceConfig.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { parseCallArgs } from '../parseCallArgs.js'
import { optional, required } from '../params.js'
import { traceOne } from './traceRuns.js'
import { defineMethod } from '../defineMethod.js'

/** geth words errors that stop a traced message before it runs as "tracing failed: …". */
export function tracingFailed(err: unknown): unknown {
  return err instanceof MessageRejectedError ? new MessageRejectedError(`tracing failed: ${err.shortMessage}`) : err
}

/**
 * debug_traceCall(call, block = latest, config?): the call traced on the verified state at the end
 * of the block (or before transaction `config.txIndex` of it), with the block's header; geth's
 * stateOverrides and blockOverrides applied; gas defaults to the gas cap; no base fee for a call
 * without fee fields.
 */
export const traceCall = defineMethod({
  name: 'debug_traceCall',
  params: [required(parseCallArgs), optional(parseBlockParameter), optional(parseTraceConfig)],
  async run(engine, [args, selector, plan], context): Promise<unknown> {
    const config = plan ?? parseTraceConfig({})
    const call = { args, stateOverrides: config.stateOverrides, blockOverrides: config.blockOverrides }
    // With txIndex, the replay and the call share the request's one deadline (runTrace).
    const before = config.txIndex === undefined ? undefined : { count: config.txIndex, pastEnd: 'error' as const }
    const target = {
      kind: 'calls' as const,
      block: selector ?? { kind: 'tag' as const, tag: 'latest' as const },
      calls: [call],
      before,
    }
    return traceOne(engine, config, target, { deadline: context.deadline }, tracingFailed)
  },
})
