import { defineNamespace } from '../defineNamespace.js'
import { listStorageKeys } from './listStorageKeys.js'

/** parity: what the reference daemon keeps of OpenEthereum's namespace. */
export const parityNamespace = defineNamespace({ name: 'parity', methods: [listStorageKeys] })
