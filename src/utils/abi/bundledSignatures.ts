import { COMMON_SIGNATURES } from './commonSignatures.js'
import { type SignatureTable, createSignatureTable } from './createSignatureTable.js'

let bundled: SignatureTable | undefined

/** The bundled table (COMMON_SIGNATURES), built once on first use. */
export const bundledSignatures = (): SignatureTable => (bundled ??= createSignatureTable(COMMON_SIGNATURES))
