import { defineMethod } from '../defineMethod.js'

/** net_listening(): true, the daemon is serving. */
export const listening = defineMethod({
  name: 'net_listening',
  params: [],
  async run() {
    return true
  },
})
