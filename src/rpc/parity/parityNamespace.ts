import { defineNamespace } from '../defineNamespace.js'
import { listStorageKeys } from './listStorageKeys.js'

/** parity: what the reference daemon keeps of OpenEthereum's namespace. */
export const parityNamespace = defineNamespace({
  name: 'parity',
  summary: "parity_listStorageKeys: an account's storage keys, paged, from proven storage",
  methods: [listStorageKeys],
})
