import type { CustomCrypto } from '@ethereumjs/common'
import { keccak256 } from '../utils/keccak256.js'
import { replayKzg } from './replayKzg.js'

/**
 * What every Common edgetrace makes hands ethereumjs for its cryptography: the project's Keccak-256
 * (WebAssembly; the tries, header and transaction hashes, the EVM's KECCAK256 and code hashes of the
 * state managers) and the KZG that replays blob transactions.
 */
export const customCrypto: CustomCrypto = { kzg: replayKzg, keccak256 }
