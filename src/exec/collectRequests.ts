import type { VM } from '@ethereumjs/vm'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToBigInt, concatBytes, createAddressFromString, equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { RequestContracts } from '../chain/requestContracts.js'
import { BaseError } from '../errors/base.js'
import type { AccessListEntry } from '../state/types.js'
import type { Hex } from '../types/hex.js'

/** The caller of system calls (EIP-4788's). */
const SYSTEM_ADDRESS = '0xfffffffffffffffffffffffffffffffffffffffe'
const SYSTEM_CALL_GAS = 30_000_000n
/** EIP-6110: the deposit contract's DepositEvent(bytes,bytes,bytes,bytes,bytes). */
const DEPOSIT_TOPIC = hexToBytes('0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5')
/** The event's five fields: [offset of the length word, size]. */
const DEPOSIT_FIELDS: [number, number][] = [
  [160, 48], // pubkey
  [256, 32], // withdrawal credentials
  [320, 8], // amount
  [384, 96], // signature
  [512, 8], // index
]

const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

/**
 * What the request system calls read of a base state whose queues are empty — the system address,
 * the two queue contracts and their first four slots (excess, count, queue head and tail) — for a
 * simulation to prefetch with the rest.
 */
export function requestSystemReads(contracts: RequestContracts): AccessListEntry[] {
  return [
    { address: SYSTEM_ADDRESS, storageKeys: [] },
    { address: contracts.withdrawalQueue as Hex, storageKeys: [0, 1, 2, 3].map(slot) },
    { address: contracts.consolidationQueue as Hex, storageKeys: [0, 1, 2, 3].map(slot) },
  ]
}

export type ReceiptLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array]

export class InvalidDepositLogError extends BaseError {
  override name = 'InvalidDepositLogError'
}

/** One deposit request: the event's fields concatenated, after checking the ABI layout (geth's). */
function depositRequest(data: Uint8Array): Uint8Array {
  if (data.length !== 576) throw new InvalidDepositLogError(`invalid deposit log: unsupported data layout`)
  const parts = DEPOSIT_FIELDS.map(([at, size], i) => {
    const offset = Number(bytesToBigInt(data.subarray(i * 32, i * 32 + 32)))
    const length = Number(bytesToBigInt(data.subarray(at, at + 32)))
    if (offset !== at || length !== size) {
      throw new InvalidDepositLogError(`invalid deposit log: unsupported data layout`)
    }
    return data.subarray(at + 32, at + 32 + size)
  })
  return concatBytes(...parts)
}

/** A queue contract's system call: what it returns is its requests (its storage is dequeued). */
async function dequeue(vm: VM, contract: string): Promise<Uint8Array> {
  const to = createAddressFromString(contract)
  if ((await vm.stateManager.getCode(to)).length === 0) return new Uint8Array()
  const caller = createAddressFromString(SYSTEM_ADDRESS)
  const before = await vm.stateManager.getAccount(caller)
  const result = await vm.evm.runCall({ caller, to, gasLimit: SYSTEM_CALL_GAS })
  // The system call leaves no trace on its caller.
  const after = await vm.stateManager.getAccount(caller)
  if (before === undefined && after !== undefined) await vm.stateManager.deleteAccount(caller)
  else if (before !== undefined && after !== undefined && !equalsBytes(before.serialize(), after.serialize())) {
    await vm.stateManager.putAccount(caller, before)
  }
  if (result.execResult.exceptionError) {
    throw new BaseError(`system call to ${contract} failed: ${result.execResult.exceptionError.error}`)
  }
  return result.execResult.returnValue
}

/**
 * A block's EIP-7685 requests hash, made as geth's simulated and real blocks make it after their
 * transactions (Prague on): deposits parsed from the deposit contract's logs (EIP-6110), then the
 * withdrawal (EIP-7002) and consolidation (EIP-7251) queues emptied by their system calls (each
 * contract where the chain has it: see requestContracts) — which
 * write the queues' storage, so the state root sees them. sha256 over the sha256 of each non-empty
 * `type ‖ data`.
 */
export async function collectRequests(vm: VM, logs: ReceiptLog[], contracts: RequestContracts): Promise<Uint8Array> {
  const requests: [number, Uint8Array][] = []
  const deposits: Uint8Array[] = []
  if (contracts.deposit !== undefined) {
    const from = hexToBytes(contracts.deposit as `0x${string}`)
    for (const [address, topics, data] of logs) {
      if (equalsBytes(address, from) && topics[0] && equalsBytes(topics[0], DEPOSIT_TOPIC))
        deposits.push(depositRequest(data))
    }
  }
  requests.push([0, concatBytes(...deposits)])
  requests.push([1, await dequeue(vm, contracts.withdrawalQueue)])
  requests.push([2, await dequeue(vm, contracts.consolidationQueue)])
  const hashes = requests
    .filter(([, data]) => data.length > 0)
    .map(([type, data]) => sha256(concatBytes(Uint8Array.from([type]), data)))
  return sha256(concatBytes(...hashes))
}
