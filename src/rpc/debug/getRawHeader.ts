import { bytesToHex } from '@ethereumjs/util'
import { required } from '../params.js'
import { parseBlockNumberOrHashStrict, rawBlockHeader } from './rawBlockHeader.js'
import { defineMethod } from '../defineMethod.js'

/** debug_getRawHeader(block): the RLP of a header edgetrace hashed itself. */
export const getRawHeader = defineMethod({
  name: 'debug_getRawHeader',
  params: [required(parseBlockNumberOrHashStrict)],
  async run(engine, [selector]): Promise<string> {
    return bytesToHex((await rawBlockHeader(engine, selector, 'header')).header.serialize())
  },
})
