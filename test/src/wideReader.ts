const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0')

/**
 * Runtime code that reads `slots` storage slots, the balances of `accounts` addresses, and calls
 * `callee` (which reads its own slot): a call whose state footprint is known up front.
 */
export function wideReaderInitCode(slots: number, accounts: number, callee: string): string {
  let code = ''
  for (let i = 0; i < slots; i++) code += `61${hex(i, 2)}5450` // PUSH2 i SLOAD POP
  for (let i = 0; i < accounts; i++) code += `73${hex(0xbe000 + i, 20)}3150` // PUSH20 a BALANCE POP
  code += `6020600060006000600073${callee.slice(2)}5af150` // CALL(gas, callee, 0, 0, 0, 0, 32) POP
  code += '60206000f3' // RETURN its word
  const len = code.length / 2
  const init = `61${hex(len, 2)}80600c6000396000f3`
  return `0x${init}${code}`
}
