import { defineMethod } from '../defineMethod.js'

/** The Otterscan API level the reference daemon serves (otterscan_api.go API_LEVEL). */
export const OTS_API_LEVEL = 8

/** ots_getApiLevel(): 8, a bare JSON number (a Go uint8). */
export const getApiLevel = defineMethod({
  name: 'ots_getApiLevel',
  params: [],
  async run(): Promise<number> {
    return OTS_API_LEVEL
  },
})
