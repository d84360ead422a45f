import type { OpcodeTablePatch } from './createOpcodeTablePatch.js'

type OpInfo = { code: number; name: string; fullName: string; fee: number; isAsync: boolean; dynamicGas: boolean }

/**
 * ethereumjs runs every byte its fork does not define with the INVALID (0xfe) entry, so its step
 * event reports 0xfe for them; geth names such a step by its own byte ("opcode 0xc not defined").
 * Each undefined byte gets a twin of the entry that carries its byte (built by the EVM's own Opcode
 * class, as the interrupts' twins are), so a step tells which byte it ran.
 */
export function nameUndefinedOpcodes(table: OpcodeTablePatch): void {
  for (let op = 0; op <= 0xff; op++) {
    if (op === 0xfe) continue
    table.replace(op, (entry) => {
      const info = entry.opcodeInfo as unknown as OpInfo
      if (info.code !== 0xfe) return entry
      const OpcodeClass = (info as object).constructor as new (fields: OpInfo) => OpInfo
      const twin = new OpcodeClass({
        code: op,
        name: info.name,
        fullName: info.fullName,
        fee: info.fee,
        isAsync: info.isAsync,
        dynamicGas: info.dynamicGas,
      })
      return { ...entry, opcodeInfo: twin as unknown as typeof entry.opcodeInfo }
    })
  }
}
